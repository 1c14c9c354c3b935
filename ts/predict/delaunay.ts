// Delaunay interpolation (seed 000 sec. 5.3; DelaunaySparse, ACM TOMS 1012): the prediction at a query is the
// barycentric combination of the responses at the vertices of the Delaunay simplex containing it. Outside the
// convex hull of the training inputs the query is projected onto the hull and interpolated there; locate()
// reports that and the distance. The kernel (ts/backend/kernels/delaunay.ts) finds simplices without building
// the whole triangulation and breaks cospherical ties (grids) by a fixed index-keyed perturbation, so answers
// are the same on both backends and whatever the batching.
import { VarmapError } from "../errors.js";
import { delaunayLocate, QueryStatus, type Location } from "../backend/kernels/delaunay.js";
import { Predictor, type PredictorOptions, type TrustedPrediction, type TrustOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";

export interface DelaunayOptions extends PredictorOptions {
  /** A barycentric weight >= −eps counts as inside a simplex (default 1e-10). */
  eps?: number;
  /**
   * Largest distance from the convex hull (in normalized input units, the unit cube by default) at which a query
   * is still extrapolated; farther queries are located (status TOO_FAR) but predict NaN. Default: no limit.
   */
  maxExtrapolation?: number;
}

export interface DelaunayState {
  /** Normalized training inputs, row-major n×d, in training order (ties are broken by this order). */
  X: number[];
  y: number[];
}

export interface DelaunayLocation extends Omit<Location, "flips" | "steps"> {
  /** Per query: true when the query lies outside the hull and was located at its projection. */
  extrapolated: boolean[];
}

export { QueryStatus };

export class Delaunay extends Predictor<DelaunayState, DelaunayOptions> {
  readonly method = "delaunay";
  /** No far-query move (FAR_QUERY_RADIUS): its projection onto the hull is stable at any distance (and --max-extrapolation declines far queries). */
  protected override farQueryRadius(): number {
    return Infinity;
  }
  private X = new Float64Array(0);
  private y = new Float64Array(0);

  constructor(options: DelaunayOptions = {}) {
    super(options);
    const { eps, maxExtrapolation } = options;
    if (eps !== undefined && !(eps >= 0 && Number.isFinite(eps)))
      throw new VarmapError("E_OPTION", `delaunay: eps must be a finite number >= 0, got ${eps}`, { remedy: "use e.g. 1e-10" });
    if (maxExtrapolation !== undefined && !(maxExtrapolation >= 0))
      throw new VarmapError("E_OPTION", `delaunay: maxExtrapolation must be >= 0, got ${maxExtrapolation}`, {
        remedy: "give a distance in normalized input units (the unit cube), or leave it unset for no limit",
      });
  }

  protected override minPoints(d: number): number {
    return d + 1;
  }

  /** Set by fitPredictTrusted: the data checks are left to the kernel call that locates the queries (one call, not two). */
  private checksDeferred = false;

  protected fitScaled(X: Matrix, y: Float64Array): void {
    // Locating no query still checks the data (duplicates, a lower-dimensional subspace) with coded errors.
    if (!this.checksDeferred) delaunayLocate(this.backend, X.data, new Float64Array(0), X.cols, this.kernelOptions());
    this.X = Float64Array.from(X.data);
    this.y = Float64Array.from(y);
  }

  protected predictScaled(Xq: Matrix): Float64Array {
    return this.predictScaledDetailed(Xq).values;
  }

  /** One kernel call gives both the values and the exact hull test (a query not INSIDE was projected onto the hull). */
  protected override predictScaledDetailed(Xq: Matrix): { values: Float64Array; outside: Uint8Array } {
    const loc = delaunayLocate(this.backend, this.X, Xq.data, Xq.cols, this.kernelOptions());
    // A plain loop: Uint8Array.from with a mapping function is several times slower (cv calls this per split).
    const outside = new Uint8Array(loc.status.length);
    for (let i = 0; i < outside.length; i++) outside[i] = loc.status[i] !== QueryStatus.INSIDE ? 1 : 0;
    return { values: this.interpolate(loc, Xq.rows, Xq.cols), outside };
  }

  /**
   * fit(X, y).predictTrusted(Xq) in one kernel call (cross-validation's unit): the kernel checks the data before it
   * locates any query, so a data error is the one fit() would throw (thrown here), and the predictions are
   * fit-then-predict's own.
   */
  fitPredictTrusted(X: Matrix, y: ArrayLike<number>, Xq: Matrix, options: TrustOptions = {}): TrustedPrediction {
    this.checksDeferred = true;
    try {
      this.fit(X, y);
    } finally {
      this.checksDeferred = false;
    }
    try {
      return this.predictTrusted(Xq, options);
    } catch (e) {
      // Not a usable model: the data may not have passed the checks fit() makes.
      this.X = new Float64Array(0);
      this.y = new Float64Array(0);
      throw e;
    }
  }

  /** The Delaunay simplex, barycentric weights, status and hull distance of every query (one kernel call). */
  locate(Xq: Matrix): DelaunayLocation {
    const Z = this.transformQueries(Xq);
    const { simplices, weights, status, rnorm } = delaunayLocate(this.backend, this.X, Z.data, Z.cols, this.kernelOptions());
    return { simplices, weights, status, rnorm, extrapolated: Array.from(status, (s) => s !== QueryStatus.INSIDE) };
  }

  protected override storedInputs(): Float64Array {
    return this.X;
  }

  protected stateJSON(): DelaunayState {
    return { X: Array.from(this.X), y: Array.from(this.y) };
  }

  protected loadState(state: DelaunayState): void {
    if (!state || !Array.isArray(state.X) || !Array.isArray(state.y) || state.X.length !== state.y.length * this.dim)
      throw new VarmapError("E_MODEL_FORMAT", "delaunay model state is malformed", { remedy: "pass the JSON written by toJSON() or `varmap fit`" });
    this.X = Float64Array.from(state.X);
    this.y = Float64Array.from(state.y);
  }

  private kernelOptions() {
    return { eps: this.options.eps, maxExtrapolation: this.options.maxExtrapolation };
  }

  private interpolate(loc: Location, rows: number, d: number): Float64Array {
    const out = new Float64Array(rows);
    const m = d + 1;
    for (let i = 0; i < rows; i++) {
      if (loc.status[i] === QueryStatus.TOO_FAR) {
        out[i] = NaN;
        continue;
      }
      let s = 0;
      for (let k = 0; k < m; k++) s += loc.weights[i * m + k] * this.y[loc.simplices[i * m + k]];
      out[i] = s;
    }
    return out;
  }
}
