// The estimator API every predictor shares (DESIGN.md): options in the constructor, fit(X, y) returns the
// fitted model, predict(Xq), toJSON()/fromJSON() round-tripping exactly. This base class owns what is common:
// validation with coded errors, input scaling, response scale and the serialized envelope. A predictor
// implements fitScaled/predictScaled/stateJSON/loadState on already-transformed data.
import { VarmapError } from "../errors.js";
import { getBackend, type BackendChoice, type KernelBackend } from "../backend/index.js";
import type { Matrix } from "./matrix.js";
import { InputScaler, fromModelScale, toModelScale, type InputScalerJSON, type InputScalingOptions, type ResponseScale } from "./scaling.js";

export interface PredictorOptions {
  /** Kernel backend; default VARMAP_BACKEND or auto. */
  backend?: BackendChoice;
  /** Input normalization; default unit cube over the training inputs. */
  inputs?: InputScalingOptions;
  /** Model the response as given or on a log scale (fit log y, exponentiate predictions). */
  response?: ResponseScale;
}

export interface ModelJSON<S = unknown> {
  format: "varmap-model";
  version: 1;
  method: string;
  options: Record<string, unknown>;
  inputs: InputScalerJSON;
  response: ResponseScale;
  dim: number;
  /** Only when response is "log": the training range of log y that predictions are clamped to (see logClampBounds). */
  logRange?: [number, number];
  state: S;
}

/** Predictions and, per prediction, whether it was clamped to the safe log range (always 0 on a linear response). */
export interface DetailedPrediction {
  values: Float64Array;
  clamped: Uint8Array;
}

/** The largest factor a log-response prediction may exceed the largest training response by (issue 16). */
export const LOG_CLAMP_MAX_FACTOR = 1e6;
/** The widening of the clamp interval on each side, as a fraction of the training range of log y. */
export const LOG_CLAMP_MARGIN = 0.25;

/**
 * The interval of log y that log-response predictions are clamped to: the training range [lo, hi] of log y
 * widened on each side by a quarter of its width w (a map whose responses span a factor F admits predictions
 * from min / F^¼ to max · F^¼), the widening capped at ln(1e6) so no prediction exceeds 1e6 × the largest training
 * response. Why a quarter: a smooth trend extrapolated from sampled configurations seldom leaves the observed
 * range by more, while the e^70 blow-ups of a nearly singular local fit are cut. Measured on the real fread map
 * (golden splits, --log-response), margins 0 / 0.1 / 0.25 / 0.5 give LSP a mean ARE at p = 0.1 of 198 / 274 /
 * 477 / 1445 % (13509 % unclamped) and leave MARS unchanged; a quarter keeps every method under 1,000 % while
 * clamping only predictions that are clearly off the map.
 */
export function logClampBounds(range: readonly [number, number]): [number, number] {
  const margin = Math.min(LOG_CLAMP_MARGIN * (range[1] - range[0]), Math.log(LOG_CLAMP_MAX_FACTOR));
  return [range[0] - margin, range[1] + margin];
}

/** The range of a model-scale (log) response. */
export function logRangeOf(logY: ArrayLike<number>): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < logY.length; i++) {
    if (logY[i] < lo) lo = logY[i];
    if (logY[i] > hi) hi = logY[i];
  }
  return [lo, hi];
}

/**
 * Clamps model-scale (log) predictions in place to logClampBounds(range) (±Infinity included); returns the mask
 * of clamped positions. NaN is left as it is: clamping cannot make a failed prediction meaningful.
 */
export function clampLogPredictions(values: Float64Array, range: readonly [number, number]): Uint8Array {
  const [lo, hi] = logClampBounds(range);
  const mask = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v > hi) (values[i] = hi), (mask[i] = 1);
    else if (v < lo) (values[i] = lo), (mask[i] = 1);
  }
  return mask;
}

export abstract class Predictor<S = unknown, O extends PredictorOptions = PredictorOptions> {
  abstract readonly method: string;
  readonly options: O;
  protected scaler?: InputScaler;
  protected dim = 0;
  /** Training range of log y, kept only for a log response (predictions are clamped to it widened). */
  private logRange?: [number, number];

  constructor(options: O) {
    this.options = options;
  }

  /** Smallest number of training points the method accepts in d dimensions. */
  protected minPoints(_d: number): number {
    return 1;
  }
  protected abstract fitScaled(X: Matrix, y: Float64Array): void;
  protected abstract predictScaled(Xq: Matrix): Float64Array;
  /** The fitted state as plain JSON (numbers must round-trip exactly: plain arrays of doubles are fine). */
  protected abstract stateJSON(): S;
  protected abstract loadState(state: S): void;
  /** Hyperparameters to record in the model (backend excluded: it does not change results beyond tolerance). */
  protected hyperparameters(): Record<string, unknown> {
    const { backend: _b, inputs: _i, response: _r, ...rest } = this.options as PredictorOptions & Record<string, unknown>;
    return rest;
  }

