// The constant baseline: every prediction is the training responses' mean (on the model's response scale, so the
// geometric mean with a log response). It is the null model of a Table 2 and needs no kernel.
import { VarmapError } from "../errors.js";
import { Predictor, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";

export interface MeanBaselineState {
  mean: number;
}

export class MeanBaseline extends Predictor<MeanBaselineState> {
  readonly method = "mean";
  /** No far-query move (FAR_QUERY_RADIUS): a constant. */
  protected override farQueryRadius(): number {
    return Infinity;
  }
  private mean = NaN;

  constructor(options: PredictorOptions = {}) {
    super(options);
  }

  protected fitScaled(_X: Matrix, y: Float64Array): void {
    let s = 0;
    for (let i = 0; i < y.length; i++) s += y[i];
    this.mean = s / y.length;
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    return new Float64Array(Xq.rows).fill(this.mean);
  }

  protected stateJSON(): MeanBaselineState {
    return { mean: this.mean };
  }

  protected loadState(state: MeanBaselineState): void {
    if (typeof state?.mean !== "number")
      throw new VarmapError("E_MODEL_FORMAT", "mean model state is malformed", { remedy: "pass the JSON written by toJSON() or `varmap fit`" });
    this.mean = state.mean;
  }
}
