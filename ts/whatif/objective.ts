// Objectives, constraints, ranking and Pareto fronts of what-if candidates (spec D.2.1). Everything here works on
// columns (one entry per candidate) so a million candidates cost a few array passes and one sort.
import { VarmapError } from "../errors.js";
import { paretoFronts } from "./pareto.js";
import { RunsNeededTable } from "./runs.js";

/** What the spread model predicts: the sd, the variance, the cv, or a quantile of the runs. */
export type SpreadKind = "sd" | "var" | "cv" | `q${string}`;

export type ResponseKind = "throughput" | "time";
export type Direction = "min" | "max";

export interface Criterion {
  /** mean | sd | cv | runs | cost | q<level> */
  name: string;
  direction: Direction;
}

/** Predicted (or measured) statistics of the candidates, before runs and cost. */
export interface CandidateStats {
  mean: Float64Array;
  /** The spread model's raw prediction. */
  spread: Float64Array;
  /** Runs needed predicted by a runs model, when one is given. */
  runs?: Float64Array;
}

export interface EvaluateOptions {
  spreadKind: SpreadKind;
  precision: number;
  level: number;
  responseKind: ResponseKind;
  secondsPerRun: number;
  objective: Criterion;
  pareto: [Criterion, Criterion];
  maxCost?: number;
  maxCv?: number;
  minMean?: number;
}

export interface Evaluation {
  mean: Float64Array;
  sd: Float64Array;
  cv: Float64Array;
  /** The spread quantile, for quantile spread models (NaN otherwise). */
  q: Float64Array;
  runs: Float64Array;
  cost: Float64Array;
  objective: Float64Array;
  /** 1 where μ̂ ≤ 0, ŝ < 0 or a prediction is not finite: such candidates are not ranked. */
  invalid: Uint8Array;
  /** 1 where the candidate is valid and meets every constraint. */
  feasible: Uint8Array;
  /** Rank by the objective among feasible candidates (1 = best; ties by candidate order); 0 = not ranked. */
  rank: Int32Array;
  /** Pareto front (1 = non-dominated) among feasible candidates; 0 = not sorted. */
  front: Int32Array;
}

const CRITERIA = /^(mean|sd|cv|runs|cost|q\d+)$/;

/** Parses "max-mean", "min-cv", "min-q90", … */
export function parseObjective(text: string, spreadKind: SpreadKind): Criterion {
  const m = /^(min|max)-(.+)$/.exec(text.trim());
  if (!m || !CRITERIA.test(m[2]))
    throw new VarmapError("E_USAGE", `--objective '${text}' is not one of max-mean, min-mean, min-cv, min-sd, min-q<level>, max-q<level>, min-runs, min-cost`, {
      remedy: "e.g. --objective max-mean",
    });
  checkAvailable(m[2], spreadKind, "--objective");
  return { name: m[2], direction: m[1] as Direction };
}

/**
 * Parses "--pareto mean,cv" (directions from the objective when it names the same criterion, else the natural
 * one: mean up for throughput and down for time, quantiles likewise, everything else down) or "max-mean,min-cv".
 */
export function parsePareto(text: string, objective: Criterion, responseKind: ResponseKind, spreadKind: SpreadKind): [Criterion, Criterion] {
  const parts = text.split(",").map((s) => s.trim());
  if (parts.length !== 2) throw new VarmapError("E_USAGE", `--pareto '${text}' does not name two criteria`, { remedy: "e.g. --pareto mean,cv" });
  const out = parts.map((p) => {
    const m = /^(?:(min|max)-)?(.+)$/.exec(p)!;
    if (!CRITERIA.test(m[2]))
      throw new VarmapError("E_USAGE", `--pareto criterion '${p}' is not mean, sd, cv, runs, cost or q<level>`, { remedy: "e.g. --pareto mean,cv" });
    checkAvailable(m[2], spreadKind, "--pareto");
    const natural: Direction = m[2] === "mean" || m[2].startsWith("q") ? (responseKind === "time" ? "min" : "max") : "min";
    const direction = (m[1] as Direction | undefined) ?? (objective.name === m[2] ? objective.direction : natural);
    return { name: m[2], direction };
  });
  if (out[0].name === out[1].name) throw new VarmapError("E_USAGE", `--pareto names '${out[0].name}' twice`, { remedy: "name two different criteria" });
  return [out[0], out[1]];
}

function checkAvailable(name: string, spreadKind: SpreadKind, flag: string): void {
  const isQ = spreadKind.startsWith("q");
  if (name.startsWith("q") && name !== spreadKind)
    throw new VarmapError("E_USAGE", `${flag} uses ${name}, but the spread model predicts ${spreadKind}`, {
      remedy: `fit the spread model with --stat ${name}`,
    });
  if ((name === "sd" || name === "cv") && isQ)
    throw new VarmapError("E_USAGE", `${flag} uses ${name}, but the spread model predicts the quantile ${spreadKind}`, {
      remedy: "fit the spread model with --stat sd",
    });
}

