// The estimator API every predictor shares (DESIGN.md): options in the constructor, fit(X, y) returns the
// fitted model, predict(Xq), toJSON()/fromJSON() round-tripping exactly. This base class owns what is common:
// validation with coded errors, input scaling, response scale and the serialized envelope. A predictor
// implements fitScaled/predictScaled/stateJSON/loadState on already-transformed data.
import { VarmapError } from "../errors.js";
import { getBackend, type BackendChoice, type KernelBackend } from "../backend/index.js";
import type { Matrix } from "./matrix.js";
import { InputScaler, fromModelScale, toModelScale, type InputScalerJSON, type InputScalingOptions, type ResponseScale } from "./scaling.js";
import { clampNegative, nearestDistance, outsideBounds, outsideBox, type Trust } from "./trust.js";

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
  /** Only when response is "linear": the training range of y, for the absurd-value clamp (see linearClampBounds). */
  range?: [number, number];
  state: S;
  /**
   * The training inputs after normalization (row-major, dim columns), for the trust columns of predictions
   * (ts/predict/trust.ts: distance to the nearest training point, extrapolation). Absent in models written before.
   */
  support?: number[];
}

/** Predictions and, per prediction, whether it was clamped (to the safe log range, on a linear response off the data's scale, or at a log-scaled input moved into its safe range). */
export interface DetailedPrediction {
  values: Float64Array;
  clamped: Uint8Array;
}

/** Predictions with how far to trust each (ts/predict/trust.ts); `values` are already clamped where `clamped` says. */
export interface TrustedPrediction extends Trust {
  values: Float64Array;
  /**
   * Which clamps applied: negative → 0 (nonnegative statistic); cut to the safe range of the responses (log or
   * linear), or predicted at a log-scaled input moved into its safe log range (`inputClamped`, a subset of it).
   */
  negative: Uint8Array;
  logClamped: Uint8Array;
  /**
   * The query's log-scaled inputs lay beyond their safe log range (logInputClampBounds), or the query lay beyond
   * FAR_QUERY_RADIUS, and it was moved onto that range.
   */
  inputClamped: Uint8Array;
}

export interface TrustOptions {
  /** The response is a nonnegative statistic (trust.ts NON_NEGATIVE_STATS): negative predictions become 0. */
  nonNegative?: boolean;
  /** Compute the distance to the nearest training point (O(queries × training rows)); default true. */
  distance?: boolean;
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

/**
 * How far beyond the training range of y a linear-response prediction may go, in units of the data's scale
 * max(hi − lo, |lo|, |hi|) (issue 14). A linear model, unlike a log one, may honestly extrapolate a trend past
 * the data, so the bound is wide: only values a thousand times the data's scale away are cut, the values of a
 * nearly singular local fit (LSP near a pair of points 1e-15 apart, rbf near coincident centres: 1e10 and more)
 * or of an extrapolation so far that it says nothing about the map. Such a prediction comes back at the bound,
 * flagged in `clamped`. Measured: no prediction of the golden cv splits of the real maps reaches it.
 */
export const LINEAR_CLAMP_FACTOR = 1e3;

/** The interval linear-response predictions are clamped to: the training range widened by LINEAR_CLAMP_FACTOR × its scale. */
export function linearClampBounds(range: readonly [number, number]): [number, number] {
  const scale = Math.max(range[1] - range[0], Math.abs(range[0]), Math.abs(range[1]));
  const lo = range[0] - LINEAR_CLAMP_FACTOR * scale,
    hi = range[1] + LINEAR_CLAMP_FACTOR * scale;
  return [Number.isFinite(lo) ? lo : -Number.MAX_VALUE, Number.isFinite(hi) ? hi : Number.MAX_VALUE];
}

/**
 * Clamps model-scale predictions in place for either response scale (log: logClampBounds; linear:
 * linearClampBounds) and returns the mask of clamped positions; NaN stays NaN.
 */
export function clampPredictions(values: Float64Array, response: ResponseScale, range: readonly [number, number]): Uint8Array {
  if (response === "log") return clampLogPredictions(values, range);
  const [lo, hi] = linearClampBounds(range);
  return clampInto(values, lo, hi);
}

/**
 * The interval a log-scaled input (--log-inputs) of a query is moved into before predicting, in the model's
 * normalized units: the training range [lo, hi] of that input widened on each side by LOG_CLAMP_MARGIN of its width,
 * as logClampBounds widens the log response. A query at 1e9 × the largest input is 30 doublings out, where every
 * trend the model learned (a line in log2 x, a spline's tail) says nothing; it is predicted at the edge of the safe
 * range instead and flagged. Only log-scaled inputs: a linear input's far query is a legitimate extrapolation the
 * linear response clamp (linearClampBounds) bounds. cv's test points lie inside the map and are not affected in practice.
 */
export function logInputClampBounds(lo: number, hi: number): [number, number] {
  const margin = LOG_CLAMP_MARGIN * (hi - lo);
  return [lo - margin, hi + margin];
}

/**
 * How far a query's input may lie from the data, in normalized input units (the training range of each input is 1),
 * before it is moved onto that distance and flagged (issue 44): a million times the data's range away. The kernel
 * methods evaluate sums of squared distances (lsp's Shepard weights, rbf's r² log r, gp's correlations) that
 * overflow near 1e154 units and came back NaN; at this distance every one of them is finite and already shows its
 * limiting behaviour: gp's correlations are exactly 0 (its mean function remains), lsp and rbf follow their linear
 * tails, which the response clamp bounds. Methods whose evaluation is stable at any distance (lr, mars, delaunay,
 * mean) opt out (farQueryRadius).
 */
export const FAR_QUERY_RADIUS = 1e6;

/**
 * Queries with inputs beyond `radius` of the unit cube's centre (normalized units) moved onto it, input by input
 * (the others keep their values), and the mask of queries moved; the same object when none is.
 */
export function clampFarQueries(Z: Matrix, radius: number): { Z: Matrix; moved: Uint8Array } {
  const moved = new Uint8Array(Z.rows);
  if (!(radius < Infinity)) return { Z, moved };
  const lo = 0.5 - radius,
    hi = 0.5 + radius;
  let data: Float64Array | undefined;
  for (let k = 0; k < Z.data.length; k++) {
    const v = Z.data[k];
    if (v > hi || v < lo) {
      data ??= Float64Array.from(Z.data);
      data[k] = v > hi ? hi : lo;
      moved[Math.floor(k / Z.cols)] = 1;
    }
  }
  return { Z: data ? { data, rows: Z.rows, cols: Z.cols } : Z, moved };
}

/** Clamps values in place into [lo, hi] and returns the mask of clamped positions; NaN stays NaN. */
function clampInto(values: Float64Array, lo: number, hi: number): Uint8Array {
  const mask = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v > hi) (values[i] = hi), (mask[i] = 1);
    else if (v < lo) (values[i] = lo), (mask[i] = 1);
  }
  return mask;
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
  return clampInto(values, lo, hi);
}

