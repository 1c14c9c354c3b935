// The modified linear Shepard interpolant (seed 000 sec. 5.1) exactly as SHEPPACK's LSHEP / LSHEPVAL compute
// it (ACM TOMS 905): see native/include/varmap/lsp.h for every choice (neighbour set and ties, radii, weights,
// minimum-norm local fits with DGELSS's rank rule, the Shepard fallback). Both steps run in the kernels.
import { VarmapError, isVarmapError } from "../errors.js";
import { checkStatus } from "../backend/status.js";
import { getBackend } from "../backend/index.js";
import {
  LSP_STATUS,
  LspStatus,
  LspWeightCode,
  lspEval,
  lspFitRaw,
  lspNeighborTable,
  lspSubsets,
  lspWeights,
  type LspNeighborTable,
} from "../backend/kernels/lsp.js";
import { Predictor, checkMatrix, clampFarQueries, clampPredictions, type PredictorOptions } from "./estimator.js";
import { takeRows, type Matrix } from "./matrix.js";
import { InputScaler, fromModelScale, toModelScale, type InputScalingOptions } from "./scaling.js";

export interface LinearShepardState {
  /** Training inputs as the model sees them (normalized), row-major. */
  X: number[];
  /** Training responses on the model's scale. */
  f: number[];
  /** Local gradient of each node, row-major n × m. */
  A: number[];
  /** Radius of influence R_w of each node. */
  rw: number[];
  /** Nodes whose local fit was rank-deficient (LSHEP's IER = 2 when > 0). */
  rankDeficient: number;
}

/** LSHEPVAL's per-query code: 0 normal, 1 outside every radius (Shepard fallback), 2 local normals disagree. */
export interface LinearShepardEvaluation {
  values: Float64Array;
  ierr: Int32Array;
}

export class LinearShepard extends Predictor<LinearShepardState> {
  readonly method = "lsp";
  private X: Float64Array = new Float64Array(0);
  private f: Float64Array = new Float64Array(0);
  private A: Float64Array = new Float64Array(0);
  private rw: Float64Array = new Float64Array(0);
  private deficient = 0;

  constructor(options: PredictorOptions = {}) {
    super(options);
  }

  /** LSHEP needs n > m + 1. */
  protected override minPoints(d: number): number {
    return d + 2;
  }

  protected fitScaled(X: Matrix, y: Float64Array): void {
    const r = lspFitRaw(this.backend, X.data, y, X.cols);
    if (r.status === LspStatus.DUPLICATE_POINTS) throw duplicateError(X, r.rank);
    checkStatus("lspFit", r.status, LSP_STATUS);
    this.X = Float64Array.from(X.data);
    this.f = Float64Array.from(y);
    this.A = r.A;
    this.rw = r.rw;
    this.deficient = r.rank.reduce((s, k) => s + (k < X.cols ? 1 : 0), 0);
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    return this.evaluateScaled(Xq).values;
  }

  private evaluateScaled(Xq: Matrix): LinearShepardEvaluation {
    return lspEval(this.backend, { X: this.X, f: this.f, A: this.A, rw: this.rw, m: this.dim }, Xq.data);
  }

  /** Predictions with LSHEPVAL's code per query (values on the response's scale, like predict()). */
  evaluate(Xq: Matrix): LinearShepardEvaluation {
    const r = this.evaluateScaled(this.transformQueries(Xq));
    if ((this.options.response ?? "linear") === "log") for (let i = 0; i < r.values.length; i++) r.values[i] = Math.exp(r.values[i]);
    return r;
  }

