// The modified linear Shepard interpolant (seed 000 sec. 5.1) exactly as SHEPPACK's LSHEP / LSHEPVAL compute
// it (ACM TOMS 905): see native/include/varmap/lsp.h for every choice (neighbour set and ties, radii, weights,
// minimum-norm local fits with DGELSS's rank rule, the Shepard fallback). Both steps run in the kernels.
import { VarmapError } from "../errors.js";
import { checkStatus } from "../backend/status.js";
import { LSP_STATUS, LspStatus, lspEval, lspFitRaw } from "../backend/kernels/lsp.js";
import { Predictor, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";

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

  /** Number of nodes whose local least-squares fit was rank-deficient (minimum-norm solution used). */
  get rankDeficientNodes(): number {
    return this.deficient;
  }

  /** Radii of influence (in normalized input units). */
  get radii(): Float64Array {
    return this.rw.slice();
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
  return new VarmapError("E_DUPLICATE_POINTS", `training points ${Math.min(k, other)} and ${Math.max(k, other)} (0-based) have the same inputs, so the linear Shepard weights are undefined`, {
    location: { row: Math.min(k, other) },
    remedy: "aggregate repeated configurations into one row (a map has one row per configuration) before fitting",
  });
}