/** Some response beyond 2^±500 in magnitude (0 aside): its square, a variance's scale, is not a normal double. */
function extremeMagnitude(y: ArrayLike<number>): boolean {
  for (let i = 0; i < y.length; i++) {
    const a = Math.abs(y[i]);
    if (a > 2 ** 500 || (a > 0 && a < 2 ** -500)) return true;
  }
  return false;
}

/** The smallest positive normal double (2^-1022). */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * Per-row variances of y carried to the model scale, or undefined when absent or not all known (non-finite: the
 * square of a response near 1e160 overflowed; subnormal: that of one near 1e-160 underflowed).
 */
export function modelScaleVariances(y: Float64Array, yVar: ArrayLike<number> | undefined, response: ResponseScale): Float64Array | undefined {
  if (!yVar || yVar.length !== y.length) return undefined;
  const v = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    const vi = response === "log" ? yVar[i] / (y[i] * y[i]) : yVar[i];
    // A subnormal variance is the square of a value near 1e-160 (responses that small): too few digits to weigh by.
    if (!(vi >= 0 && Number.isFinite(vi)) || (vi > 0 && vi < MIN_NORMAL)) return undefined;
    v[i] = vi;
  }
  return v;
}

export abstract class Predictor<S = unknown, O extends PredictorOptions = PredictorOptions> {
  abstract readonly method: string;
  readonly options: O;
  protected scaler?: InputScaler;
  protected dim = 0;
  /** Training range of the model-scale response (log y or y): predictions are clamped to it widened. */
  private modelRange?: [number, number];
  /** Normalized training inputs (row-major, dim columns), for the trust columns; absent for models restored from old files. */
  private support?: Float64Array;
  /**
   * The last fit was given the responses' variances but could not use them because the responses lie beyond
   * 2^±500 in magnitude (their squares over- or underflow): a method that weighs by them says so in its notes.
   */
  protected variancesLost = false;
  /** Per log-scaled input, its safe range in normalized units (logInputClampBounds); computed on first use. */
  private inputBounds?: { col: number; lo: number; hi: number }[];

  constructor(options: O) {
    this.options = options;
  }

