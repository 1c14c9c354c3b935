// Validation of predicted distributions on held-out configurations (spec E.3): per (split, test configuration,
// method) the KS statistic against the configuration's runs, rejection at the group's thresholds, W1 relative
// to the mean, and the predicted vs observed mean, sd, q10, q90 (so scalar and distribution predictions share
// one table). Pure: the job engine runs it per split in workers.
import { quantile7 } from "../data/stats.js";
import type { BackendChoice } from "../backend/index.js";
import { KS_LEVELS, ksStatistic, ksThreshold, w1Relative, type KsTest } from "./ks.js";
import {
  needsMoments,
  predictDistribution,
  predictMoments,
  sortedRunsOf,
  type ConfigRuns,
  type DistName,
  type MomentMethod,
  type PositionsName,
  type SmoothName,
} from "./methods.js";
import { featureScales, scaleInputs, type FeatureWeightsName } from "./feature-weights.js";
import { perLevelQuantiles, type PerLevelSpec } from "./per-level.js";
import { ksAgainstTruth, truthTableOf, type MapTruth } from "./truth.js";
import { interpolationWeights, type WeightsName } from "./weights.js";
import type { RunDistribution } from "./distributions.js";
import { predictParams, subsetMixtures, type MapMixtures } from "./params.js";
import { VarmapError } from "../errors.js";

/** A test configuration needs this many runs for its KS statistic (spec E.6: else `too_few_runs`). */
export const MIN_TEST_RUNS = 5;
/** Training configurations need this many runs (spec E.6: else skipped). */
export const MIN_TRAIN_RUNS = 2;

/** One map's configurations: normalized inputs (rows × d) and sorted runs. */
export interface DistributionMap {
  U: Float64Array;
  d: number;
  rows: number;
  runs: ConfigRuns;
  /** With --dist params: the map's mixture features (params.ts). */
  mixtures?: MapMixtures;
  /** With --truth (synthetic designs): every configuration's true law (truth.ts). */
  truth?: MapTruth;
}

export interface DistCvOptions {
  dists: DistName[];
  weights: WeightsName;
  moments?: MomentMethod;
  ksTest?: KsTest;
  backend?: BackendChoice;
  /** `cdf` on PCHIP-smoothed EDFs. */
  smooth?: SmoothName;
  /** `quantile` by per-level maps of this predictor instead of the weights, on levels j/levels. */
  perLevel?: PerLevelSpec;
  levels?: number;
  /** Where order statistics sit on the level axis (quantile, locscale). */
  positions?: PositionsName;
  /** Inputs stretched by their effect before the weights are computed (feature-weights.ts). */
  featureWeights?: FeatureWeightsName;
}

/** One (test configuration, method) of one split. */
export interface KsRecord {
  row: number;
  method: string;
  n: number;
  /** NaN when the test configuration has fewer than MIN_TEST_RUNS runs (tooFewRuns). */
  ks: number;
  /** KS against the configuration's true CDF (with a truth file; else NaN). */
  ksTrue: number;
  w1Rel: number;
  /** 0/1 per KS_LEVELS. */
  reject: number[];
  extrapolated: boolean;
  distance: number;
  tooFewRuns: boolean;
  /** Predicted and observed mean, sd, q10, q90. */
  pred: [number, number, number, number];
  truth: [number, number, number, number];
}

/** Observed mean, sd (n − 1), q10, q90 (type 7) of sorted runs. */
export function observedSummary(s: Float64Array, mean: number, sd: number): [number, number, number, number] {
  return [mean, sd, quantile7(s, 0.1), quantile7(s, 0.9)];
}

export function predictedSummary(F: RunDistribution): [number, number, number, number] {
  return [F.mean(), F.sd(), F.quantile(0.1), F.quantile(0.9)];
}

/** Scores predictions against sorted held-out runs. */
export function scoreDistribution(F: RunDistribution, sorted: Float64Array, ksTest: KsTest = "two-sample"): { ks: number; w1Rel: number; reject: number[] } {
  const n = sorted.length;
  const ks = ksStatistic(F, sorted);
  return { ks, w1Rel: w1Relative(F, sorted), reject: KS_LEVELS.map((p) => (ks > ksThreshold(p, n, ksTest) ? 1 : 0)) };
}

