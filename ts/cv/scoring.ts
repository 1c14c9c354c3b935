// One cross-validation split inside a worker: the pure per-split unit of ts/cv (fit on the training rows with
// the map's own normalization, predict the test rows) scored by ARE (seed 000 eq. 1). The constant baseline
// "mean" (the null model of a Table 2) is a predictor of the registry like any other.
import { isVarmapError } from "../errors.js";
import { are as areOf } from "./are.js";
import { detailsOf, gatherValues, mapInputScaling, predictSplit as cvPredictSplit, splitPredictor, type SplitPredictor } from "./split.js";
import type { RowSplit } from "../predict/lsp.js";
import { matrix, takeRows, type Matrix } from "../predict/matrix.js";
import { InputScaler } from "../predict/scaling.js";
import { clampNegative, nearestDistance, outsideBoxOfRows } from "../predict/trust.js";
import type { MapData } from "../data/shared-maps.js";
export type { MapData };

export function predictSplit(
  map: MapData,
  train: Int32Array,
  test: Int32Array,
  method: string,
  response: "linear" | "log",
  hyper: Record<string, unknown> = {},
): Float64Array {
  return cvPredictSplit(
    matrix(map.X, map.rows, map.cols),
    map.y,
    train,
    test,
    method,
    { ...hyper, inputs: mapInputScaling(map.meta.normalization), response },
    map.yVar,
  );
}

/** ARE of one split, or the error code when the method cannot fit it (too few points, degenerate data, ...). */
export function scoreSplit(
  map: MapData,
  train: Int32Array,
  test: Int32Array,
  method: string,
  response: "linear" | "log",
  hyper: Record<string, unknown> = {},
): { are: number; pred: Float64Array } | { error: string } {
  try {
    const pred = predictSplit(map, train, test, method, response, hyper);
    return {
      are: areOf(
        pred,
        Float64Array.from(test, (r) => map.y[r]),
      ),
      pred,
    };
  } catch (e) {
    if (isVarmapError(e)) return { error: e.code };
    throw e;
  }
}

/** How far to trust a split's predictions (ts/predict/trust.ts), per test row. */
export interface SplitTrust {
  extrapolated: Uint8Array;
  /** Negative predictions of a nonnegative statistic (the returned `pred` keeps them: the papers score them as they are). */
  negative: Uint8Array;
  logClamped: Uint8Array;
  /** ARE with the negative predictions set to 0 (equal to `are` when none is negative). */
  areClamped: number;
  /** Distance to the nearest training row in the map's normalized inputs (only when asked for). */
  distance?: Float64Array;
}

export interface TrustRequest {
  /** The response is a nonnegative statistic: count negative predictions and score them clamped to 0 as well. */
  nonNegative?: boolean;
  /** Also the distance to the nearest training row (O(test × train) per split). */
  distance?: boolean;
}

// Per map (its meta object, stable for a job's shared maps), its normalized inputs: every task of the map reuses them.
const normalizedCache = new WeakMap<object, { X: Float64Array; Z: Matrix }>();

/** The map's inputs in its normalized space (unit cube, log2 where the map says), where trust is measured. */
function normalizedInputs(map: MapData): Matrix {
  const hit = normalizedCache.get(map.meta);
  if (hit && hit.X.buffer === map.X.buffer && hit.X.byteOffset === map.X.byteOffset && hit.X.length === map.X.length) return hit.Z;
  const X = matrix(map.X, map.rows, map.cols);
  const Z = InputScaler.fit(X, mapInputScaling(map.meta.normalization)).transform(X);
  normalizedCache.set(map.meta, { X: map.X, Z });
  return Z;
}

/** Trust of one split's predictions: the method's own tests where it recorded them, the bounding box otherwise. */
function splitTrust(Z: Matrix, split: RowSplit, pred: Float64Array, truth: Float64Array, are: number, request: TrustRequest): SplitTrust {
  const details = detailsOf(pred);
  let areClamped = are;
  let negative: Uint8Array;
  if (request.nonNegative) {
    const clamped = Float64Array.from(pred);
    negative = clampNegative(clamped);
    // Nothing clamped: the same values, so the same ARE (no second pass).
    if (negative.indexOf(1) >= 0) areClamped = areOf(clamped, truth);
  } else negative = new Uint8Array(pred.length);
  return {
    extrapolated: details?.outside ?? outsideBoxOfRows(Z, split.train, split.test),
    negative,
    logClamped: details?.logClamped ?? new Uint8Array(pred.length),
    areClamped,
    ...(request.distance ? { distance: nearestDistance(takeRows(Z, split.train), takeRows(Z, split.test)) } : {}),
  };
}

/**
 * Scores of many splits of one map (each as scoreSplit would give it). `predictor`, when given, is the map's
 * split predictor from an earlier call (see SplitPredictorCache): LSP's neighbour table is then built once per map.
 */
export function scoreSplits(
  map: MapData,
  splits: readonly RowSplit[],
  method: string,
  response: "linear" | "log",
  hyper: Record<string, unknown> = {},
  predictor?: SplitPredictor,
  trust?: TrustRequest,
): ScoredSplit[] {
  const reasons = splits.map(emptySplitReason);
  const scorable = splits.filter((_, i) => reasons[i] === undefined);
  const p = predictor ?? mapSplitPredictor(map, method, response, hyper, scorable.length);
  const Z = trust && scorable.length ? normalizedInputs(map) : undefined;
  const predicted = scorable.length ? p.predict(scorable) : [];
  let k = 0;
  return splits.map((split, i): ScoredSplit => {
    if (reasons[i] !== undefined) return { skipped: reasons[i] };
    const pred = predicted[k++];
    if (!(pred instanceof Float64Array)) return { error: pred.code, message: pred.detail };
    const truth = gatherValues(map.y, split.test);
    const are = areOf(pred, truth);
    return { are, pred, ...(Z ? { trust: splitTrust(Z, split, pred, truth, are, trust!) } : {}) };
  });
}

/**
 * One split's score: its ARE and predictions; or the error of a method that cannot fit it (too few points,
 * degenerate data, ...); or, for a division with an empty training or test set, the reason it was not scored
 * (an empty test set has no ARE, an empty training set no model: neither is a failure of the method).
 */
export type ScoredSplit = { are: number; pred: Float64Array; trust?: SplitTrust } | { error: string; message?: string } | { skipped: string };

/** Why a division cannot be scored by any method, or undefined when it can. */
export function emptySplitReason(split: RowSplit): string | undefined {
  if (split.train.length === 0) return "empty training set";
  if (split.test.length === 0) return "empty test set";
  return undefined;
}

/** The split predictor of a map with its normalization (`expectedSplits`: how many splits of it will be predicted). */
export function mapSplitPredictor(
  map: MapData,
  method: string,
  response: "linear" | "log",
  hyper: Record<string, unknown> = {},
  expectedSplits = Infinity,
): SplitPredictor {
  return splitPredictor(
    matrix(map.X, map.rows, map.cols),
    map.y,
    method,
    { ...hyper, inputs: mapInputScaling(map.meta.normalization), response },
    expectedSplits,
    map.yVar,
  );
}

/**
 * A worker's recent split predictors by key (map, method, options): tasks of one map reuse its neighbour table.
 * Only a few are kept (a table holds 32·NP neighbours per row).
 */
export class SplitPredictorCache {
  private entries = new Map<string, SplitPredictor>();
  constructor(private readonly size = 4) {}

  get(key: string, make: () => SplitPredictor): SplitPredictor {
    let p = this.entries.get(key);
    if (p) this.entries.delete(key);
    else p = make();
    this.entries.set(key, p);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return p;
  }
}
