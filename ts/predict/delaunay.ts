// Placeholder until issue #5 lands: the class exists so the registry and CLI compile.
import { VarmapError } from "../errors.js";
import { Predictor, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";

export class Delaunay extends Predictor<null> {
  readonly method = "delaunay";
  constructor(options: PredictorOptions = {}) {
    super(options);
  }
  protected fitScaled(_X: Matrix, _y: Float64Array): void {
    throw new VarmapError("E_NOT_IMPLEMENTED", "the delaunay predictor is not implemented yet (issue #5)");
  }
  protected predictScaled(_Xq: Matrix): Float64Array {
    throw new VarmapError("E_NOT_IMPLEMENTED", "the delaunay predictor is not implemented yet (issue #5)");
  }
  protected stateJSON(): null {
    return null;
  }
  protected loadState(): void {}
}