  /**
   * Queries farther than this from the data (normalized units) are predicted at this distance, flagged clamped
   * (FAR_QUERY_RADIUS); Infinity for methods whose evaluation is stable at any distance.
   */
  protected farQueryRadius(): number {
    return FAR_QUERY_RADIUS;
  }

  /** Smallest number of training points the method accepts in d dimensions. */
  protected minPoints(_d: number): number {
    return 1;
  }
  /**
   * `noise`, when given, holds each training response's known sampling variance on the model scale (fit's `yVar`
   * carried to it); predictors that do not model per-point noise ignore it.
   */
  protected abstract fitScaled(X: Matrix, y: Float64Array, noise?: Float64Array): void;
  protected abstract predictScaled(Xq: Matrix): Float64Array;
  /**
   * Predictions and, when the method knows it exactly, which queries lie outside the training inputs' convex hull
   * (Delaunay). Others leave `outside` unset and the bounding-box test of trust.ts applies.
   */
  protected predictScaledDetailed(Xq: Matrix): { values: Float64Array; outside?: Uint8Array } {
    return { values: this.predictScaled(Xq) };
  }
  /**
   * The normalized training inputs when the fitted state keeps them already (Delaunay, LSP): the model file then
   * does not repeat them as `support`.
   */
  protected storedInputs(): Float64Array | undefined {
    return undefined;
  }
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

  /**
   * `yVar` (optional): the sampling variance of each training response on the response's own scale (e.g. the
   * jackknife variance of a configuration's statistic over its runs, VariabilityMap.yVar). It reaches the method on
   * the model scale (delta method on a log response: var(log y) ≈ var(y)/y²), and only when every entry is known
   * (finite, ≥ 0); methods that do not model per-point noise ignore it.
   */
  fit(X: Matrix, y: ArrayLike<number>, yVar?: ArrayLike<number>): this {
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
    const Z = scaler.transform(X);
    const noise = modelScaleVariances(yy, yVar, this.options.response ?? "linear");
    this.variancesLost = noise === undefined && yVar !== undefined && yVar.length === yy.length && extremeMagnitude(yy);
    this.fitScaled(Z, ym, noise);
    this.support = this.storedInputs() ? undefined : Float64Array.from(Z.data);
    this.modelRange = logRangeOf(ym);
    this.scaler = scaler;
    this.inputBounds = undefined;
    return this;
  }

  predict(Xq: Matrix): Float64Array {
    return this.predictDetailed(Xq).values;
  }

  /** Predictions with, per query, whether it was clamped to the safe log range (log response only). */
  predictDetailed(Xq: Matrix): DetailedPrediction {
    const { values, clamped } = this.predictInternal(this.transformQueries(Xq));
    return { values, clamped };
  }

  private predictInternal(Z: Matrix): { values: Float64Array; clamped: Uint8Array; inputClamped: Uint8Array; outside?: Uint8Array } {
    const { Z: Znear, moved: far } = clampFarQueries(Z, this.farQueryRadius());
    const { Z: Zsafe, clamped: inputClamped } = this.clampLogInputs(Znear);
    const { values: model, outside } = this.predictScaledDetailed(Zsafe);
    if (Zsafe !== Znear) this.keepDeclined(Znear, inputClamped, model);
    for (let i = 0; i < far.length; i++) inputClamped[i] |= far[i];
    const clamped = this.modelRange ? clampPredictions(model, this.options.response ?? "linear", this.modelRange) : new Uint8Array(model.length);
    for (let i = 0; i < clamped.length; i++) clamped[i] |= inputClamped[i];
    return { values: fromModelScale(model, this.options.response ?? "linear"), clamped, inputClamped, outside };
  }

  /**
   * The queries with every log-scaled input moved into its safe range (logInputClampBounds of the training inputs),
   * and the mask of queries moved. Unchanged (same object) when the model has no log-scaled input or, restored from
   * a file without its training inputs, does not know their range.
   */
  private clampLogInputs(Z: Matrix): { Z: Matrix; clamped: Uint8Array } {
    const clamped = new Uint8Array(Z.rows);
    const bounds = this.logInputBounds();
    if (!bounds.length) return { Z, clamped };
    let data: Float64Array | undefined;
    for (const { col, lo, hi } of bounds)
      for (let i = 0; i < Z.rows; i++) {
        const v = Z.data[i * Z.cols + col];
        if (v > hi || v < lo) {
          data ??= Float64Array.from(Z.data);
          data[i * Z.cols + col] = v > hi ? hi : lo;
          clamped[i] = 1;
        }
      }
    return { Z: data ? { data, rows: Z.rows, cols: Z.cols } : Z, clamped };
  }

