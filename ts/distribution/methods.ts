// The methods of spec E.2: from interpolation weights over the training configurations to one predicted run
// distribution per query. `quantile` averages quantile functions (the 1-D Wasserstein barycenter), `cdf` mixes
// empirical CDFs (the seed authors' group's method, the baseline), `locscale` averages standardized shapes and
// puts back a predicted location and scale, `normal` is N(μ̂, ŝ). `params` (mixtures) lives in params.ts.
import { VarmapError } from "../errors.js";
import { quantile7 } from "../data/stats.js";
import { createPredictor } from "../predict/registry.js";
import { matrix } from "../predict/matrix.js";
import type { BackendChoice } from "../backend/index.js";
import { EdfMixture, NormalDistribution, QuantileFunction, maxAbs, momentExponent, type RunDistribution } from "./distributions.js";
import type { WeightSet } from "./weights.js";
import { PchipCdfMixture } from "./pchip.js";

export const DIST_NAMES = ["quantile", "cdf", "locscale", "normal", "params"] as const;
export type DistName = (typeof DIST_NAMES)[number];

/** How `cdf` represents each training configuration: its EDF (step function), or a monotone PCHIP of it (pchip.ts). */
export const SMOOTH_NAMES = ["none", "pchip"] as const;
export type SmoothName = (typeof SMOOTH_NAMES)[number];

/** Each configuration's runs, sorted ascending: runs[offsets[i] .. offsets[i+1]), with their mean and sd (n − 1). */
export interface ConfigRuns {
  runs: Float64Array;
  offsets: Int32Array;
  mean: Float64Array;
  sd: Float64Array;
}

/** Sorts each configuration's runs and computes mean and sample sd. */
export function configRuns(runs: ArrayLike<number>, offsets: ArrayLike<number>): ConfigRuns {
  const count = offsets.length - 1;
  const out = new Float64Array(offsets[count] - offsets[0]);
  const off = new Int32Array(count + 1);
  const mean = new Float64Array(count),
    sd = new Float64Array(count);
  for (let c = 0; c < count; c++) {
    const s = Float64Array.from({ length: offsets[c + 1] - offsets[c] }, (_, k) => runs[offsets[c] + k]).sort();
    off[c + 1] = off[c] + s.length;
    out.set(s, off[c]);
    [mean[c], sd[c]] = sampleMoments(s);
    if (s.length < 2) sd[c] = NaN;
  }
  return { runs: out, offsets: off, mean, sd };
}

export function sortedRunsOf(c: ConfigRuns, i: number): Float64Array {
  return c.runs.subarray(c.offsets[i], c.offsets[i + 1]);
}

/** Predicted location and scale at every query (locscale, normal). */
export interface Moments {
  mean: Float64Array;
  sd: Float64Array;
}

/** The scalar predictor of the location and scale: "weights" = the same weights as the shape (Delaunay for μ, s in the E.3 table). */
export const MOMENT_METHODS = ["weights", "delaunay", "lsp", "lr", "mars"] as const;
export type MomentMethod = (typeof MOMENT_METHODS)[number];

/**
 * μ̂ and ŝ at the queries: with "weights", Σ w_i x̄_i and Σ w_i s_i; otherwise the scalar predictor fitted to
 * the training means and (on the log scale, so it stays positive) the training sds.
 */
export function predictMoments(
  method: MomentMethod,
  train: ConfigRuns,
  ws: WeightSet,
  trainU: Float64Array,
  queryU: Float64Array,
  d: number,
  backend?: BackendChoice,
): Moments {
  const nq = ws.offsets.length - 1;
  if (method === "weights") {
    const mean = new Float64Array(nq),
      sd = new Float64Array(nq);
    for (let q = 0; q < nq; q++)
      for (let k = ws.offsets[q]; k < ws.offsets[q + 1]; k++) {
        mean[q] += ws.weight[k] * train.mean[ws.index[k]];
        sd[q] += ws.weight[k] * train.sd[ws.index[k]];
      }
    return { mean, sd };
  }
  const n = train.mean.length;
  const X = matrix(trainU, n, d),
    Q = matrix(queryU, nq, d);
  const opts = { backend, inputs: { kind: "none" as const } };
  const mean = createPredictor(method, opts).fit(X, train.mean).predict(Q);
  const positive = train.sd.every((s) => s > 0);
  const sd = createPredictor(method, { ...opts, response: positive ? "log" : "linear" })
    .fit(X, train.sd)
    .predict(Q);
  for (let q = 0; q < nq; q++) sd[q] = Math.max(sd[q], 0);
  return { mean, sd };
}

/**
 * Where a configuration's order statistics sit on the level axis (`--positions`): `type7` puts x₍ₖ₎ at
 * (k − 1)/(n − 1) (R's default quantile, the spec's R-Q: the smallest run at level 0, the largest at 1); `weibull`
 * at k/(n + 1), the expected value of F(x₍ₖ₎), with the end segments extended linearly to levels 0 and 1, so the
 * predicted range reaches a little beyond the runs seen, as a fresh sample's does.
 */
export const POSITION_NAMES = ["type7", "weibull"] as const;
export type PositionsName = (typeof POSITION_NAMES)[number];

/** Configuration quantile function at p under `positions` (sorted runs s, n >= 2). */
function positionQuantile(s: Float64Array, p: number, positions: PositionsName): number {
  if (positions === "type7") return quantile7(s, p);
  const n = s.length,
    h = p * (n + 1); // x₍ₖ₎ at h = k; linear between and beyond (k = 0 and n + 1 by extension)
  const k = Math.min(Math.max(Math.floor(h), 1), n - 1);
  return s[k - 1] + (h - k) * (s[k] - s[k - 1]);
}

