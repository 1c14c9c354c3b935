// One cross-validation split: fit a method on the training rows of a map, predict its test rows, score by ARE
// (seed 000 eq. 1: mean of |pred − true| / true). Inputs are normalized with the map's normalization (not the
// training subset's), as the papers and the golden references do; the response scale is the job's.
import { isVarmapError } from "../errors.js";
import { matrix, takeRows, type Matrix } from "../predict/matrix.js";
import { createPredictor } from "../predict/registry.js";
import type { InputScalingOptions } from "../predict/scaling.js";
import type { MapMeta } from "./shared-maps.js";

export interface MapData {
  X: Float64Array;
  y: Float64Array;
  rows: number;
  cols: number;
  meta: MapMeta;
}

/** The predictor input scaling that reproduces the map's own normalization. */
export function mapScaling(meta: MapMeta): InputScalingOptions {
  const log2: number[] = [];
  meta.normalization.log2.forEach((b, j) => b && log2.push(j));
  return { kind: "unit", log2, lo: [...meta.normalization.lo], hi: [...meta.normalization.hi] };
}

/**
 * Predictions at the test rows. "mean" is the constant baseline (the training mean), useful as the null model
 * of a Table 2 and as a dependency-free method for exercising the pool; every other name is a registry predictor.
 */
export function predictSplit(map: MapData, train: Int32Array, test: Int32Array, method: string, response: "linear" | "log"): Float64Array {
  const yTrain = new Float64Array(train.length);
  for (let i = 0; i < train.length; i++) yTrain[i] = map.y[train[i]];
  if (method === "mean") {
    let s = 0;
    for (let i = 0; i < yTrain.length; i++) s += response === "log" ? Math.log(yTrain[i]) : yTrain[i];
    const c = s / Math.max(1, yTrain.length);
    return new Float64Array(test.length).fill(response === "log" ? Math.exp(c) : c);
  }
  const all: Matrix = matrix(map.X, map.rows, map.cols);
  const model = createPredictor(method, { inputs: mapScaling(map.meta), response }).fit(takeRows(all, train), yTrain);
  return model.predict(takeRows(all, test));
}

export function are(pred: Float64Array, y: Float64Array, test: Int32Array): number {
  let s = 0;
  for (let i = 0; i < test.length; i++) {
    const t = y[test[i]];
    s += Math.abs(pred[i] - t) / t;
  }
  return s / test.length;
}

/** ARE of one split, or the error code when the method cannot fit it (too few points, degenerate data, ...). */
export function scoreSplit(
  map: MapData,
  train: Int32Array,
  test: Int32Array,
  method: string,
  response: "linear" | "log",
): { are: number; pred: Float64Array } | { error: string } {
  try {
    const pred = predictSplit(map, train, test, method, response);
    return { are: are(pred, map.y, test), pred };
  } catch (e) {
    if (isVarmapError(e)) return { error: e.code };
    throw e;
  }
}
