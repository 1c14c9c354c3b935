// Issue 41's figures on the fread runs, every flag at its default unless named (docs/studies/group-out.md):
//   1. `cv … --leave-out fsize_kb,rsize_kb --interval 0.9`: the default predictor's (hybrid) mean ARE on the interior
//      pairs 256/32, 256/128, 1024/128 (bar: mean ≤ 12.8 %, each ≤ 15 %) and its 90 % coverage per pair and over
//      every pair (bar: 85-97 %);
//   2. the golden splits (`--splits …/moana-splits.json --interval 0.9`): hybrid's mean ARE at p = 0.1 / 0.5 / 0.9
//      (bar ≤ 8.6 / 6.0 / 5.7 %) and its coverage (bar 88-92 %);
//   3. `cv --stat mean --methods lsp --p 0.5,0.9 --reps 20` (bar ≤ 40 %).
// Usage: node dist/bench/group-out-workload.js [--shared DIR] [--skip golden] — about 2 min of CPU for 1 and 3, and
// 15-20 min for 2 (gp fits with conformal calibration on 180 divisions) on 2 cores.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";
import { flag, sharedDir } from "../ts/benchmarks/shared-dir.js";

const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");
const shared = sharedDir();
const data = join(shared, "data", "moana-cfq-noop-fread.csv");
const skip = (flag("--skip") ?? "").split(",");
const tmp = mkdtempSync(join(tmpdir(), "varmap-group-out-"));

function varmap(...args: string[]): { out: string; seconds: number } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`varmap ${args.join(" ")} failed: ${r.stderr}`);
  return { out: r.stdout, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}

const pct = (x: number): string => `${(100 * x).toFixed(2)} %`;
const INTERIOR = ["fsize_kb=256;rsize_kb=32", "fsize_kb=256;rsize_kb=128", "fsize_kb=1024;rsize_kb=128"];

try {
  // 1. Group-out: every default method, the default predictor hybrid among them.
  {
    const out = join(tmp, "go");
    const r = varmap("cv", data, "--preset", "moana", "--leave-out", "fsize_kb,rsize_kb", "--interval", "0.9", "--out", out, "--quiet", "--json");
    const rows = readCsv(join(out, "are.csv"));
    const hybrid = rows.filter((x) => x.method === "hybrid");
    console.log(`1. cv --leave-out fsize_kb,rsize_kb --interval 0.9 (${r.seconds.toFixed(0)} s wall): default predictor hybrid`);
    let sum = 0;
    for (const g of INTERIOR) {
      const x = hybrid.find((h) => h.group === g)!;
      sum += Number(x.are);
      console.log(`   ${g}: ARE ${pct(Number(x.are))}, coverage ${pct(Number(x.coverage))}`);
    }
    console.log(`   interior mean ARE ${pct(sum / 3)} (bar 12.8 %, each ≤ 15 %)`);
    let inside = 0,
      n = 0;
    for (const x of hybrid) (inside += Number(x.coverage) * Number(x.test)), (n += Number(x.test));
    console.log(`   coverage over every pair ${pct(inside / n)} (bar 85-97 %)`);
    console.log(`   per method (mean ARE interior / extrapolated, τ):`);
    const s = JSON.parse(r.out).summary.methods as Record<string, { interior: { are: number }; extrapolated: { are: number }; tau: number }>;
    for (const [m, v] of Object.entries(s)) console.log(`     ${m}: ${pct(v.interior.are)} / ${pct(v.extrapolated.are)}, τ ${v.tau}`);
  }
  // 3. lsp under the default transforms, on the mean map.
  {
    const r = varmap("cv", data, "--preset", "moana", "--stat", "mean", "--methods", "lsp", "--p", "0.5,0.9", "--reps", "20", "--quiet", "--json");
    const t = JSON.parse(r.out).summary.table2 as { p: number; lsp: number }[];
    console.log(`3. cv --stat mean --methods lsp --p 0.5,0.9 --reps 20: ${t.map((x) => `p = ${x.p}: ${pct(x.lsp)}`).join(", ")} (bar ≤ 40 %)`);
  }
  // 2. Golden splits (random divisions): hybrid, the default predictor.
  if (!skip.includes("golden")) {
    const out = join(tmp, "golden");
    const r = varmap(
      "cv",
      data,
      "--preset",
      "moana",
      "--splits",
      join(shared, "golden", "moana-splits.json"),
      "--methods",
      "hybrid",
      "--interval",
      "0.9",
      "--out",
      out,
      "--quiet",
    );
    const are = readCsv(join(out, "are.csv"));
    const cover = readCsv(join(out, "coverage.csv"));
    console.log(`2. golden splits, hybrid --interval 0.9 (${r.seconds.toFixed(0)} s wall):`);
    for (const p of [0.1, 0.5, 0.9]) {
      const a = are.find((x) => Number(x.p) === p)!;
      const c = cover.find((x) => Number(x.p) === p)!;
      console.log(`   p = ${p}: mean ARE ${pct(Number(a.are_mean))}, coverage ${pct(Number(c.coverage))}`);
    }
    console.log(`   bars: ≤ 8.6 / 6.0 / 5.7 %, coverage 88-92 %`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

function readCsv(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, "utf8").trim().split("\n");
  const names = head.split(",");
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [names[i], v])));
}
