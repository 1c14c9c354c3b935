// `varmap plan --replay RUNS` (issue 43): a whole campaign simulated on a complete dataset. A configuration's runs
// are revealed only when the plan asks for them, in their recorded order. After every batch the map is predicted
// from what has been revealed and scored by its ARE over the configurations not measured yet (truth: the full
// dataset's statistic). Baselines, scored the same way with the same predictor:
//   random:        configurations in a random order, each with all its runs (what MOANA did);
//   space-filling: configurations in a farthest-point order (per map, maps interleaved), --min-runs runs each.
// Each replay r draws its own seed stream (counterRng(seed, "replay", r)); curves are averaged over --reps on a
// common grid of budgets (every --batch-runs runs), each replay's curve linearly interpolated onto it.
import { counterRng } from "../data/random.js";
import { configStats, statValues } from "../data/stats.js";
import type { ConfigTable } from "../data/types.js";
import { farthestPointOrder, mapMembers } from "./design.js";
import { planStep, type PlanStepOptions } from "./planner.js";
import type { ConfigSpace } from "./space.js";
import { estimate, topUp, type StoppingRule } from "./stopping.js";
import { pointPredict } from "./uncertainty.js";

export interface ReplayOptions extends PlanStepOptions {
  reps: number;
  /** Stop each replay once this many runs are spent (default: the whole dataset). */
  maxSpent?: number;
  /** Called after every adaptive batch (progress). */
  progress?: (rep: number, spent: number, are: number) => void;
}

export interface CurvePoint {
  strategy: "adaptive" | "random" | "space-filling";
  runs: number;
  fraction: number;
  /** Mean over replays of the ARE over the configurations not measured. */
  are: number;
  /** Mean over replays of the configurations measured. */
  measured: number;
}

export interface StoppingReplay {
  runs: number;
  fullRuns: number;
  saved: number;
  /** Share of configurations whose stopped statistic lies within ±precision of the full-data statistic. */
  withinPrecision: number;
  configurations: number;
}

export interface ReplayResult {
  curve: CurvePoint[];
  totalRuns: number;
  stopping?: StoppingReplay;
}

function runsOf(t: ConfigTable, c: number): Float64Array {
  return t.runs.subarray(t.offsets[c], t.offsets[c + 1]);
}

/** ARE over unmeasured configurations of the map predicted from the measured ones (statistic `est`). */
export function unmeasuredAre(
  space: ConfigSpace,
  truth: Float64Array,
  value: Float64Array,
  measured: Uint8Array,
  method: string,
  seed: string | number,
): number {
  const d = space.inputs.length;
  let sum = 0,
    k = 0;
  mapMembers(space).forEach((m, i) => {
    const train = m.filter((c) => measured[c] && Number.isFinite(value[c]) && value[c] !== 0);
    const test = m.filter((c) => !measured[c]);
    if (test.length === 0) return;
    const X = new Float64Array(train.length * d);
    train.forEach((c, r) => X.set(space.X.subarray(c * d, c * d + d), r * d));
    const Xq = new Float64Array(test.length * d);
    test.forEach((c, r) => Xq.set(space.X.subarray(c * d, c * d + d), r * d));
    let pred: Float64Array;
    if (train.length === 0) pred = new Float64Array(test.length).fill(NaN);
    else
      pred = pointPredict(
        {
          X,
          rows: train.length,
          d,
          y: Float64Array.from(train, (c) => value[c]),
          log2: space.log2.flatMap((l, j) => (l ? [j] : [])),
          method,
          seed: `${seed}/${i}`,
        },
        Xq,
        test.length,
      ).mean;
    test.forEach((c, r) => {
      if (!Number.isFinite(truth[c]) || truth[c] === 0) return;
      sum += Number.isFinite(pred[r]) ? Math.abs(pred[r] - truth[c]) / Math.abs(truth[c]) : 1;
      k++;
    });
  });
  return k ? sum / k : NaN;
}

function statOf(runs: readonly (readonly number[])[], stat: StoppingRule["stat"]): Float64Array {
  return estimate(runs, { stat, level: 0.9, minRuns: 3, maxRuns: 1e9, against: "true" }).value;
}

function interpolate(points: { runs: number; are: number; measured: number }[], at: number): { are: number; measured: number } {
  if (points.length === 0) return { are: NaN, measured: NaN };
  if (at <= points[0].runs) return points[0].runs === at ? points[0] : { are: NaN, measured: NaN };
  for (let i = 1; i < points.length; i++)
    if (at <= points[i].runs) {
      const a = points[i - 1],
        b = points[i];
      const w = (at - a.runs) / (b.runs - a.runs);
      return { are: a.are + w * (b.are - a.are), measured: a.measured + w * (b.measured - a.measured) };
    }
  return { are: NaN, measured: NaN };
}