/** Runs, cost, validity, constraints, objective, rank and fronts of candidates from their statistics. */
export function evaluate(stats: CandidateStats, opts: EvaluateOptions, runsTable = new RunsNeededTable(opts.precision, opts.level)): Evaluation {
  const n = stats.mean.length;
  const e: Evaluation = {
    mean: stats.mean,
    sd: new Float64Array(n),
    cv: new Float64Array(n),
    q: new Float64Array(n),
    runs: new Float64Array(n),
    cost: new Float64Array(n),
    objective: new Float64Array(n),
    invalid: new Uint8Array(n),
    feasible: new Uint8Array(n),
    rank: new Int32Array(n),
    front: new Int32Array(n),
  };
  const kind = opts.spreadKind;
  const isQ = kind.startsWith("q");
  for (let i = 0; i < n; i++) {
    const mu = stats.mean[i];
    const s = stats.spread[i];
    let sd = NaN;
    let cv = NaN;
    let q = NaN;
    let bad = !(mu > 0) || !Number.isFinite(mu) || !Number.isFinite(s);
    if (kind === "sd") {
      sd = s;
      bad ||= s < 0;
      cv = sd / mu;
    } else if (kind === "var") {
      bad ||= s < 0;
      sd = Math.sqrt(s);
      cv = sd / mu;
    } else if (kind === "cv") {
      bad ||= s < 0;
      cv = s;
      sd = cv * mu;
    } else q = s;
    let runs: number;
    if (stats.runs) {
      const r = stats.runs[i];
      bad ||= !Number.isFinite(r) || r < 0;
      runs = Math.max(2, Math.ceil(r));
    } else runs = isQ || bad ? NaN : runsTable.runsNeeded(cv);
    const tau = opts.responseKind === "time" ? mu : opts.secondsPerRun;
    e.sd[i] = sd;
    e.cv[i] = cv;
    e.q[i] = q;
    e.runs[i] = runs;
    e.cost[i] = runs * tau;
    e.invalid[i] = bad ? 1 : 0;
  }
  e.objective = criterionValues(e, opts.objective.name);
  const within = (v: number, lim: number | undefined, upper: boolean): boolean => lim === undefined || (upper ? v <= lim : v >= lim);
  for (let i = 0; i < n; i++) {
    const ok =
      !e.invalid[i] &&
      Number.isFinite(e.objective[i]) &&
      within(e.cost[i], opts.maxCost, true) &&
      within(e.cv[i], opts.maxCv, true) &&
      within(e.mean[i], opts.minMean, false);
    e.feasible[i] = ok ? 1 : 0;
  }
  e.rank = rankBy(e.objective, opts.objective.direction, e.feasible);
  e.front = frontsOf(e, opts.pareto, e.feasible);
  return e;
}

/** The column of a criterion. */
export function criterionValues(e: Pick<Evaluation, "mean" | "sd" | "cv" | "q" | "runs" | "cost">, name: string): Float64Array {
  switch (name) {
    case "mean":
      return e.mean;
    case "sd":
      return e.sd;
    case "cv":
      return e.cv;
    case "runs":
      return e.runs;
    case "cost":
      return e.cost;
    default:
      return e.q;
  }
}

/** Ranks (1 = best) of the eligible entries by value in a direction, ties by index; 0 for the others. */
export function rankBy(values: ArrayLike<number>, direction: Direction, eligible: Uint8Array, subset?: ArrayLike<number>): Int32Array {
  const rank = new Int32Array(values.length);
  const idx: number[] = [];
  const all = subset ?? { length: values.length };
  for (let k = 0; k < all.length; k++) {
    const i = subset ? subset[k] : k;
    if (eligible[i]) idx.push(i);
  }
  const sign = direction === "max" ? -1 : 1;
  // Sort keys once (sign-adjusted), then indices by key and index.
  const key = new Float64Array(values.length);
  for (const i of idx) key[i] = sign * values[i];
  const order = Int32Array.from(idx).sort((i, j) => key[i] - key[j] || i - j);
  order.forEach((i, r) => (rank[i] = r + 1));
  return rank;
}

/** Pareto fronts of the eligible entries over two criteria (both turned into minimization). */
export function frontsOf(
  e: Pick<Evaluation, "mean" | "sd" | "cv" | "q" | "runs" | "cost">,
  criteria: [Criterion, Criterion],
  eligible: Uint8Array,
  subset?: ArrayLike<number>,
): Int32Array {
  const n = e.mean.length;
  const idx: number[] = [];
  for (let k = 0; k < (subset ? subset.length : n); k++) {
    const i = subset ? subset[k] : k;
    if (eligible[i]) idx.push(i);
  }
  const [ca, cb] = criteria.map((c) => criterionValues(e, c.name));
  const sa = criteria[0].direction === "max" ? -1 : 1;
  const sb = criteria[1].direction === "max" ? -1 : 1;
  const a = new Float64Array(idx.length);
  const b = new Float64Array(idx.length);
  idx.forEach((i, k) => {
    a[k] = sa * ca[i];
    b[k] = sb * cb[i];
  });
  const f = paretoFronts(a, b);
  const front = new Int32Array(n);
  idx.forEach((i, k) => (front[i] = f[k]));
  return front;
}
