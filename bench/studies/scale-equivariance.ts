// Scale equivariance of the predictors and of distribution validation (issue 44, docs/studies/scale-equivariance.md):
// one synthetic MOANA map (`varmap synth --maps 1`), its runs multiplied by 1e160 / 1e-160 (scalar cv: gp, rbf, lsp
// on a linear response) and by 1e298 / 1e-300 (cv --target distribution on the configurations with threads ≤ 10,
// params with `varmap mixture` fits of each scaled copy),
// through the CLI exactly as a user runs it. Prints each cell's mean ARE or KS and its largest difference from ×1.
//   node dist/bench/studies/scale-equivariance.js [--keep DIR]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../ts/package-root.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";
import { loadDataset } from "../../ts/data/load.js";
import { createPredictor } from "../../ts/predict/registry.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const dir = flag("--keep") ?? mkdtempSync(join(tmpdir(), "varmap-scale-"));
const started = process.cpuUsage();
let childCpu = 0;
function varmap(args: string[]): void {
  const t0 = Date.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, cli, ...args, "--quiet"], { encoding: "utf8" });
  const times = r.stderr.trim().split("\n").pop()!.split(" ").map(Number);
  childCpu += (times[0] ?? 0) + (times[1] ?? 0);
  if (r.status !== 0) throw new Error(`varmap ${args.join(" ")} failed (${Date.now() - t0} ms): ${r.stderr}`);
}
const csv = (path: string) => {
  const [head, ...rows] = readFileSync(path, "utf8").trim().split("\n");
  const names = head.split(",");
  return rows.map((l) => Object.fromEntries(l.split(",").map((v, i) => [names[i], v])));
};

varmap(["synth", "--design", "moana", "--maps", "1", "--out", join(dir, "synth.csv")]);
const lines = readFileSync(join(dir, "synth.csv"), "utf8").trim().split("\n");
const header = lines[0];
const respCol = header.split(",").indexOf("throughput_kbps");
const threadsCol = header.split(",").indexOf("threads");
function scaled(name: string, f: number, keep: (cells: string[]) => boolean = () => true): string {
  const out = [header];
  for (const l of lines.slice(1)) {
    const c = l.split(",");
    if (!keep(c)) continue;
    c[respCol] = String(Number(c[respCol]) * f);
    out.push(c.join(","));
  }
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, out.join("\n") + "\n");
  return file;
}

console.log("scalar cv (p 0.5, 2 reps, --log-response none --log-inputs none): mean ARE");
console.log("method               ×1             ×1e160         ×1e-160        largest |Δ| from ×1");
for (const [label, extra] of [
  ["gp", []],
  ["gp --gp-noise none", ["--gp-noise", "none"]],
  ["rbf", []],
  ["lsp", []],
] as [string, string[]][]) {
  const method = label.split(" ")[0];
  const are = [1, 1e160, 1e-160].map((f) => {
    const out = join(dir, `cv-${method}-${extra.length}-${f}`);
    const data = scaled(`s-${f}`, f);
    varmap([
      "cv",
      data,
      "--preset",
      "moana",
      "--methods",
      method,
      ...extra,
      "--p",
      "0.5",
      "--reps",
      "2",
      "--log-response",
      "none",
      "--log-inputs",
      "none",
      "--out",
      out,
    ]);
    return Number(csv(join(out, "are.csv"))[0].are_mean);
  });
  const diff = Math.max(Math.abs(are[1] - are[0]), Math.abs(are[2] - are[0]));
  console.log(`${label.padEnd(20)} ${are.map((a) => a.toPrecision(10).padEnd(14)).join(" ")} ${diff.toExponential(2)}`);
}

console.log("\nscalar cv (p 0.5, 2 reps, the automatic transforms), inputs freq_khz and fsize_kb × f: mean ARE");
console.log("method     ×1             ×1e300         ×1e-300");
{
  const cols = header.split(",");
  const inputCols = [cols.indexOf("freq_khz"), cols.indexOf("fsize_kb")];
  const files = [1, 1e300, 1e-300].map((f) => {
    const out = [header];
    for (const l of lines.slice(1)) {
      const c = l.split(",");
      for (const j of inputCols) c[j] = String(Number(c[j]) * f);
      out.push(c.join(","));
    }
    const file = join(dir, `inputs-${f}.csv`);
    writeFileSync(file, out.join("\n") + "\n");
    return file;
  });
  const are = files.map((file, i) => {
    const out = join(dir, `cv-inputs-${i}`);
    varmap(["cv", file, "--preset", "moana", "--methods", "gp,rbf,lsp", "--p", "0.5", "--reps", "2", "--out", out]);
    return new Map(csv(join(out, "are.csv")).map((r) => [r.method, Number(r.are_mean)]));
  });
  for (const m of ["gp", "rbf", "lsp"]) console.log(`${m.padEnd(10)} ${are.map((a) => a.get(m)!.toPrecision(10).padEnd(14)).join(" ")}`);
}

