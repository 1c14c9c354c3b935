// The figures of `varmap plan` (issue 43), on a complete dataset replayed as a campaign:
//   node dist/bench/plan-replay-workload.js [--data FILE] [--preset moana] [--reps 10] [--fraction 0.6] [--where SQL]
//        [--step yes]   (also time one planning step with 5,000 runs measured)
// Prints, per random-order budget B in 10–60 % of the runs, the random baseline's ARE at B and the adaptive plan's at
// B/2 (mean of the replays; ARE over configurations not measured, truth = the full data's sd), the largest excess of
// the adaptive ARE over the best baseline, the sequential-stopping figure (±10 % at 90 % against the full-data sd),
// and the CPU and wall time. Data: ../shared/data (sharedDir), the synthetic design via `varmap synth`.
import { join } from "node:path";
import { flag, sharedDir } from "../ts/benchmarks/shared-dir.js";
import { runPlan, type PlanReplaySummary } from "../ts/verbs/plan.js";
import { loadDataset } from "../ts/data/load.js";
import { tableSpace, defaultLogInputs } from "../ts/plan/space.js";
import { planStep } from "../ts/plan/planner.js";
import { uncertaintySource } from "../ts/plan/uncertainty.js";

const data = flag("--data") ?? join(sharedDir(), "data", "moana-cfq-noop-fread.csv");
const preset = flag("--preset") ?? "moana";
const reps = Number(flag("--reps") ?? 10);
const fraction = Number(flag("--fraction") ?? 0.6);
const where = flag("--where");

const c0 = process.cpuUsage(),
  w0 = performance.now();
const s = (await runPlan({
  replay: data,
  load: { preset, where },
  target: "sd",
  precision: 0.1,
  level: 0.9,
  against: "cap",
  minRuns: 10,
  maxRuns: 40,
  method: "rbf",
  uncertainty: flag("--uncertainty") ?? "committee",
  seed: flag("--seed") ?? "1",
  reps,
  replayFraction: fraction,
  result: "stdout",
  dryRun: false,
  note: (m) => process.stderr.write(`${m}\n`),
})) as PlanReplaySummary;
const cpu = process.cpuUsage(c0);
console.log(`${data}: ${s.configurations} configurations, ${s.totalRuns} runs, ${reps} replay(s)`);
for (const h of s.halfBudget)
  console.log(
    `B = ${(100 * h.fraction).toFixed(1)} %: random ${h.random.toFixed(4)}  adaptive at B/2 ${h.allMeasured ? "(every configuration measured)" : h.adaptiveAtHalf.toFixed(4)}  ${h.met ? "met" : "NOT met"}`,
  );
console.log(`half-budget figure: ${s.halfBudget.every((h) => h.met) ? "met" : "not met"} at every B in 10-60 %`);
console.log(`largest excess of adaptive over the best baseline: ${s.worstExcess.toFixed(4)} (${s.worstExcess <= 0 ? "never worse" : "worse somewhere"})`);
for (const strategy of ["adaptive", "random", "space-filling"])
  console.log(
    `${strategy}: ${s.curve
      .filter((p) => p.strategy === strategy)
      .map((p) => `${(100 * p.fraction).toFixed(1)}%:${p.are.toFixed(4)}`)
      .join(" ")}`,
  );
if (s.stopping)
  console.log(
    `sequential stopping: ${s.stopping.runs}/${s.stopping.fullRuns} runs (${(100 * s.stopping.saved).toFixed(1)} % fewer), within ±10 % of the full-data sd: ${(100 * s.stopping.withinPrecision).toFixed(1)} %`,
  );
console.log(`replay CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, wall ${((performance.now() - w0) / 1000).toFixed(1)} s (shared 2-core machine)`);

if (flag("--step") === "yes") {
  // One planning step on the whole space with 5,000 runs measured (the first 5,000 of a space-filling start:
  // 500 configurations × 10 runs), timed.
  const ds = await loadDataset(data, { preset, where, stat: "sd" });
  const t = ds.table;
  const space = tableSpace(t, defaultLogInputs(t.roles.inputs, t.inputs));
  const runs: number[][] = Array.from({ length: t.count }, () => []);
  let spent = 0;
  for (let c = 0; c < t.count && spent < 5000; c += 1) {
    if (c % 7 === 6) continue;
    const k = Math.min(10, 5000 - spent);
    runs[c] = Array.from(t.runs.subarray(t.offsets[c], t.offsets[c] + k));
    spent += k;
  }
  const s0 = process.cpuUsage(),
    t0 = performance.now();
  const step = planStep(space, runs, new Uint8Array(t.count), 1, {
    rule: { stat: "sd", precision: 0.1, level: 0.9, minRuns: 10, maxRuns: 40, against: "cap" },
    budgetRuns: t.offsets[t.count],
    batchRuns: Math.ceil(t.count),
    source: uncertaintySource("committee"),
    method: "rbf",
    seed: 1,
  });
  const sc = process.cpuUsage(s0);
  console.log(
    `one planning step, ${t.count} configurations, ${spent} runs measured (${step.measured} configurations): ${step.batch.length} in the batch, wall ${((performance.now() - t0) / 1000).toFixed(2)} s, CPU ${((sc.user + sc.system) / 1e6).toFixed(2)} s`,
  );
}
