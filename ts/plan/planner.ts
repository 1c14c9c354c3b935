// One planning step of an experiment campaign (issue 43): from the runs measured so far, which configurations to
// run next, how many runs each, and why.
//
//   - An empty campaign (or a map with fewer than d + 2 measured configurations) gets a space-filling batch: a
//     maximin Latin hypercube per map (design.ts), --min-runs runs each.
//   - Otherwise every possible action has an expected gain per run, on the model scale (log statistic: relative
//     error variance), and the batch takes the best actions until it holds --batch-runs runs:
//       new configuration c:   u_c² / r0 — the model's predictive error variance removed at c by r0 = --min-runs
//                              runs (u from the uncertainty source, uncertainty.ts); after c is chosen, the
//                              uncertainty of the unmeasured configurations near it shrinks by 1 − exp(−δ²/2ℓ²)
//                              (δ the normalized distance, ℓ the map's median nearest-neighbour distance), so a
//                              batch spreads out instead of piling up in one uncertain corner;
//       Δ more runs at c:      (v_n − v_{n+Δ}) / Δ with v_n = relVar·n/n′ the statistic's relative variance —
//                              only while c has not reached the precision (stopping.ts), Δ = half the gap.
//   - The predicted map error is the mean over configurations of √(2/π)·σ_c (the expected absolute relative error
//     of a normal error of sd σ_c): σ_c = u_c where unmeasured, the statistic's relative sd where measured.
import { counterRng } from "../data/random.js";
import { VarmapError } from "../errors.js";
import { greedyMaximin, mapMembers, proportional } from "./design.js";
import type { ConfigSpace } from "./space.js";
import { estimate, topUp, type ConfigEstimate, type StoppingRule } from "./stopping.js";
import type { UncertaintySource } from "./uncertainty.js";

export interface PlanStepOptions {
  rule: StoppingRule;
  /** Total runs the campaign may spend (measured included). */
  budgetRuns: number;
  /** Runs one batch holds at most. */
  batchRuns: number;
  /** Stop when the predicted map error is at most this (relative); undefined: spend the budget. */
  mapError?: number;
  source: UncertaintySource;
  method: string;
  seed: string | number;
  /**
   * "uncertainty" (default): a new configuration's gain is its predictive variance u²; "net": u² less the sampling
   * variance its r0 runs will have (at least u²/10), and measured configurations may get runs without --precision.
   */
  gain?: "uncertainty" | "net";
  /** Keep planning space-filling batches until this share of the configurations is measured (default 0). */
  fillFirst?: number;
  /** Damp new configurations' gain near measured ones (default true). */
  damping?: boolean;
  /** Per configuration, the most runs it can have (replay: the runs the dataset holds); default rule.maxRuns. */
  caps?: Int32Array;
  /**
   * A time budget: seconds one run of each configuration costs (see costPerRun) and the seconds the campaign may
   * spend (measured runs included). Actions are ranked by gain per second and a batch holds at most batchRuns × the
   * mean cost seconds; budgetRuns is then only a cap.
   */
  cost?: { perRun: Float64Array; budgetSeconds: number; spentSeconds: number };
}

/**
 * Seconds one run of each configuration costs, from the measured runs' time column: a measured configuration's mean
 * time; an unmeasured one's, its nearest measured neighbour's in its map (normalized inputs), else the median cost.
 */
export function costPerRun(space: ConfigSpace, times: readonly (readonly number[])[]): Float64Array {
  const d = space.inputs.length;
  const cost = new Float64Array(space.count).fill(NaN);
  const known: number[] = [];
  for (let c = 0; c < space.count; c++) {
    const t = times[c].filter((x) => Number.isFinite(x) && x >= 0);
    if (t.length) (cost[c] = t.reduce((a, b) => a + b, 0) / t.length), known.push(c);
  }
  const sorted = known.map((c) => cost[c]).sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
  for (let c = 0; c < space.count; c++) {
    if (Number.isFinite(cost[c])) continue;
    let best = -1,
      bd = Infinity;
    for (const b of known) {
      if (space.map[b] !== space.map[c]) continue;
      let q = 0;
      for (let j = 0; j < d; j++) q += (space.U[c * d + j] - space.U[b * d + j]) ** 2;
      if (q < bd) (bd = q), (best = b);
    }
    cost[c] = best >= 0 ? cost[best] : median;
  }
  return cost;
}

