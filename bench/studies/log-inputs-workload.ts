// `--log-inputs auto` on maps with continuous inputs: the spline judge (ts/predict/log-inputs-judge.ts) against the
// span rule alone (every positive input spanning > 2× logged: `--log-inputs x1,x2,…`) and against no logs, by `cv`
// through the real CLI. Five synthetic maps of 1,500–2,000 configurations, sd = 100 · exp(g(x) + 5 % noise):
//   smooth3 / smooth4   x uniform on (0, 1) in 3 / 4 inputs, g = 0.4 Σ sin(2.5 (j+1) x_j) + 0.5 x_1²
//   narrow3             the same g on x uniform on (1, 4) (spans of 4)
//   power3              x uniform on (0.01, 1), g = 0.5 ln x1 − 0.3 ln x2 + 0.05 ln x1 ln x3 (linear on log scales)
//   loguniform3         the same g with x log-uniform on (0.01, 1)
// Prints the mean ARE (%) per map, setting and method, the inputs the judge logged, and how long loading took with
// the judge (it fits a spline per choice of logs on ≤ 3 maps × 400 configurations) and without.
// Usage: node dist/bench/studies/log-inputs-workload.js [--maps smooth3,power3] [--methods gp,rbf,delaunay,lsp] [--reps 2]
//        [--p 0.5] [--workers 2]
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerLogInputsJudge } from "../../ts/data/auto-transforms.js";
import { loadDataset } from "../../ts/data/load.js";
import { splineGcvJudge } from "../../ts/predict/log-inputs-judge.js";
import { packageRoot } from "../../ts/package-root.js";
import { mulberry32Uniform } from "../../ts/util/mulberry32.js";
import { flag } from "../../ts/benchmarks/shared-dir.js";

interface MapSpec {
  d: number;
  n: number;
  draw: (r: () => number) => number;
  g: (x: number[]) => number;
}
const smooth = (x: number[], lo: number, width: number): number =>
  0.4 * x.reduce((s, v, j) => s + Math.sin((2.5 * (v - lo) * (j + 1)) / width), 0) + 0.5 * ((x[0] - lo) / width) ** 2;
const power = (x: number[]): number => 0.5 * Math.log(x[0]) - 0.3 * Math.log(x[1]) + 0.05 * Math.log(x[0]) * Math.log(x[2]);
const SPECS: Record<string, MapSpec> = {
  smooth3: { d: 3, n: 1500, draw: (r) => Math.max(r(), 1e-6), g: (x) => smooth(x, 0, 1) },
  smooth4: { d: 4, n: 2000, draw: (r) => Math.max(r(), 1e-6), g: (x) => smooth(x, 0, 1) },
  narrow3: { d: 3, n: 1500, draw: (r) => 1 + 3 * r(), g: (x) => smooth(x, 1, 3) },
  power3: { d: 3, n: 1500, draw: (r) => 0.01 + 0.99 * r(), g: power },
  loguniform3: { d: 3, n: 1500, draw: (r) => 10 ** (2 * r() - 2), g: power },
};

const names = (flag("--maps") ?? Object.keys(SPECS).join(",")).split(",");
const methods = flag("--methods") ?? "gp,rbf,delaunay,lsp";
const reps = flag("--reps") ?? "2";
const p = flag("--p") ?? "0.5";
const workers = flag("--workers") ?? "2";
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const work = join(tmpdir(), "varmap-bench", "log-inputs");
mkdirSync(work, { recursive: true });

function writeMap(name: string, spec: MapSpec): string {
  const r = mulberry32Uniform(11 + Object.keys(SPECS).indexOf(name));
  const cols = Array.from({ length: spec.d }, (_, j) => `x${j + 1}`);
  const lines = [`id,${cols.join(",")},sd`];
  for (let i = 0; i < spec.n; i++) {
    const x = cols.map(() => spec.draw(r));
    const noise = 0.05 * Math.sqrt(-2 * Math.log(Math.max(r(), 1e-300))) * Math.cos(2 * Math.PI * r());
    lines.push(`${i},${x.map((v) => v.toPrecision(6)).join(",")},${(100 * Math.exp(spec.g(x) + noise)).toPrecision(6)}`);
  }
  const file = join(work, `${name}.csv`);
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

function cv(file: string, cols: string, logInputs: string, out: string): Record<string, number> {
  rmSync(out, { recursive: true, force: true });
  const args = [cli, "cv", file, "--map", "--id", "id", "--inputs", cols, "--response", "sd", "--methods", methods, "--p", p, "--reps", reps];
  const r = spawnSync(process.execPath, [...args, "--log-inputs", logInputs, "--workers", workers, "--out", out, "--quiet"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`varmap cv exited with ${r.status}: ${r.stderr}`);
  const [head, row] = readFileSync(join(out, "table2.csv"), "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  return Object.fromEntries(methods.split(",").map((m) => [m, 100 * Number(row[head.indexOf(`are_${m}`)])]));
}

async function loadSeconds(file: string, cols: string): Promise<{ seconds: number; logged: string[] }> {
  const t0 = performance.now();
  const ds = await loadDataset(file, { map: true, id: "id", inputs: cols.split(","), response: "sd", logInputs: ["auto"], logResponse: "auto" });
  return { seconds: (performance.now() - t0) / 1e3, logged: ds.resolved?.logInputs ?? [] };
}

const rows: string[] = [];
for (const name of names) {
  const spec = SPECS[name];
  if (!spec) throw new Error(`unknown map ${name}: one of ${Object.keys(SPECS).join(", ")}`);
  const file = writeMap(name, spec);
  const cols = Array.from({ length: spec.d }, (_, j) => `x${j + 1}`).join(",");
  registerLogInputsJudge(undefined);
  const plain = await loadSeconds(file, cols);
  registerLogInputsJudge(splineGcvJudge);
  const judged = await loadSeconds(file, cols);
  const settings: [string, string][] = [
    ["judge (auto)", "auto"],
    ["span rule (all logged)", cols],
    ["none", "none"],
  ];
  for (const [label, flagValue] of settings) {
    const are = cv(file, cols, flagValue, join(work, `cv-${name}`));
    rows.push(
      `| ${name} | ${label} | ${methods
        .split(",")
        .map((m) => are[m].toFixed(2))
        .join(" | ")} |`,
    );
  }
  process.stderr.write(
    `${name}: the judge logs [${judged.logged.join(", ")}]; loading ${judged.seconds.toFixed(2)} s with it, ${plain.seconds.toFixed(2)} s without\n`,
  );
}
console.log(`mean ARE (%), cv --p ${p} --reps ${reps}`);
console.log(`| map | --log-inputs | ${methods.split(",").join(" | ")} |`);
console.log(
  `|---|---|${methods
    .split(",")
    .map(() => "---:")
    .join("|")}|`,
);
for (const r of rows) console.log(r);