  /**
   * A query the method declines as it is (NaN: Delaunay beyond --max-extrapolation) stays declined when its
   * log-scaled inputs were moved nearer: the method is asked again at the moved queries' own inputs.
   */
  private keepDeclined(Z: Matrix, moved: Uint8Array, model: Float64Array): void {
    const rows: number[] = [];
    moved.forEach((m, i) => m && rows.push(i));
    const data = new Float64Array(rows.length * Z.cols);
    rows.forEach((r, k) => data.set(Z.data.subarray(r * Z.cols, (r + 1) * Z.cols), k * Z.cols));
    const original = this.predictScaledDetailed({ data, rows: rows.length, cols: Z.cols }).values;
    rows.forEach((r, k) => {
      if (Number.isNaN(original[k])) model[r] = NaN;
    });
  }

  private logInputBounds(): { col: number; lo: number; hi: number }[] {
    if (this.inputBounds) return this.inputBounds;
    const support = this.support ?? this.storedInputs();
    const log2 = this.scaler?.state.log2 ?? [];
    const d = this.dim;
    const bounds: { col: number; lo: number; hi: number }[] = [];
    if (support && support.length >= d && d > 0)
      for (const col of log2) {
        let lo = Infinity,
          hi = -Infinity;
        for (let i = col; i < support.length; i += d) {
          if (support[i] < lo) lo = support[i];
          if (support[i] > hi) hi = support[i];
        }
        const [a, b] = logInputClampBounds(lo, hi);
        bounds.push({ col, lo: a, hi: b });
      }
    return (this.inputBounds = bounds);
  }

  /**
   * Predictions with how far to trust each (ts/predict/trust.ts): extrapolated (Delaunay: outside the hull;
   * others: outside the training bounding box), distance to the nearest training point in normalized input units,
   * and clamped (negative → 0 with `nonNegative`, or cut to the safe log range). A model restored from a file
   * written before models carried their training inputs tests the normalization box ([0,1] per input, the map's
   * range for `fit`/`refit` models) and reports distance NaN.
   */
  predictTrusted(Xq: Matrix, options: TrustOptions = {}): TrustedPrediction {
    const Z = this.transformQueries(Xq);
    const { values, clamped: logClamped, inputClamped, outside } = this.predictInternal(Z);
    const negative = options.nonNegative ? clampNegative(values) : new Uint8Array(values.length);
    const clamped = new Uint8Array(values.length);
    for (let i = 0; i < clamped.length; i++) clamped[i] = negative[i] | logClamped[i];
    let extrapolated: Uint8Array;
    let distance: Float64Array;
    const support = this.support ?? this.storedInputs();
    if (support) {
      const train: Matrix = { data: support, rows: support.length / this.dim, cols: this.dim };
      extrapolated = outside ?? outsideBox(train, Z);
      distance = options.distance === false ? new Float64Array(Z.rows).fill(NaN) : nearestDistance(train, Z);
    } else {
      const unit = this.scaler!.state.kind === "unit";
      extrapolated = outside ?? (unit ? outsideBounds(new Float64Array(this.dim), new Float64Array(this.dim).fill(1), Z) : new Uint8Array(Z.rows));
      distance = new Float64Array(Z.rows).fill(NaN);
    }
    return { values, extrapolated, distance, clamped, negative, logClamped, inputClamped };
  }

  /** The training range of the model-scale response (log y or y) the predictions are clamped to (widened), if any. */
  protected get clampRange(): readonly [number, number] | undefined {
    return this.modelRange;
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
      ...(this.modelRange
        ? this.options.response === "log"
          ? { logRange: [this.modelRange[0], this.modelRange[1]] as [number, number] }
          : { range: [this.modelRange[0], this.modelRange[1]] as [number, number] }
        : {}),
      state: this.stateJSON(),
      ...(this.support ? { support: Array.from(this.support) } : {}),
    };
  }

  /** Restores a fitted model from toJSON() output; used by the registry's fromJSON. */
  restore(json: ModelJSON<S>): this {
    if (json.format !== "varmap-model" || json.method !== this.method)
      throw new VarmapError("E_MODEL_FORMAT", `not a varmap ${this.method} model`, { remedy: "pass the JSON written by toJSON() or `varmap fit`" });
    this.scaler = InputScaler.fromJSON(json.inputs);
    this.dim = json.dim;
    // Models written before the clamp existed carry no range: they predict as they did.
    const range = json.response === "log" ? json.logRange : json.range;
    this.modelRange = range ? [range[0], range[1]] : undefined;
    this.support = Array.isArray(json.support) && json.support.length % Math.max(1, json.dim) === 0 ? Float64Array.from(json.support) : undefined;
    this.inputBounds = undefined;
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
