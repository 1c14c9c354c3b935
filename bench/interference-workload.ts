// Interference workload (issue 24): 10,000 pairs × 5 repetitions with B = 2,000 bootstrap resamples, ≤ 10 s on
// 2 cores.
//   node dist/bench/interference-workload.js [--reps 3] [--aggregate median|mean] [--B 2000] [--workers 2] [--keep DIR]
// The run table is the synthetic interference design widened to 93 process counts: 2 file systems × 9 chunk
// sizes × 93 process counts × 6 unordered app pairs = 10,044 pair executions (20,088 pair rows, each with its
// own bootstrap) and 5,022 standalone configurations, 5 repetitions each (125,550 rows). Reported: the median
// over --reps of (1) the analysis alone (in this process: wall and CPU), (2) reading the table, and (3) the whole
// CLI run (`varmap interference … --aggregate median --workers 2 --no-resume`, a child process: read, prepare,
// the pair rows on the job engine's worker threads, write the tables).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeInterference } from "../ts/interference/analyze.js";
import { readRuns } from "../ts/interference/read.js";
import { INTERFERENCE_DESIGN, SYNTH_ROLES, writeInterferenceSynth } from "../ts/interference/synth.js";
import { DEFAULT_OPTIONS, type Aggregate } from "../ts/interference/types.js";
import { packageRoot } from "../ts/package-root.js";
import { flag } from "../ts/benchmarks/shared-dir.js";

const reps = Number(flag("--reps") ?? 3);
const aggregate = (flag("--aggregate") ?? "median") as Aggregate;
const B = Number(flag("--B") ?? 2000);
const keep = flag("--keep");
const workers = Number(flag("--workers") ?? 2);
const dir = keep ?? mkdtempSync(join(tmpdir(), "varmap-interference-bench-"));
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

const design = { ...INTERFERENCE_DESIGN, procs: Array.from({ length: 93 }, (_, i) => 8 * (i + 1)), reps: 5 };
const file = join(dir, "runs.csv");
const made = await writeInterferenceSynth(file, 1, design);
const { metric: _metric, ...roles } = SYNTH_ROLES;
const cols = { ...roles, factors: [...roles.factors] };
const opts = { ...DEFAULT_OPTIONS, metric: "throughput" as const, aggregate, bootstrap: B, factorNames: cols.factors, noiseMax: 0.1 };

const read: number[] = [];
const wall: number[] = [];
const cpu: number[] = [];
const cli: number[] = [];
let pairs = 0;
let pairExecutions = 0;
for (let r = 0; r < reps; r++) {
  let t0 = performance.now();
  const runs = await readRuns(file, cols);
  read.push((performance.now() - t0) / 1000);
  const c0 = process.cpuUsage();
  t0 = performance.now();
  const res = analyzeInterference(runs, opts);
  wall.push((performance.now() - t0) / 1000);
  const c1 = process.cpuUsage(c0);
  cpu.push((c1.user + c1.system) / 1e6);
  pairs = res.pairs.length;
  pairExecutions = new Set(res.pairs.map((p) => JSON.stringify([p.factors, [p.probe, p.signal].sort()]))).size;
  t0 = performance.now();
  const out = spawnSync(
    process.execPath,
    [
      join(packageRoot(), "dist", "ts", "cli", "main.js"),
      "interference",
      file,
      "--preset",
      "interference",
      "--aggregate",
      aggregate,
      "--bootstrap",
      String(B),
      "--out",
      join(dir, "pairs.csv"),
      "--matrix",
      join(dir, "matrix.csv"),
      "--apps",
      join(dir, "apps.csv"),
      "--workers",
      String(workers),
      "--no-resume",
      "--quiet",
    ],
    { encoding: "utf8" },
  );
  cli.push((performance.now() - t0) / 1000);
  if (out.status !== 0) throw new Error(`varmap interference failed: ${out.stderr}`);
}
if (!keep) rmSync(dir, { recursive: true, force: true });
const result = {
  workload: "interference",
  rows: made.rows,
  executions: made.executions,
  pairExecutions,
  pairRows: pairs,
  repetitions: design.reps,
  aggregate,
  bootstrap: B,
  reps,
  workers,
  analyzeWallSeconds: median(wall),
  analyzeCpuSeconds: median(cpu),
  readSeconds: median(read),
  cliWallSeconds: median(cli),
  target: "≤ 10 s on 2 cores",
};
console.log(JSON.stringify(result, null, 2));
