// Linear regression with intercept: ordinary least squares on [1, x], solved by the batched least-squares
// kernel (minimum-norm coefficients if the inputs are collinear, e.g. a constant input in a training split).
import { EPSILON, lstsq } from "../backend/kernels/lstsq.js";
import { powerOfTwoScale } from "../data/stats.js";
import { VarmapError } from "../errors.js";
import { Predictor, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";

export interface LinearRegressionState {
  /** Intercept, then one slope per (normalized) input. */
  coef: number[];
  /** Rank of the design matrix [1, X]. */
  rank: number;
}

export class LinearRegression extends Predictor<LinearRegressionState> {
  readonly method = "lr";
  /** No far-query move (FAR_QUERY_RADIUS): a linear form: finite at any distance (the response clamp bounds it). */
  protected override farQueryRadius(): number {
    return Infinity;
  }
  private coef: Float64Array = new Float64Array(0);
  private rank = 0;

  constructor(options: PredictorOptions = {}) {
    super(options);
  }

  protected override minPoints(d: number): number {
    return d + 1;
  }

  protected fitScaled(X: Matrix, y: Float64Array): void {
    const p = X.cols + 1;
    const design = new Float64Array(X.rows * p);
    // A plain loop: a subarray per row costs more than the copy.
    for (let i = 0, o = 0, k = 0; i < X.rows; i++) {
      design[o++] = 1;
      for (let j = 0; j < X.cols; j++) design[o++] = X.data[k++];
    }
    // Responses beyond 2^±256 are fitted divided by an exact power of 2 (their squares would overflow in the
    // kernel's norms) and the coefficients scaled back; least squares is equivariant, so nothing else changes.
    const scale = powerOfTwoScale(y, 256);
    const b = scale === 1 ? y : y.map((v) => v * scale);
    const r = lstsq(this.backend, { A: design, b, offsets: Int32Array.from([0, X.rows]), n: p, rcond: Math.max(X.rows, p) * EPSILON });
    this.coef = scale === 1 ? r.x : r.x.map((v) => v / scale);
    if (!this.coef.every(Number.isFinite))
      throw new VarmapError("E_DEGENERATE_DATA", "the least-squares coefficients are not finite", {
        remedy: "check the inputs for extreme values (beyond 1e150) and rescale them",
      });
    this.rank = r.rank[0];
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    const out = new Float64Array(Xq.rows);
    const c = this.coef;
    for (let i = 0; i < Xq.rows; i++) {
      let s = c[0];
      for (let j = 0; j < Xq.cols; j++) s += c[j + 1] * Xq.data[i * Xq.cols + j];
      out[i] = s;
    }
    return out;
  }

  /** Intercept and slopes on the normalized inputs. */
  get coefficients(): Float64Array {
    return this.coef.slice();
  }

  protected stateJSON(): LinearRegressionState {
    return { coef: Array.from(this.coef), rank: this.rank };
  }

  protected loadState(state: LinearRegressionState): void {
    this.coef = Float64Array.from(state.coef);
    this.rank = state.rank;
  }
}
