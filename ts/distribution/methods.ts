// The methods of spec E.2: from interpolation weights over the training configurations to one predicted run
// distribution per query. `quantile` averages quantile functions (the 1-D Wasserstein barycenter), `cdf` mixes
// empirical CDFs (the seed authors' group's method, the baseline), `locscale` averages standardized shapes and
// puts back a predicted location and scale, `normal` is N(μ̂, ŝ). `params` (mixtures) lives in params.ts.
import { VarmapError } from "../errors.js";
import { quantile7 } from "../data/stats.js";
import { createPredictor } from "../predict/registry.js";
import { matrix } from "../predict/matrix.js";
import type { BackendChoice } from "../backend/index.js";
import { EdfMixture, NormalDistribution, QuantileFunction, type RunDistribution } from "./distributions.js";
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
    let mu = 0;
    for (const v of s) mu += v;
    mu /= s.length;
    let ss = 0;
    for (const v of s) ss += (v - mu) * (v - mu);
    mean[c] = mu;
    sd[c] = s.length > 1 ? Math.sqrt(ss / (s.length - 1)) : NaN;
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
 * Σ_i w_i Q_i(p) with Q_i configuration i's type-7 quantile function (piecewise linear through
 * ((k − 1)/(n_i − 1), x₍ₖ₎)). The result is exact: its knots are the union of the configurations' knots, so with
 * equal run counts the knot values are the weighted averages of the order statistics.
 */
export function averageQuantiles(train: ConfigRuns, index: ArrayLike<number>, weight: ArrayLike<number>, shape?: "standardized"): QuantileFunction {
  const m = index.length;
  const ns = Array.from({ length: m }, (_, k) => train.offsets[index[k] + 1] - train.offsets[index[k]]);
  // Standardized shapes (locscale): z = (x − x̄_i) / s_i, zero where a configuration's runs are all equal.
  const loc = (k: number) => (shape ? train.mean[index[k]] : 0);
  const inv = (k: number) => (shape ? (train.sd[index[k]] > 0 ? 1 / train.sd[index[k]] : 0) : 1);
  if (ns.every((n) => n === ns[0])) {
    const n = ns[0];
    const levels = Float64Array.from({ length: n }, (_, j) => j / (n - 1));
    const values = new Float64Array(n);
    for (let k = 0; k < m; k++) {
      const s = sortedRunsOf(train, index[k]),
        w = weight[k] * inv(k),
        mu = loc(k);
      if (weight[k] === 0) continue;
      for (let j = 0; j < n; j++) values[j] += w * (s[j] - mu);
    }
    levels[n - 1] = 1;
    return new QuantileFunction(levels, values, sampleMoments(values));
  }
  const set = new Set<number>();
  for (const n of ns) for (let j = 0; j < n; j++) set.add(j / (n - 1));
  const levels = Float64Array.from(set).sort();
  const values = new Float64Array(levels.length);
  for (let k = 0; k < m; k++) {
    if (weight[k] === 0) continue;
    const s = sortedRunsOf(train, index[k]),
      w = weight[k] * inv(k),
      mu = loc(k);
    for (let j = 0; j < levels.length; j++) values[j] += w * (quantile7(s, levels[j]) - mu);
  }
  return new QuantileFunction(levels, values);
}

/** Sample mean and sd (n − 1) of n values. */
function sampleMoments(v: Float64Array): [number, number] {
  let mu = 0;
  for (const x of v) mu += x;
  mu /= v.length;
  let ss = 0;
  for (const x of v) ss += (x - mu) * (x - mu);
  return [mu, Math.sqrt(ss / (v.length - 1))];
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
): RunDistribution {
  const lo = ws.offsets[q],
    hi = ws.offsets[q + 1];
  const index = ws.index.subarray(lo, hi),
    weight = ws.weight.subarray(lo, hi);
  switch (method) {
    case "quantile":
      return averageQuantiles(train, index, weight);
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
      const shape = averageQuantiles(train, index, weight, "standardized");
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