  /**
   * The normalized Shepard weights W_k(q) / Σ W_k LSHEPVAL combines at each query (from the evaluation kernel),
   * as sparse rows over the training nodes; `fallback` marks queries no radius covers (inverse-distance weights of
   * m + 1 nodes). A query at a node has weight 1 there. Whole-distribution prediction mixes with these.
   */
  shepardWeights(Xq: Matrix): { offsets: Int32Array; index: Int32Array; weight: Float64Array; fallback: boolean[] } {
    // A query beyond FAR_QUERY_RADIUS (its squared distances overflow: NaN weights) gets the weights at that radius.
    const Z = clampFarQueries(this.transformQueries(Xq), this.farQueryRadius()).Z;
    const w = lspWeights(this.backend, { X: this.X, rw: this.rw, m: this.dim }, Z.data);
    return { offsets: w.offsets, index: w.index, weight: w.weight, fallback: Array.from(w.code, (c) => c === LspWeightCode.FALLBACK) };
  }

  /** Number of nodes whose local least-squares fit was rank-deficient (minimum-norm solution used). */
  get rankDeficientNodes(): number {
    return this.deficient;
  }

  /** Radii of influence (in normalized input units). */
  get radii(): Float64Array {
    return this.rw.slice();
  }

  protected override storedInputs(): Float64Array {
    return this.X;
  }

  protected stateJSON(): LinearShepardState {
    return { X: Array.from(this.X), f: Array.from(this.f), A: Array.from(this.A), rw: Array.from(this.rw), rankDeficient: this.deficient };
  }

  protected loadState(s: LinearShepardState): void {
    const n = s.f.length;
    if (s.X.length !== n * this.dim || s.A.length !== n * this.dim || s.rw.length !== n)
      throw new VarmapError("E_MODEL_FORMAT", `the lsp model state is inconsistent (${n} nodes in ${this.dim} dimensions)`, { remedy: "refit the model" });
    this.X = Float64Array.from(s.X);
    this.f = Float64Array.from(s.f);
    this.A = Float64Array.from(s.A);
    this.rw = Float64Array.from(s.rw);
    this.deficient = s.rankDeficient ?? 0;
  }
}

function duplicateError(X: Matrix, rank: Int32Array): VarmapError {
  const k = rank.findIndex((r) => r < 0);
  const m = X.cols;
  let other = -1;
  for (let i = 0; i < X.rows && other < 0; i++) {
    if (i === k) continue;
    let same = true;
    for (let j = 0; j < m && same; j++) same = X.data[i * m + j] === X.data[k * m + j];
    if (same) other = i;
  }
  return new VarmapError(
    "E_DUPLICATE_POINTS",
    `training points ${Math.min(k, other)} and ${Math.max(k, other)} (0-based) have the same inputs, so the linear Shepard weights are undefined`,
    {
      // No file row: these are 0-based training points (ErrorLocation rows are 1-based file rows).
      remedy: "aggregate repeated configurations into one row (a map has one row per configuration) before fitting",
    },
  );
}

/** A division of the rows of one point set: fit on `train`, predict at `test`. */
export interface RowSplit {
  train: Int32Array;
  test: Int32Array;
}

/** Point sets up to this many rows get a neighbour table (quadratic time, 32·NP rows per point); larger ones fit every subset with its own k-d tree. */
export const MAX_TABLE_ROWS = 20_000;

/**
 * LinearShepard models fitted on many subsets of one point set, as cross-validation does: the point set's
 * neighbour table (lspNeighbors) is computed once, then every subset's fit and evaluation runs in one
 * lspSubsets call without tree searches. Each split's predictions are identical to
 * `new LinearShepard(options).fit(rows train of X, y).predict(rows test of X)`; that path is taken instead for
 * a split the table cannot serve (training rows not strictly ascending, a failing fit: its error is returned)
 * and for every split when the input scaling depends on the training rows (give `inputs.lo`/`hi`, or kind
 * "none") or the point set has non-finite or out-of-domain values.
 */
export class LinearShepardSubsets {
  private prepared = false;
  private table?: LspNeighborTable;
  private fModel?: Float64Array;

  constructor(
    readonly X: Matrix,
    readonly y: Float64Array,
    readonly options: PredictorOptions = {},
  ) {}

