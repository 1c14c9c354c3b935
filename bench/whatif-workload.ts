// Workload of issue #23: a grid of about 1,000,000 candidates across the 117 synthetic MOANA maps, predicted
// (mean and sd models), ranked, Pareto-sorted and written, against the target of 30 s on 2 cores.
//   node dist/bench/whatif-workload.js [--methods lr,delaunay] [--dir /tmp/varmap-whatif-bench] [--top N] [--repeats 1]
// Generates `varmap synth --design moana` and fits the mean and sd models per method in --dir when absent (not
// timed). Then, per method, times in this process the phases of `varmap whatif --grid … --out whatif.csv` (wall
// and CPU time of the process: the machine is shared, CPU time is the steadier figure), and once the CLI itself
// end to end (wall, including Node start-up and reading the models).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../ts/package-root.js";
import { writeTable } from "../ts/data/write.js";
import { loadModelFiles } from "../ts/whatif/models.js";
import { gridCandidates } from "../ts/whatif/candidates.js";
import { parseObjective, parsePareto, type EvaluateOptions } from "../ts/whatif/objective.js";
import { rankCandidates } from "../ts/whatif/run.js";
import { candidateColumns, outputOrder } from "../ts/whatif/report.js";
import { RunsNeededTable } from "../ts/whatif/runs.js";
import { flag } from "../ts/benchmarks/shared-dir.js";
import { timed } from "./figures.js";

// 19 frequencies × 9 thread counts × 5 file sizes × 10 record sizes = 8,550 per map; × 117 maps = 1,000,350.
export const GRID = "freq_khz=1200000:3000000:100000;threads=1,2,4,8,16,32,64,128,256;fsize_kb=64,128,256,512,1024;rsize_kb=32:482:50";

const dir = flag("--dir") ?? "/tmp/varmap-whatif-bench";
const methods = (flag("--methods") ?? "lr,delaunay").split(",");
const top = flag("--top") === undefined ? undefined : Number(flag("--top"));
const repeats = Number(flag("--repeats") ?? 1);
const cli = join(packageRoot(), "dist", "ts", "cli", "main.js");

function varmap(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`varmap ${args.join(" ")} failed (${r.status})`);
  return (performance.now() - t0) / 1000;
}

async function timedAsync<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

const f = (x: number) => x.toFixed(2);
const w = (p: { wall: number; cpu: number }) => `${f(p.wall)}/${f(p.cpu)}`;

mkdirSync(dir, { recursive: true });
const data = join(dir, "moana.parquet");
console.log(`load average at start ${loadavg().map(f).join(" ")}`);
if (!existsSync(data)) console.log(`synth --design moana: ${f(varmap(["synth", "--design", "moana", "--out", data, "--quiet"]))} s`);
for (const method of methods) {
  const models = { mean: join(dir, `${method}-mean.json`), sd: join(dir, `${method}-sd.json`) };
  for (const stat of ["mean", "sd"] as const)
    if (!existsSync(models[stat]))
      console.log(
        `fit ${method} ${stat}: ${f(varmap(["fit", data, "--preset", "moana", "--stat", stat, "--method", method, "--out", models[stat], "--quiet"]))} s`,
      );
  for (let rep = 0; rep < repeats; rep++) {
    const load = timed(() => loadModelFiles(models.mean, models.sd));
    const set = load.value;
    const cands = timed(() => gridCandidates(set, GRID, undefined));
    const objective = parseObjective("max-mean", "sd");
    const opts: EvaluateOptions = {
      spreadKind: "sd",
      precision: 0.05,
      level: 0.95,
      responseKind: "throughput",
      secondsPerRun: 1,
      objective,
      pareto: parsePareto("mean,cv", objective, "throughput", "sd"),
    };
    const rank = timed(() => rankCandidates(set, cands.value, opts, new RunsNeededTable(0.05, 0.95)));
    const out = join(dir, `whatif-${method}.csv`);
    const write = await timedAsync(async () => {
      const r = rank.value;
      await writeTable(out, candidateColumns(set, r.candidates, r.predicted, r.evaluation, outputOrder(r.evaluation, top), { spreadKind: "sd" }));
    });
    const phases = [load, cands, rank, write];
    const wall = phases.reduce((s, p) => s + p.wall, 0);
    const cpu = phases.reduce((s, p) => s + p.cpu, 0);
    let ranked = 0;
    for (const r of rank.value.evaluation.rank) if (r > 0) ranked++;
    console.log(
      `${method}: ${cands.value.count} candidates in ${set.maps.length} maps (${ranked} ranked), s wall/cpu: load models ${w(load)}, grid ${w(cands)}, ` +
        `predict + rank + Pareto ${w(rank)}, write ${top === undefined ? "all rows" : `top ${top}`} ${w(write)}; total ${f(wall)} s wall, ${f(cpu)} s cpu (target ≤ 30 s)`,
    );
  }
  const args = [
    "whatif",
    "--mean",
    models.mean,
    "--spread",
    models.sd,
    "--grid",
    GRID,
    "--out",
    join(dir, `whatif-cli-${method}.csv`),
    "--quiet",
    ...(top === undefined ? [] : ["--top", String(top)]),
  ];
  console.log(`${method}: node dist/ts/cli/main.js ${args.join(" ")}: ${f(varmap(args))} s wall end to end`);
}
console.log(`load average at end ${loadavg().map(f).join(" ")}`);
