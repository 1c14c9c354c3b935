// The unit of cross-validation: fit a method on some rows of a map and predict others. Pure (no I/O, no
// globals): the pool runs it in workers. Inputs are normalized with the whole map's normalization, not the
// training subset's, as the papers and the golden references do.
import { isVarmapError, type VarmapError } from "../errors.js";
import { takeRows, type Matrix } from "../predict/matrix.js";
import { InputScaler } from "../predict/scaling.js";
import { LinearShepardSubsets, type RowSplit } from "../predict/lsp.js";
import { createPredictor } from "../predict/registry.js";
import { Gp } from "../predict/gp.js";
import { Hybrid } from "../predict/hybrid.js";
import type { Predictor, PredictorOptions, TrustedPrediction, TrustOptions } from "../predict/estimator.js";
import type { InputScalingOptions } from "../predict/scaling.js";

export interface MapNormalization {
  log2: boolean[];
  lo: number[];
  hi: number[];
}

/** Predictor input options that reproduce a map's normalization (DESIGN.md: unit cube, optional log2). */
export function mapInputScaling(norm: MapNormalization): InputScalingOptions {
  const log2: number[] = [];
  norm.log2.forEach((b, j) => b && log2.push(j));
  return { kind: "unit", log2, lo: [...norm.lo], hi: [...norm.hi] };
}

/**
 * Predictions at rows `test` of a model of `method` fitted on rows `train` of (X, y). X holds the map's raw
 * inputs; `options` the predictor options (normally `inputs: mapInputScaling(map.normalization)`, the response
 * scale, the method's hyperparameters).
 */
export function predictSplit(
  X: Matrix,
  y: Float64Array,
  train: Int32Array,
  test: Int32Array,
  method: string,
  options: PredictorOptions & Record<string, unknown> = {},
  yVar?: Float64Array,
): Float64Array {
  return createPredictor(method, options)
    .fit(takeRows(X, train), gatherValues(y, train), yVar && gatherValues(yVar, train))
    .predict(takeRows(X, test));
}

/** What a split's predictor knew besides the values: the extrapolation test (Delaunay: its exact hull test), and which log predictions were cut. */
export interface SplitDetails {
  outside?: Uint8Array;
  logClamped: Uint8Array;
  /** gp (hybrid: its seen gp): the fit's θ (Gp.thetaFitted), so a later fit of the same rows (cv's interval) skips the search. */
  gpTheta?: number[];
}

// Keyed by the predictions array a SplitPredictor returned (kept as it is, so its bytes and type do not change).
const splitDetails = new WeakMap<Float64Array, SplitDetails>();

/** The details of predictions returned by a split predictor, when the method path recorded them (not LSP's table). */
export function detailsOf(pred: Float64Array): SplitDetails | undefined {
  return splitDetails.get(pred);
}

/** Like predictSplit, recording the details (detailsOf) of the predictions it returns. */
function predictSplitDetailed(
  X: Matrix,
  y: Float64Array,
  train: Int32Array,
  test: Int32Array,
  method: string,
  options: PredictorOptions & Record<string, unknown>,
  yVar?: Float64Array,
): Float64Array {
  return predictRecorded(createPredictor(method, options), takeRows(X, train), gatherValues(y, train), takeRows(X, test), yVar && gatherValues(yVar, train));
}

/** Fits p and predicts the test rows (one kernel pass where the predictor has one), recording the details (detailsOf). */
function predictRecorded(p: object & Pick<Predictor, "fit">, Xtrain: Matrix, yTrain: Float64Array, Xtest: Matrix, vTrain?: Float64Array): Float64Array {
  const r = hasFitPredict(p) ? p.fitPredictTrusted(Xtrain, yTrain, Xtest, TRUST) : p.fit(Xtrain, yTrain, vTrain).predictTrusted(Xtest, TRUST);
  const gpTheta = p instanceof Gp ? p.thetaFitted : p instanceof Hybrid ? p.seenTheta : undefined;
  splitDetails.set(r.values, { outside: r.extrapolated, logClamped: r.logClamped, ...(gpTheta ? { gpTheta } : {}) });
  return r.values;
}

/** y at the given rows (a loop: Float64Array.from with a mapping function is several times slower). */
export function gatherValues(y: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = y[rows[i]];
  return out;
}