console.log("\ncv --target distribution (threads ≤ 10, --folds 5): KS per prediction");
const ks = [1, 1e298, 1e-300].map((f) => {
  const out = join(dir, `cvd-${f}`);
  const data = scaled(`d-${f}`, f, (c) => Number(c[threadsCol]) <= 10);
  const fits = join(dir, `fits-${f}.csv`);
  varmap(["mixture", data, "--preset", "moana", "--kmax", "2", "--families", "normal,lognormal", "--out", fits]);
  varmap([
    "cv",
    data,
    "--preset",
    "moana",
    "--target",
    "distribution",
    "--dists",
    "locscale,normal,quantile,cdf,params",
    "--fits",
    fits,
    "--folds",
    "5",
    "--out",
    out,
  ]);
  return { f, rows: csv(join(out, "ks.csv")) };
});
console.log("method     mean KS ×1     mean KS ×1e298  mean KS ×1e-300  largest |ΔKS| or |ΔW1|  largest relative Δ of the summaries");
for (const method of ["locscale", "normal", "quantile", "cdf", "params"]) {
  const pick = (i: number) => ks[i].rows.filter((r) => r.method === method);
  const base = pick(0);
  const mean = (rows: Record<string, string>[]) => rows.reduce((s, r) => s + Number(r.ks), 0) / rows.length;
  let dk = 0,
    dm = 0;
  for (const i of [1, 2]) {
    const rows = pick(i);
    rows.forEach((r, k) => {
      dk = Math.max(dk, Math.abs(Number(r.ks) - Number(base[k].ks)));
      dk = Math.max(dk, Math.abs(Number(r.w1_rel) - Number(base[k].w1_rel)));
      for (const c of ["mean_pred", "sd_pred", "q10_pred", "q90_pred", "sd_obs"]) {
        const x = Number(base[k][c]),
          y = Number(r[c]) / ks[i].f;
        dm = Math.max(dm, x ? Math.abs(y / x - 1) : Math.abs(y));
      }
    });
  }
  console.log(
    `${method.padEnd(10)} ${mean(base).toFixed(10)}   ${mean(pick(1)).toFixed(10)}    ${mean(pick(2)).toFixed(10)}     ${dk.toExponential(2)}       ${dm.toExponential(2)}`,
  );
}
// gp's own dependence on the responses' magnitude, without any scaling by the fix: exact power-of-two rescalings
// inside the band (nothing is divided there), on the map's odd rows predicted from its even ones.
console.log("\ngp (--gp-noise none, linear response) on the same map, responses × f, mean ARE − that at × 1:");
{
  const { maps } = await loadDataset(join(dir, "synth.csv"), { preset: "moana", logInputs: [] });
  const m = maps[0];
  const d = m.inputNames.length;
  const rows = (odd: number) => Array.from({ length: m.rows }, (_, i) => i).filter((i) => i % 2 === odd);
  const [train, test] = [rows(0), rows(1)];
  const take = (rs: number[]) => ({ data: Float64Array.from(rs.flatMap((r) => Array.from(m.U.subarray(r * d, r * d + d)))), rows: rs.length, cols: d });
  const are = (f: number) => {
    const model = createPredictor("gp", { inputs: { kind: "none" }, noise: "none" }).fit(
      take(train),
      train.map((r) => m.y[r] * f),
    );
    const p = model.predict(take(test));
    return test.reduce((s, r, k) => s + Math.abs(p[k] / f - m.y[r]) / m.y[r], 0) / test.length;
  };
  const base = are(1);
  for (const [label, f] of [
    ["× 3", 3],
    ["× 2^20", 2 ** 20],
    ["× 2^-20", 2 ** -20],
    ["× 1e160", 1e160],
    ["× 1e-160", 1e-160],
  ] as [string, number][])
    console.log(`${label.padEnd(10)} ${(are(f) - base).toExponential(2)}`);
}

const own = process.cpuUsage(started);
console.log(`\nCPU: ${childCpu.toFixed(1)} s in varmap processes, ${((own.user + own.system) / 1e6).toFixed(1)} s here`);
if (!flag("--keep")) rmSync(dir, { recursive: true, force: true });
