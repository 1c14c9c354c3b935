// Cross-validation of one map over given splits: predictions per (split, test row) and ARE per split.
import { matrix } from "../predict/matrix.js";
import type { PredictorOptions } from "../predict/estimator.js";
import { are } from "./are.js";
import { mapInputScaling, splitPredictor, type MapNormalization } from "./split.js";
import { splitRows, type SplitsFile } from "./splits.js";

export interface CvMap {
  X: Float64Array;
  rows: number;
  cols: number;
  y: Float64Array;
  ids: readonly (number | string)[];
  normalization: MapNormalization;
}

export interface SplitResult {
  p: number;
  rep: number;
  /** Row ids of the test points, in row order. */
  ids: (number | string)[];
  truth: Float64Array;
  predictions: Float64Array;
  are: number;
}

export function cvGivenSplits(
  map: CvMap,
  splits: SplitsFile,
  method: string,
  options: PredictorOptions & Record<string, unknown> = {},
  onSplit?: (done: number, total: number) => void,
): SplitResult[] {
  const X = matrix(map.X, map.rows, map.cols);
  const opts = { inputs: mapInputScaling(map.normalization), ...options };
  const rows = splits.splits.map((s, index) => splitRows(s, map.ids, { file: splits.source, index }));
  // All splits at once: LSP fits them on one neighbour table of the map.
  const predicted = splitPredictor(X, map.y, method, opts, rows.length).predict(rows);
  return splits.splits.map((s, index) => {
    const { test } = rows[index];
    const predictions = predicted[index];
    if (!(predictions instanceof Float64Array)) throw predictions;
    const truth = Float64Array.from(test, (r) => map.y[r]);
    onSplit?.(index + 1, splits.splits.length);
    return { p: s.p, rep: s.rep, ids: Array.from(test, (r) => map.ids[r]), truth, predictions, are: are(predictions, truth) };
  });
}