export function replay(space: ConfigSpace, table: ConfigTable, o: ReplayOptions): ReplayResult {
  const n = space.count;
  const caps = Int32Array.from({ length: n }, (_, c) => table.offsets[c + 1] - table.offsets[c]);
  const totalRuns = table.offsets[n];
  const truth = Float64Array.from(statValues(configStats(table), o.rule.stat));
  const maxSpent = Math.min(o.maxSpent ?? totalRuns, totalRuns);
  const grid: number[] = [];
  for (let b = o.batchRuns; b <= maxSpent; b += o.batchRuns) grid.push(b);
  const curves: Record<CurvePoint["strategy"], { runs: number; are: number; measured: number }[][]> = { adaptive: [], random: [], "space-filling": [] };

  for (let rep = 0; rep < o.reps; rep++) {
    const seed = `${String(o.seed)}/replay/${rep}`;
    // Adaptive: plan, reveal, repeat.
    const runs: number[][] = Array.from({ length: n }, () => []);
    const failed = new Uint8Array(n);
    const pts: { runs: number; are: number; measured: number }[] = [];
    for (let step = 0; ; step++) {
      const s = planStep(space, runs, failed, step, { ...o, seed, caps, budgetRuns: maxSpent });
      if (s.runsSpent > 0) {
        const measured = Uint8Array.from(s.estimate.n, (k) => (k > 0 ? 1 : 0));
        // The step's model was fitted on every measured configuration: its predictions score the unmeasured ones.
        let sum = 0,
          k = 0;
        for (let c = 0; c < n; c++) {
          if (measured[c] || !Number.isFinite(truth[c]) || truth[c] === 0) continue;
          sum += Number.isFinite(s.predicted[c]) ? Math.abs(s.predicted[c] - truth[c]) / Math.abs(truth[c]) : 1;
          k++;
        }
        const are = s.firstBatch ? unmeasuredAre(space, truth, s.estimate.value, measured, o.method, seed) : k ? sum / k : NaN;
        pts.push({ runs: s.runsSpent, are, measured: s.measured });
        o.progress?.(rep, s.runsSpent, are);
      }
      // Once every configuration is measured no ARE is left to score: the replay ends there.
      if (s.batch.length === 0 || s.estimate.n.every((k, c) => k > 0 || failed[c])) break;
      for (const row of s.batch) {
        const all = runsOf(table, row.config);
        const have = runs[row.config].length;
        for (let i = have; i < Math.min(all.length, have + row.runs); i++) runs[row.config].push(all[i]);
      }
    }
    curves.adaptive.push(pts);

    // Baselines on the grid of budgets.
    const rng = counterRng(o.seed, "replay", rep);
    const perm = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [perm[i], perm[j]] = [perm[j], perm[i]];
    }
    const orders = mapMembers(space).map((m) => farthestPointOrder(space, m, rng));
    const sfOrder: number[] = [];
    const pos = orders.map(() => 0);
    while (sfOrder.length < n) {
      // Interleave maps: next from the map least filled relative to its size.
      let best = -1;
      orders.forEach((ord, i) => {
        if (pos[i] < ord.length && (best < 0 || pos[i] / ord.length < pos[best] / orders[best].length)) best = i;
      });
      sfOrder.push(orders[best][pos[best]++]);
    }
    for (const [strategy, order, per] of [
      ["random", perm, (c: number) => caps[c]],
      ["space-filling", sfOrder, (c: number) => Math.min(caps[c], o.rule.minRuns)],
    ] as const) {
      const bp: { runs: number; are: number; measured: number }[] = [];
      for (const b of grid) {
        const measured = new Uint8Array(n);
        const part: number[][] = Array.from({ length: n }, () => []);
        let spent = 0,
          count = 0;
        for (const c of order) {
          const k = per(c);
          if (spent + k > b) break;
          spent += k;
          measured[c] = 1;
          count++;
          part[c] = Array.from(runsOf(table, c).subarray(0, k));
        }
        const value = statOf(part, o.rule.stat);
        bp.push({ runs: b, are: unmeasuredAre(space, truth, value, measured, o.method, `${seed}/${strategy}/${b}`), measured: count });
      }
      curves[strategy].push(bp);
    }
  }
  const curve: CurvePoint[] = [];
  for (const strategy of ["adaptive", "random", "space-filling"] as const)
    for (const b of grid) {
      const vals = curves[strategy].map((pts) => interpolate(pts, b)).filter((v) => Number.isFinite(v.are));
      if (vals.length < curves[strategy].length || vals.length === 0) continue;
      curve.push({
        strategy,
        runs: b,
        fraction: b / totalRuns,
        are: vals.reduce((a, v) => a + v.are, 0) / vals.length,
        measured: vals.reduce((a, v) => a + v.measured, 0) / vals.length,
      });
    }
  return { curve, totalRuns, stopping: o.rule.precision !== undefined ? stoppingReplay(table, o.rule) : undefined };
}

/**
 * Sequential stopping alone: every configuration measured, its runs revealed in recorded order — --min-runs first,
 * then top-ups (stopping.ts) until the precision is reached or the dataset's runs are exhausted. The stopped
 * statistic is compared with the full-data statistic (the dataset's runs are the cap: the precision is "against
 * the cap", see stopping.ts).
 */
export function stoppingReplay(table: ConfigTable, rule: StoppingRule): StoppingReplay {
  const n = table.count;
  let spent = 0,
    within = 0,
    counted = 0;
  for (let c = 0; c < n; c++) {
    const all = runsOf(table, c);
    const cap = Math.min(all.length, rule.maxRuns);
    const r = { ...rule, maxRuns: cap };
    let k = Math.min(rule.minRuns, cap);
    for (;;) {
      const e = estimate([Array.from(all.subarray(0, k))], r);
      if (e.converged[0] || k >= cap) break;
      const add = topUp(e, 0, r);
      if (add <= 0) break;
      k = Math.min(cap, k + add);
    }
    spent += k;
    const v = estimate([Array.from(all.subarray(0, k))], r).value[0];
    const ref = estimate([Array.from(all.subarray(0, cap))], r).value[0];
    if (Number.isFinite(ref) && ref !== 0) {
      counted++;
      if (Math.abs(v / ref - 1) <= (rule.precision ?? 0)) within++;
    }
  }
  return { runs: spent, fullRuns: table.offsets[n], saved: 1 - spent / table.offsets[n], withinPrecision: counted ? within / counted : NaN, configurations: n };
}
