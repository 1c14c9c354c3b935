// One cross-validation split inside a worker: the pure per-split unit of ts/cv (fit on the training rows with
// the map's own normalization, predict the test rows) scored by ARE (seed 000 eq. 1). The constant baseline
// "mean" (the null model of a Table 2) is a predictor of the registry like any other.
import { isVarmapError } from "../errors.js";
import { are as areOf } from "./are.js";
import { mapInputScaling, predictSplit as cvPredictSplit, splitPredictor, type SplitPredictor } from "./split.js";
import type { RowSplit } from "../predict/lsp.js";
import { matrix } from "../predict/matrix.js";
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
  return cvPredictSplit(matrix(map.X, map.rows, map.cols), map.y, train, test, method, {
    ...hyper,
    inputs: mapInputScaling(map.meta.normalization),
    response,
  });
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
): ({ are: number; pred: Float64Array } | { error: string })[] {
  const p = predictor ?? mapSplitPredictor(map, method, response, hyper, splits.length);
  return p.predict(splits).map((pred, i) => (pred instanceof Float64Array ? { are: areOf(pred, gather(map.y, splits[i].test)), pred } : { error: pred.code }));
}

/** y at the given rows (a loop: Float64Array.from with a mapping function is several times slower). */
function gather(y: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = y[rows[i]];
  return out;
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