/**
 * Every method's predictions at the test rows of one split (rows of `map`), fitted on its training rows.
 * Training rows with fewer than MIN_TRAIN_RUNS runs are left out.
 */
export function validateSplit(map: DistributionMap, train: ArrayLike<number>, test: ArrayLike<number>, opts: DistCvOptions): KsRecord[] {
  const { d, runs } = map;
  const tr = Array.from(train).filter((r) => runs.offsets[r + 1] - runs.offsets[r] >= MIN_TRAIN_RUNS);
  const te = Array.from(test);
  const trainU = gatherRows(map.U, tr, d),
    queryU = gatherRows(map.U, te, d);
  const trainRuns = subsetRuns(runs, tr);
  const scales = opts.featureWeights === "lr" ? featureScales(trainU, d, trainRuns) : undefined;
  const ws = scales
    ? interpolationWeights(opts.weights, scaleInputs(trainU, scales, d), scaleInputs(queryU, scales, d), d, { backend: opts.backend })
    : interpolationWeights(opts.weights, trainU, queryU, d, { backend: opts.backend });
  const moments = needsMoments(opts.dists) ? predictMoments(opts.moments ?? "weights", trainRuns, ws, trainU, queryU, d, opts.backend) : undefined;
  if (opts.dists.includes("params") && !map.mixtures)
    throw new VarmapError("E_USAGE", "--dist params needs the mixture fits", { remedy: "give --fits fits.csv (written by `varmap mixture` on the same data)" });
  const trainMix = map.mixtures && subsetMixtures(map.mixtures, tr);
  const perLevel =
    opts.perLevel && opts.dists.includes("quantile")
      ? perLevelQuantiles(opts.perLevel, trainRuns, trainU, queryU, d, opts.levels ?? 200, opts.backend)
      : undefined;
  const out: KsRecord[] = [];
  te.forEach((r, q) => {
    const s = sortedRunsOf(runs, r);
    const n = s.length;
    const tooFewRuns = n < MIN_TEST_RUNS;
    const truth = observedSummary(s, runs.mean[r], runs.sd[r]);
    const table = map.truth ? truthTableOf(map.truth, r) : null;
    for (const method of opts.dists) {
      // params: null when a predicted parameter is invalid (params_invalid), per-level when a level's prediction is
      // not finite (nonfinite): no KS, NaN predictions.
      const F =
        method === "params"
          ? predictParams(trainMix!, ws, q)
          : method === "quantile" && perLevel
            ? perLevel[q]
            : predictDistribution(method, trainRuns, ws, q, moments, opts.smooth, opts.positions);
      const score = tooFewRuns || !F ? { ks: NaN, w1Rel: NaN, reject: KS_LEVELS.map(() => NaN) } : scoreDistribution(F, s, opts.ksTest);
      const pred: [number, number, number, number] = F ? predictedSummary(F) : [NaN, NaN, NaN, NaN];
      const ksTrue = F && table ? ksAgainstTruth(F, table) : NaN;
      out.push({ row: r, method, n, ...score, ksTrue, extrapolated: ws.extrapolated[q] === 1, distance: ws.distance[q], tooFewRuns, pred, truth });
    }
  });
  return out;
}

export function gatherRows(U: Float64Array, rows: readonly number[], d: number): Float64Array {
  const out = new Float64Array(rows.length * d);
  rows.forEach((r, i) => out.set(U.subarray(r * d, r * d + d), i * d));
  return out;
}

export function subsetRuns(c: ConfigRuns, rows: readonly number[]): ConfigRuns {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i] + c.offsets[r + 1] - c.offsets[r]));
  const runs = new Float64Array(offsets[rows.length]);
  rows.forEach((r, i) => runs.set(sortedRunsOf(c, r), offsets[i]));
  return { runs, offsets, mean: Float64Array.from(rows, (r) => c.mean[r]), sd: Float64Array.from(rows, (r) => c.sd[r]) };
}