  protected get backend(): KernelBackend {
    return getBackend(this.options.backend);
  }

  get fitted(): boolean {
    return this.scaler !== undefined;
  }

  fit(X: Matrix, y: ArrayLike<number>): this {
    if (X.cols === 0)
      throw new VarmapError("E_NO_INPUTS", `no input varies among the ${X.rows} training point(s): every input column is constant`, {
        remedy: "check --inputs and --where; a map whose configurations all share their inputs has nothing to predict from",
      });
    checkMatrix(X, "training inputs");
    if (y.length !== X.rows)
      throw new VarmapError("E_SHAPE", `${X.rows} training rows but ${y.length} responses`, { remedy: "give one response per training row" });
    const yy = Float64Array.from(y);
    for (let i = 0; i < yy.length; i++)
      if (!Number.isFinite(yy[i]))
        throw new VarmapError("E_NONFINITE", `training response ${i} is ${yy[i]}`, { remedy: "remove or impute non-finite responses" });
    const need = this.minPoints(X.cols);
    if (X.rows < need)
      throw new VarmapError("E_TOO_FEW_POINTS", `${this.method} needs at least ${need} training points in ${X.cols} dimensions, got ${X.rows}`, {
        remedy: "add configurations to the training set or use fewer inputs",
      });
    const scaler = InputScaler.fit(X, this.options.inputs);
    this.dim = X.cols;
    const ym = toModelScale(yy, this.options.response ?? "linear");
    this.fitScaled(scaler.transform(X), ym);
    this.logRange = this.options.response === "log" ? logRangeOf(ym) : undefined;
    this.scaler = scaler;
    return this;
  }

  predict(Xq: Matrix): Float64Array {
    return this.predictDetailed(Xq).values;
  }

  /** Predictions with, per query, whether it was clamped to the safe log range (log response only). */
  predictDetailed(Xq: Matrix): DetailedPrediction {
    const model = this.predictScaled(this.transformQueries(Xq));
    const clamped = this.logRange ? clampLogPredictions(model, this.logRange) : new Uint8Array(model.length);
    return { values: fromModelScale(model, this.options.response ?? "linear"), clamped };
  }

  /** The training range of log y the predictions are clamped to (widened), or undefined on a linear response. */
  protected get logClampRange(): readonly [number, number] | undefined {
    return this.logRange;
  }

  /** Inputs as the model sees them (after normalization): for predictor-specific queries such as locate(). */
  protected transformQueries(Xq: Matrix): Matrix {
    if (!this.scaler) throw new VarmapError("E_NOT_FITTED", `this ${this.method} model has not been fitted`, { remedy: "call fit(X, y) first" });
    checkMatrix(Xq, "query inputs");
    if (Xq.cols !== this.dim)
      throw new VarmapError("E_SHAPE", `queries have ${Xq.cols} inputs but the model was fitted on ${this.dim}`, {
        remedy: "query with the same input columns as the training data",
      });
    return this.scaler.transform(Xq);
  }

  toJSON(): ModelJSON<S> {
    if (!this.scaler) throw new VarmapError("E_NOT_FITTED", `this ${this.method} model has not been fitted`, { remedy: "call fit(X, y) first" });
    return {
      format: "varmap-model",
      version: 1,
      method: this.method,
      options: this.hyperparameters(),
      inputs: this.scaler.toJSON(),
      response: this.options.response ?? "linear",
      dim: this.dim,
      ...(this.logRange ? { logRange: [this.logRange[0], this.logRange[1]] as [number, number] } : {}),
      state: this.stateJSON(),
    };
  }

  /** Restores a fitted model from toJSON() output; used by the registry's fromJSON. */
  restore(json: ModelJSON<S>): this {
    if (json.format !== "varmap-model" || json.method !== this.method)
      throw new VarmapError("E_MODEL_FORMAT", `not a varmap ${this.method} model`, { remedy: "pass the JSON written by toJSON() or `varmap fit`" });
    this.scaler = InputScaler.fromJSON(json.inputs);
    this.dim = json.dim;
    // Models written before the clamp existed carry no range: they predict as they did.
    this.logRange = json.response === "log" && json.logRange ? [json.logRange[0], json.logRange[1]] : undefined;
    this.loadState(json.state);
    return this;
  }
}

export function checkMatrix(X: Matrix, what: string): void {
  if (X.data.length !== X.rows * X.cols || X.cols < 1)
    throw new VarmapError("E_SHAPE", `${what}: ${X.rows}×${X.cols} does not match ${X.data.length} values`, { remedy: "pass a row-major matrix" });
  for (let i = 0; i < X.data.length; i++)
    if (!Number.isFinite(X.data[i]))
      throw new VarmapError("E_NONFINITE", `${what}: row ${Math.floor(i / X.cols)}, input ${i % X.cols} is ${X.data[i]}`, {
        remedy: "remove or impute non-finite inputs",
      });
}