/** The knot levels of n order statistics under `positions` (weibull: with the two extended ends 0 and 1). */
function positionLevels(n: number, positions: PositionsName): number[] {
  if (positions === "type7") return Array.from({ length: n }, (_, j) => (j === n - 1 ? 1 : j / (n - 1)));
  return [0, ...Array.from({ length: n }, (_, j) => (j + 1) / (n + 1)), 1];
}

/**
 * Σ_i w_i Q_i(p) with Q_i configuration i's quantile function (type 7: piecewise linear through
 * ((k − 1)/(n_i − 1), x₍ₖ₎); weibull: through (k/(n_i + 1), x₍ₖ₎), ends extended). The result is exact: its knots
 * are the union of the configurations' knots, so with equal run counts the knot values are the weighted averages
 * of the order statistics.
 */
export function averageQuantiles(
  train: ConfigRuns,
  index: ArrayLike<number>,
  weight: ArrayLike<number>,
  shape?: "standardized",
  positions: PositionsName = "type7",
): QuantileFunction {
  const m = index.length;
  const ns = Array.from({ length: m }, (_, k) => train.offsets[index[k] + 1] - train.offsets[index[k]]);
  // Standardized shapes (locscale): z = (x − x̄_i) / s_i, zero where a configuration's runs are all equal.
  const loc = (k: number) => (shape ? train.mean[index[k]] : 0);
  const inv = (k: number) => (shape ? (train.sd[index[k]] > 0 ? 1 / train.sd[index[k]] : 0) : 1);
  if (ns.every((n) => n === ns[0])) {
    const n = ns[0];
    const values = new Float64Array(n);
    for (let k = 0; k < m; k++) {
      const s = sortedRunsOf(train, index[k]),
        w = weight[k] * inv(k),
        mu = loc(k);
      if (weight[k] === 0) continue;
      for (let j = 0; j < n; j++) values[j] += w * (s[j] - mu);
    }
    const moments = sampleMoments(values);
    if (positions === "type7") return new QuantileFunction(Float64Array.from(positionLevels(n, positions)), values, moments);
    // The ends extended linearly: the same as averaging each configuration's extended function.
    const ext = Float64Array.from([values[0] - (values[1] - values[0]), ...values, values[n - 1] + (values[n - 1] - values[n - 2])]);
    return new QuantileFunction(Float64Array.from(positionLevels(n, positions)), ext, moments);
  }
  const set = new Set<number>();
  for (const n of ns) for (const l of positionLevels(n, positions)) set.add(l);
  const levels = Float64Array.from(set).sort();
  const values = new Float64Array(levels.length);
  for (let k = 0; k < m; k++) {
    if (weight[k] === 0) continue;
    const s = sortedRunsOf(train, index[k]),
      w = weight[k] * inv(k),
      mu = loc(k);
    for (let j = 0; j < levels.length; j++) values[j] += w * (positionQuantile(s, levels[j], positions) - mu);
  }
  return new QuantileFunction(levels, values);
}

/** Sample mean and sd (n − 1) of n values, without over- or underflow (MOMENT_SAFE_EXPONENT). */
export function sampleMoments(v: Float64Array): [number, number] {
  const e = momentExponent(maxAbs(v));
  const down = 2 ** -e;
  let mu = 0;
  for (const x of v) mu += x * down;
  mu /= v.length;
  let ss = 0;
  for (const x of v) ss += (x * down - mu) * (x * down - mu);
  return [mu * 2 ** e, Math.sqrt(ss / (v.length - 1)) * 2 ** e];
}

/** Knots j/(n − 1): the averaged order statistics of equal run counts. */
function equalKnots(Q: QuantileFunction): boolean {
  const n = Q.levels.length;
  for (let j = 0; j < n; j++) if (Q.levels[j] !== (j === n - 1 ? 1 : j / (n - 1))) return false;
  return true;
}

/** The predicted distribution of query q by `method` (not params: see params.ts). */
export function predictDistribution(
  method: Exclude<DistName, "params">,
  train: ConfigRuns,
  ws: WeightSet,
  q: number,
  moments?: Moments,
  smooth: SmoothName = "none",
  positions: PositionsName = "type7",
): RunDistribution {
  const lo = ws.offsets[q],
    hi = ws.offsets[q + 1];
  const index = ws.index.subarray(lo, hi),
    weight = ws.weight.subarray(lo, hi);
  switch (method) {
    case "quantile":
      return averageQuantiles(train, index, weight, undefined, positions);
    case "cdf": {
      const keep: number[] = [];
      for (let k = 0; k < index.length; k++) if (weight[k] > 0) keep.push(k);
      if (smooth === "pchip")
        return new PchipCdfMixture(
          keep.map((k) => sortedRunsOf(train, index[k])),
          keep.map((k) => weight[k]),
        );
      return new EdfMixture(
        keep.map((k) => sortedRunsOf(train, index[k])),
        keep.map((k) => weight[k]),
      );
    }
    case "locscale": {
      if (!moments) throw new VarmapError("E_INTERNAL", "locscale needs predicted moments", { remedy: "this is a bug; please report it" });
      const shape = averageQuantiles(train, index, weight, "standardized", positions);
      const mu = moments.mean[q],
        s = moments.sd[q];
      const values = Float64Array.from(shape.values, (z) => mu + s * z);
      return new QuantileFunction(shape.levels, values, shape.levels.length === shape.values.length && equalKnots(shape) ? sampleMoments(values) : undefined);
    }
    case "normal":
      if (!moments) throw new VarmapError("E_INTERNAL", "normal needs predicted moments", { remedy: "this is a bug; please report it" });
      return new NormalDistribution(moments.mean[q], moments.sd[q]);
  }
}

export function needsMoments(methods: readonly DistName[]): boolean {
  return methods.includes("locscale") || methods.includes("normal");
}
