// Linear regression with intercept: ordinary least squares on [1, x], solved by the batched least-squares
// kernel (minimum-norm coefficients if the inputs are collinear, e.g. a constant input in a training split).
import { EPSILON, lstsq } from "../backend/kernels/lstsq.js";
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
    for (let i = 0; i < X.rows; i++) {
      design[i * p] = 1;
      design.set(X.data.subarray(i * X.cols, (i + 1) * X.cols), i * p + 1);
    }
    const r = lstsq(this.backend, { A: design, b: y, offsets: Int32Array.from([0, X.rows]), n: p, rcond: Math.max(X.rows, p) * EPSILON });
    this.coef = r.x;
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