/** Predictions (or the fit's error) for many splits of one map by one method. */
export interface SplitPredictor {
  predict(splits: readonly RowSplit[]): (Float64Array | VarmapError)[];
}

/**
 * LSP's neighbour table of an n-row map costs about as much as n / 50 fits split by split (measured on the
 * 864-row MOANA map: 15 ms against 0.85 ms per split); with fewer splits of a map, fitting them one by one is faster.
 */
export const LSP_TABLE_ROWS_PER_SPLIT = 50;

/**
 * A predictor of many splits of (X, y), each split's result equal to predictSplit's. For LSP, when about
 * `expectedSplits` splits of this map will be predicted (over all calls) and that repays the table, one neighbour
 * table over the whole map serves them all (LinearShepardSubsets): keep the object to reuse it across calls.
 * Otherwise, and for other methods, splits are fitted one by one.
 */
export function splitPredictor(
  X: Matrix,
  y: Float64Array,
  method: string,
  options: PredictorOptions & Record<string, unknown> = {},
  expectedSplits = Infinity,
  yVar?: Float64Array,
): SplitPredictor {
  if (method === "lsp" && expectedSplits * LSP_TABLE_ROWS_PER_SPLIT >= X.rows) return new LinearShepardSubsets(X, y, options);
  // The map's fixed normalization applied once to every row, not split by split: the transform is elementwise, so
  // each split's rows are the same doubles either way, and the predictors then see inputs already on their scale.
  const pre = prescaled(X, options);
  return {
    predict: (splits) =>
      splits.map((s) => {
        try {
          return pre ? predictRows(pre.X, y, s.train, s.test, method, pre.options, yVar) : predictSplitDetailed(X, y, s.train, s.test, method, options, yVar);
        } catch (e) {
          if (isVarmapError(e)) return e;
          throw e;
        }
      }),
  };
}

/** predictSplit on inputs already transformed (options.inputs = none); one kernel pass where the predictor has one. */
function predictRows(
  X: Matrix,
  y: Float64Array,
  train: Int32Array,
  test: Int32Array,
  method: string,
  options: PredictorOptions & Record<string, unknown>,
  yVar?: Float64Array,
): Float64Array {
  return predictRecorded(
    createPredictor(method, options),
    gatherRows(X, train),
    gatherValues(y, train),
    gatherRows(X, test),
    yVar && gatherValues(yVar, train),
  );
}

// cv's trust columns need no distances (scoring computes what it reports on the map's own scale).
const TRUST: TrustOptions = { distance: false };

/** A predictor that fits and predicts in one step with the results of fit(X, y).predictTrusted(Xq) (e.g. Delaunay: one kernel call). */
interface FitPredict {
  fitPredictTrusted(X: Matrix, y: Float64Array, Xq: Matrix, options: TrustOptions): TrustedPrediction;
}

function hasFitPredict(p: object): p is FitPredict {
  return typeof (p as Partial<FitPredict>).fitPredictTrusted === "function";
}

/** The whole map's inputs under a normalization fixed in advance (unit cube over given bounds), or undefined. */
function prescaled(
  X: Matrix,
  options: PredictorOptions & Record<string, unknown>,
): { X: Matrix; options: PredictorOptions & Record<string, unknown> } | undefined {
  const inputs = options.inputs;
  if (!inputs || (inputs.kind ?? "unit") !== "unit" || inputs.lo?.length !== X.cols || inputs.hi?.length !== X.cols) return undefined;
  try {
    const Xs = InputScaler.fit(X, inputs).transform(X);
    for (let i = 0; i < Xs.data.length; i++) if (!Number.isFinite(Xs.data[i])) return undefined; // let fit() report it, split by split
    return { X: Xs, options: { ...options, inputs: { kind: "none" } } };
  } catch (e) {
    if (isVarmapError(e)) return undefined; // e.g. a log2 input that is not positive: fit() reports it, split by split
    throw e;
  }
}

/** takeRows without a subarray per row. */
function gatherRows(m: Matrix, idx: Int32Array): Matrix {
  const c = m.cols;
  const src = m.data;
  const out = new Float64Array(idx.length * c);
  for (let i = 0, o = 0; i < idx.length; i++) {
    const base = idx[i] * c;
    for (let k = 0; k < c; k++) out[o++] = src[base + k];
  }
  return { data: out, rows: idx.length, cols: c };
}