export interface BatchRow {
  config: number;
  runs: number;
  reason: string;
  expectedGain: number;
}

export interface PlanStep {
  batch: BatchRow[];
  estimate: ConfigEstimate;
  /** Predicted statistic at every configuration (NaN before any model). */
  predicted: Float64Array;
  /** Model-scale error sd at every configuration (NaN before any model). */
  uncertainty: Float64Array;
  predictedMapError: number;
  runsSpent: number;
  budgetLeft: number;
  measured: number;
  converged: number;
  failed: number;
  /** Why no batch follows: "budget", "map-error", "exhausted" (nothing left to measure); undefined when one does. */
  stop?: "budget" | "map-error" | "exhausted";
  firstBatch: boolean;
}

const SQRT_2_PI = Math.sqrt(2 / Math.PI);

/** Fewest configurations per map before a model is fitted to it. */
export const designSize = (space: ConfigSpace): number => space.inputs.length + 2;

/** Runs the first (space-filling) batch needs at least: d + 2 configurations per map, --min-runs each. */
export function firstBatchMinimum(space: ConfigSpace, minRuns: number): number {
  return mapMembers(space).reduce((a, m) => a + Math.min(m.length, designSize(space)) * minRuns, 0);
}

export function planStep(space: ConfigSpace, runs: readonly (readonly number[])[], failed: Uint8Array, step: number, o: PlanStepOptions): PlanStep {
  const { rule } = o;
  const est = estimate(runs, rule);
  const cap = (c: number) => (o.caps ? Math.min(o.caps[c], rule.maxRuns) : rule.maxRuns);
  // A configuration at its own cap is converged (replay: no runs left in the dataset).
  for (let c = 0; c < space.count; c++) if (est.n[c] >= cap(c) && est.n[c] > 0) est.converged[c] = 1;
  const runsSpent = est.n.reduce((a, b) => a + b, 0);
  const secondsLeft = o.cost ? Math.max(0, o.cost.budgetSeconds - o.cost.spentSeconds) : Infinity;
  const budgetLeft = Math.max(0, o.budgetRuns - runsSpent);
  const members = mapMembers(space);
  const d = space.inputs.length;
  const measuredIn = members.map((m) => m.filter((c) => est.n[c] >= 2 && Number.isFinite(est.value[c])));
  const measured = measuredIn.reduce((a, m) => a + m.length, 0);
  const predicted = new Float64Array(space.count).fill(NaN);
  const uncertainty = new Float64Array(space.count).fill(NaN);
  // Space-filling while a map has fewer than d + 2 measured configurations, or (fillFirst) while fewer than that
  // share of the space is measured.
  const fillFirst = o.fillFirst ?? 0;
  const firstBatch =
    measuredIn.some((m, i) => m.length < Math.min(designSize(space), members[i].length)) ||
    (fillFirst > 0 && measuredIn.reduce((a, m) => a + m.length, 0) < fillFirst * space.count && budgetLeft > 0);
  let failedCount = 0;
  for (let c = 0; c < space.count; c++) failedCount += failed[c];
  const result = (batch: BatchRow[], stop?: PlanStep["stop"]): PlanStep => ({
    batch,
    estimate: est,
    predicted,
    uncertainty,
    predictedMapError: mapError(),
    runsSpent,
    budgetLeft,
    measured,
    converged: est.converged.reduce((a, b) => a + b, 0),
    failed: failedCount,
    stop,
    firstBatch,
  });
  function mapError(): number {
    let s = 0,
      k = 0;
    for (let c = 0; c < space.count; c++) {
      if (failed[c]) continue;
      const sigma = est.n[c] >= 2 && Number.isFinite(est.relVar[c]) ? Math.sqrt(est.relVar[c]) : uncertainty[c];
      if (!Number.isFinite(sigma)) return NaN;
      s += SQRT_2_PI * sigma;
      k++;
    }
    return k ? s / k : NaN;
  }
  const limit = Math.min(o.batchRuns, budgetLeft);

  if (firstBatch) {
    const rng = counterRng(o.seed, "plan-design", step);
    const want = members.map((m, i) => Math.max(0, Math.min(m.length, designSize(space)) - measuredIn[i].length));
    const minimum = want.reduce((a, b) => a + b, 0) * rule.minRuns;
    if (minimum > budgetLeft)
      throw new VarmapError(
        "E_PLAN_BUDGET",
        `the first batch needs ${minimum} runs (${designSize(space)} configurations per map × ${rule.minRuns} runs), but the budget leaves ${budgetLeft}`,
        {
          remedy: `raise --budget-runs to at least ${runsSpent + minimum}, or lower --min-runs, or narrow the space`,
        },
      );
    const k = Math.max(
      want.reduce((a, b) => a + b, 0),
      Math.floor(Math.max(limit, minimum) / rule.minRuns),
    );
    const free = members.map((m) => m.filter((c) => est.n[c] === 0 && !failed[c]));
    const extra = proportional(
      k - want.reduce((a, b) => a + b, 0),
      free.map((f, i) => f.length - want[i]),
    );
    const batch: BatchRow[] = [];
    members.forEach((m, i) => {
      const picks = greedyMaximin(space, m, want[i] + extra[i], rng, new Set(m.filter((c) => est.n[c] > 0 || failed[c])), measuredIn[i]);
      for (const c of picks) batch.push({ config: c, runs: Math.min(rule.minRuns, cap(c)), reason: "space-filling: greedy maximin", expectedGain: NaN });
    });
    return result(batch);
  }

  // Model every map and collect the actions.
  members.forEach((m, i) => {
    const train = measuredIn[i].filter((c) => est.value[c] !== 0);
    const X = new Float64Array(train.length * d);
    train.forEach((c, r) => X.set(space.X.subarray(c * d, c * d + d), r * d));
    const Xq = new Float64Array(m.length * d);
    m.forEach((c, r) => Xq.set(space.X.subarray(c * d, c * d + d), r * d));
    const p = o.source.predict(
      {
        X,
        rows: train.length,
        d,
        y: Float64Array.from(train, (c) => est.value[c]),
        log2: space.log2.flatMap((l, j) => (l ? [j] : [])),
        method: o.method,
        seed: `${String(o.seed)}/${step}/${i}`,
      },
      Xq,
      m.length,
    );
    m.forEach((c, r) => {
      predicted[c] = p.mean[r];
      uncertainty[c] = p.sd[r];
    });
  });
  if (o.mapError !== undefined) {
    const err = mapError();
    const pending =
      rule.precision !== undefined && space.count > 0 && [...Array(space.count).keys()].some((c) => est.n[c] > 0 && !est.converged[c] && !failed[c]);
    if (err <= o.mapError && !pending) return result([], "map-error");
  }
  if (budgetLeft === 0 || secondsLeft <= 0) return result([], "budget");

  type Action = { config: number; runs: number; gain: number; reason: string; fresh: boolean };
  const actions: Action[] = [];
  const r0 = rule.minRuns;
  // The sampling variance a new configuration's statistic will have at r0 runs (median per-run relative variance).
  const perRun = measuredIn
    .flat()
    .map((c) => est.relVar[c] * est.n[c])
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const noise0 = o.gain === "net" && perRun.length ? perRun[Math.floor(perRun.length / 2)] / r0 : 0;
  for (let c = 0; c < space.count; c++) {
    if (failed[c]) continue;
    if (est.n[c] === 0) {
      const u = uncertainty[c];
      if (Number.isFinite(u))
        actions.push({ config: c, runs: Math.min(r0, cap(c)), gain: Math.max(u * u - noise0, 0.1 * u * u) / Math.min(r0, cap(c)), reason: "", fresh: true });
      continue;
    }
    if (est.converged[c]) continue;
    const delta = est.n[c] < r0 ? r0 - est.n[c] : rule.precision !== undefined ? topUp(est, c, { ...rule, maxRuns: cap(c) }) : o.gain === "net" ? r0 : 0;
    const add = Math.min(delta, cap(c) - est.n[c]);
    if (add <= 0) continue;
    const rv = Number.isFinite(est.relVar[c]) ? est.relVar[c] : 1;
    const n = est.n[c];
    actions.push({
      config: c,
      runs: add,
      gain: (rv - (rv * n) / (n + add)) / add,
      reason:
        rule.precision !== undefined && Number.isFinite(est.halfWidth[c])
          ? `precision: CI ±${pct(est.halfWidth[c])} > ±${pct(rule.precision)}, about ${Math.max(0, est.needed[c] - n)} more run(s) needed`
          : `fewer than --min-runs (${r0}) runs`,
      fresh: false,
    });
  }
  if (actions.length === 0) return result([], "exhausted");

  // A time budget: gain per second, and a batch limited in seconds as well as in runs.
  const perRunCost = (c: number) => (o.cost && Number.isFinite(o.cost.perRun[c]) && o.cost.perRun[c] > 0 ? o.cost.perRun[c] : 1);
  let secLimit = Infinity;
  if (o.cost) {
    let sum = 0;
    for (let c = 0; c < space.count; c++) sum += perRunCost(c);
    secLimit = Math.min(secondsLeft, (o.batchRuns * sum) / Math.max(1, space.count));
    actions.forEach((a) => (a.gain /= perRunCost(a.config)));
  }
  // Greedy: best gain per run (per second with a time budget) first; a chosen new configuration damps its unmeasured neighbours' uncertainty.
  const ell = members.map((m) => medianNearest(space, m));
  const gain = Float64Array.from(actions, (a) => a.gain);
  const byConfig = new Map<number, number>();
  actions.forEach((a, i) => byConfig.set(a.config, i));
  // Measured configurations damp their unmeasured neighbours' gain as chosen ones do (the model's spread alone
  // piles a batch up where the map is rough, leaving gaps it does not see).
  if (o.damping !== false)
    members.forEach((m, mi) => {
      const done = m.filter((c) => est.n[c] > 0);
      const l2 = 2 * ell[mi] * ell[mi];
      for (const c of m) {
        const j = byConfig.get(c);
        if (j === undefined || !actions[j].fresh) continue;
        let near = Infinity;
        for (const b of done) {
          let s = 0;
          for (let q = 0; q < d; q++) s += (space.U[c * d + q] - space.U[b * d + q]) ** 2;
          near = Math.min(near, s);
        }
        if (Number.isFinite(near)) gain[j] *= 1 - Math.exp(-near / l2);
      }
    });
  const batch: BatchRow[] = [];
  let used = 0,
    usedSec = 0;
  const done = new Uint8Array(actions.length);
  const fits = (a: Action) => a.runs <= limit - used && a.runs * perRunCost(a.config) <= secLimit - usedSec;
  for (;;) {
    let best = -1;
    for (let i = 0; i < actions.length; i++) if (!done[i] && fits(actions[i]) && (best < 0 || gain[i] > gain[best])) best = i;
    if (best < 0) break;
    const a = actions[best];
    done[best] = 1;
    used += a.runs;
    usedSec += a.runs * perRunCost(a.config);
    batch.push({
      config: a.config,
      runs: a.runs,
      reason: a.fresh ? `explore: predicted error ±${pct(uncertainty[a.config])} (model ${o.source.name})` : a.reason,
      expectedGain: gain[best],
    });
    if (a.fresh) {
      const mi = space.map[a.config];
      const l2 = 2 * ell[mi] * ell[mi];
      for (const c of members[mi]) {
        const j = byConfig.get(c);
        if (j === undefined || done[j] || !actions[j].fresh) continue;
        let s = 0;
        for (let q = 0; q < d; q++) s += (space.U[c * d + q] - space.U[a.config * d + q]) ** 2;
        gain[j] *= 1 - Math.exp(-s / l2);
      }
    }
    if (used >= limit) break;
  }
  return result(batch, batch.length ? undefined : "budget");
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** Median distance from a map's configurations to their nearest neighbour (normalized inputs). */
function medianNearest(space: ConfigSpace, m: readonly number[]): number {
  const d = space.inputs.length;
  if (m.length < 2) return 1;
  const sample = m.length > 400 ? m.filter((_, i) => i % Math.ceil(m.length / 400) === 0) : m;
  const near = sample.map((a) => {
    let best = Infinity;
    for (const b of m) {
      if (a === b) continue;
      let s = 0;
      for (let q = 0; q < d; q++) s += (space.U[a * d + q] - space.U[b * d + q]) ** 2;
      best = Math.min(best, s);
    }
    return Math.sqrt(best);
  });
  near.sort((x, y) => x - y);
  return near[Math.floor(near.length / 2)] || 1;
}