  /** Per split, its predictions at the test rows or the error its fit raised. */
  predict(splits: readonly RowSplit[]): (Float64Array | VarmapError)[] {
    const out: (Float64Array | VarmapError | undefined)[] = new Array(splits.length);
    const batch: number[] = [];
    if (this.prepare()) splits.forEach((s, i) => this.servable(s) && batch.push(i));
    if (batch.length) {
      let results: ReturnType<typeof lspSubsets> = [];
      try {
        results = lspSubsets(
          getBackend(this.options.backend),
          this.table!,
          this.fModel!,
          batch.map((i) => ({ train: splits[i].train, query: splits[i].test })),
        );
      } catch (e) {
        if (!isVarmapError(e)) throw e; // e.g. out of memory: every split by the ordinary path
      }
      results.forEach((r, b) => {
        if (r.status !== 0) return;
        const values = Float64Array.from(r.values);
        // The same safe log range as Predictor.predict (the shared table bypasses it).
        clampPredictions(values, this.options.response ?? "linear", trainingRange(this.fModel!, splits[batch[b]].train));
        out[batch[b]] = fromModelScale(values, this.options.response ?? "linear");
      });
    }
    return splits.map((s, i) => out[i] ?? this.predictOne(s));
  }

  /** Whether splits are fitted on the shared neighbour table (else each by the ordinary path). */
  get sharesTable(): boolean {
    return this.prepare();
  }

  /** Rows in range, training rows strictly ascending (LSHEP's tie order) and enough of them. */
  private servable(s: RowSplit): boolean {
    const n = this.X.rows,
      tr = s.train;
    if (tr.length < this.X.cols + 2 || tr[0] < 0 || tr[tr.length - 1] >= n) return false;
    for (let i = 1; i < tr.length; i++) if (tr[i] <= tr[i - 1]) return false;
    for (let i = 0; i < s.test.length; i++) if (!(s.test[i] >= 0 && s.test[i] < n)) return false;
    return true;
  }

  /** The ordinary path for one split. */
  private predictOne(s: RowSplit): Float64Array | VarmapError {
    try {
      const y = Float64Array.from(s.train, (r) => this.y[r]);
      return new LinearShepard(this.options).fit(takeRows(this.X, s.train), y).predict(takeRows(this.X, s.test));
    } catch (e) {
      if (isVarmapError(e)) return e;
      throw e;
    }
  }

  /** Scales the whole point set once and builds its table; false when the table cannot reproduce the fits. */
  private prepare(): boolean {
    if (this.prepared) return this.table !== undefined;
    this.prepared = true;
    const { X, y } = this;
    if (X.rows < 2 || X.rows > MAX_TABLE_ROWS || y.length !== X.rows || !fixedScaling(this.options.inputs, X.cols)) return false;
    try {
      checkMatrix(X, "inputs");
      if (!y.every(Number.isFinite)) return false;
      const Xs = InputScaler.fit(X, this.options.inputs).transform(X);
      this.fModel = toModelScale(Float64Array.from(y), this.options.response ?? "linear");
      this.table = lspNeighborTable(getBackend(this.options.backend), Float64Array.from(Xs.data), X.cols);
      return true;
    } catch (e) {
      if (isVarmapError(e)) return false;
      throw e;
    }
  }
}

/** logRangeOf(f at the training rows), without gathering them (the same min and max). */
function trainingRange(f: Float64Array, train: Int32Array): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < train.length; i++) {
    const v = f[train[i]];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** True when the input scaling does not depend on which rows are fitted. */
function fixedScaling(o: InputScalingOptions | undefined, cols: number): boolean {
  if ((o?.kind ?? "unit") === "none") return true;
  const given = (v?: number[]) => v !== undefined && v.length >= cols && v.slice(0, cols).every(Number.isFinite);
  return given(o?.lo) && given(o?.hi);
}
