// Smoothing polyharmonic spline ("rbf", issue 16): f(x) = Σ c_i φ(‖x − x_i‖) + a_0 + Σ_j a_j x_j, fitted by
//
//   (K + λ I) c + P a = y,   Pᵀ c = 0,      K_ij = φ(‖x_i − x_j‖), P = [1, X],
//
// the minimizer of Σ (y_i − f(x_i))² + λ · (bending energy). φ is the thin-plate kernel r² log r (default) or
// r³: both are conditionally positive definite of order 2 in every dimension, so a linear tail makes the system
// uniquely solvable for distinct points (r² log r is the classical thin-plate spline, the one the scipy
// comparison used; r³ is offered as the smoother-near-the-data alternative).
//
// The smoothing λ is chosen by generalized cross-validation from a log-spaced grid, or fixed (a number, e.g. the
// sampling variance of the modelled response: 1/(2(R−1)) for log sd from R runs, which `runs: R` sets). The
// projected kernel B = Q₂ᵀ K Q₂ (Q₂: an orthonormal basis of the complement of span P, from a Householder QR of
// P; the `rbfgram` kernel) is reduced once to tridiagonal form T = Hᵀ B H (the `symtrid` kernel, about (4/3) m³
// flops, no eigenvectors; issue 46), after which every λ costs O(m): with w = Hᵀ Q₂ᵀ y and (T + λI) u = w,
//   residual = λ Q₂ H u,   tr(I − A_λ) = λ tr (T + λI)⁻¹ (= Σ λ / (μ_i + λ)),   GCV(λ) = n · RSS / tr²,
// the trace from the forward and backward LDLᵀ pivots of T + λI; the spectrum's extremes and Σ|μ| (for the
// floor and the grid) from Sturm bisection. Before issue 46 a full eigendecomposition gave the same numbers.
// Stability: λ is never below the value that keeps (μ_max + λ)/(μ_min + λ) ≤ 1e12, so near-duplicate inputs
// (two frequencies 0.04 % apart on the MOANA grid) cannot produce a garbage solve; when a requested λ is raised
// for that reason, or an input is constant (its linear term dropped), the model records why in `notes`.
//
// Above RBF_MAX_POINTS training points (or with `local: true`) the local variant of rbf-local.ts applies: exact
// splines on overlapping patches of RBF_PATCH_POINTS points, each with its own λ chosen the same way, blended by a
// partition of unity: linear in n instead of cubic.
import { applyQ, applyQt, rbfgram, symtrid } from "../backend/kernels/symeig.js";
import { patchLayout, patchWeights } from "./rbf-local.js";
import { VarmapError } from "../errors.js";
import { Predictor, type PredictorOptions } from "./estimator.js";
import type { Matrix } from "./matrix.js";

export type RbfKernel = "tps" | "cubic";

export interface RbfOptions extends PredictorOptions {
  /** φ: "tps" (r² log r, default) or "cubic" (r³). */
  kernel?: RbfKernel;
  /** "gcv" (default): λ by generalized cross-validation; a number ≥ 0: that λ (on the model's response scale). */
  smoothing?: "gcv" | number;
  /** Runs per configuration: fixes λ = 1/(2(runs − 1)), the sampling variance of a log sd (log response only). */
  runs?: number;
  /**
   * Also choose one scale per input (a factor in [1/16, 16] on the normalized input, by greedy doubling/halving)
   * by the same GCV score: an anisotropic spline. About 10 to 20 fits instead of one; default false.
   */
  anisotropic?: boolean;
  /**
   * The local variant (rbf-local.ts): true always, false never (more than RBF_MAX_POINTS points are then refused);
   * default: only above RBF_MAX_POINTS training points.
   */
  local?: boolean;
}

/** One patch of the local variant: its centre and support radius, and its spline (fields as RbfState's). */
export interface RbfPatch {
  centre: number[];
  radius: number;
  centers: number[];
  c: number[];
  a: number[];
  lambda: number;
}

export interface RbfState {
  kernel: RbfKernel;
  /** The λ used. */
  lambda: number;
  /** GCV score at λ. */
  gcv: number;
  /** Scale of each normalized input (all 1 unless anisotropic). */
  scales: number[];
  /** Training inputs (normalized), row-major. */
  centers: number[];
  /** Kernel weights, one per center (in units of the response × yScale). */
  c: number[];
  /** Tail: intercept, then one slope per input (0 for a dropped input), in units of the response × yScale. */
  a: number[];
  /**
   * The power of two the responses were multiplied by for the fit (absent: 1, models written before it). The
   * coefficients stay on that scale, so that responses near 1e±300 cannot overflow them (an Infinity would not
   * survive JSON); predictions are divided by it.
   */
  yScale?: number;
  /** Why the fit deviated from what was asked (a dropped constant input, a raised λ); empty when it did not. */
  notes: string[];
  /** The local variant's patches (centers, c and a above are then empty; lambda is the patches' median, gcv their mean). */
  patches?: RbfPatch[];
}

/** Largest training set of the exact (dense) solve. */
export const RBF_MAX_POINTS = 4000;
/** Largest condition number (μ_max + λ)/(μ_min + λ) a solve may have. */
export const RBF_MAX_CONDITION = 1e12;
/** The GCV grid: λ = mean eigenvalue × 10^k, k = −12 … 2 in steps of 1/8. */
const GCV_DECADES: [number, number, number] = [-12, 2, 8];

function phi(kernel: RbfKernel, r: number): number {
  if (kernel === "cubic") return r * r * r;
  return r > 0 ? r * r * Math.log(r) : 0;
}

/** The largest |φ(r)| for r up to the diagonal √d of the unit cube the inputs are normalized to. */
function phiReference(kernel: RbfKernel, d: number): number {
  const diag = Math.sqrt(Math.max(d, 1));
  return Math.max(Math.abs(phi(kernel, diag)), Math.abs(phi(kernel, Math.exp(-0.5))), 1e-3);
}

export class Rbf extends Predictor<RbfState, RbfOptions> {
  readonly method = "rbf";
  private state?: RbfState;
  private centers: Float64Array = new Float64Array(0);
  private c: Float64Array = new Float64Array(0);
  private a: Float64Array = new Float64Array(0);
  private yScale = 1;
  private patches?: { centres: Float64Array; radii: Float64Array; fits: { centers: Float64Array; c: Float64Array; a: Float64Array; lambda: number }[] };

  constructor(options: RbfOptions = {}) {
    super(options);
    const { kernel, smoothing, runs, anisotropic, local } = options;
    if (local !== undefined && typeof local !== "boolean")
      throw new VarmapError("E_OPTION", `rbf: local must be true or false, got ${String(local)}`, { remedy: "use local: true, or leave it out (auto)" });
    if (anisotropic !== undefined && typeof anisotropic !== "boolean")
      throw new VarmapError("E_OPTION", `rbf: anisotropic must be true or false, got ${String(anisotropic)}`, { remedy: "use anisotropic: true" });
    if (kernel !== undefined && kernel !== "tps" && kernel !== "cubic")
      throw new VarmapError("E_OPTION", `rbf: kernel must be tps or cubic, got ${String(kernel)}`, { remedy: 'use kernel: "tps"' });
    if (smoothing !== undefined && smoothing !== "gcv" && !(typeof smoothing === "number" && Number.isFinite(smoothing) && smoothing >= 0))
      throw new VarmapError("E_OPTION", `rbf: smoothing must be "gcv" or a number >= 0, got ${String(smoothing)}`, {
        remedy: 'use smoothing: "gcv" or e.g. 0.01',
      });
    if (runs !== undefined) {
      if (!Number.isInteger(runs) || runs < 2)
        throw new VarmapError("E_OPTION", `rbf: runs must be an integer >= 2, got ${runs}`, { remedy: "give the number of runs per configuration, e.g. 40" });
      if (smoothing !== undefined) throw new VarmapError("E_OPTION", "rbf: runs and smoothing both fix λ", { remedy: "give one of them" });
      if (options.response !== "log")
        throw new VarmapError("E_OPTION", "rbf: runs sets λ to the sampling variance of a log sd, which needs a log response", {
          remedy: "add --log-response, or give --rbf-smoothing",
        });
    }
  }

  protected override minPoints(d: number): number {
    return d + 2;
  }

  private get kernelName(): RbfKernel {
    return this.options.kernel ?? "tps";
  }

  protected fitScaled(X: Matrix, y: Float64Array): void {
    const d = X.cols;
    // Responses are fitted divided by a power of 2 near their magnitude (exact): GCV sums of squares of responses
    // near 1e-300 or 1e300 would under- or overflow.
    let ymax = 0;
    for (const v of y) ymax = Math.max(ymax, Math.abs(v));
    const yScale = ymax > 0 ? 2 ** Math.min(1023, Math.max(-1022, -Math.round(Math.log2(ymax)))) : 1;
    if (yScale !== 1) y = y.map((v) => v * yScale);
    this.yScale = yScale;
    if (this.options.local ?? X.rows > RBF_MAX_POINTS) {
      this.fitLocal(X, y);
      return;
    }
    this.patches = undefined;
    let scales = new Array<number>(d).fill(1);
    let best = this.solve(X, y, scales);
    if (this.options.anisotropic) {
      // Greedy: per input, halve or double its scale while the GCV score improves (two passes over the inputs).
      for (let pass = 0; pass < 2; pass++)
        for (let j = 0; j < d; j++)
          for (const f of [0.5, 2]) {
            for (;;) {
              const trial = scales.slice();
              trial[j] *= f;
              if (trial[j] < 1 / 16 || trial[j] > 16) break;
              const fit = this.solve(X, y, trial);
              if (!(fit.gcv < best.gcv)) break;
              (best = fit), (scales = trial);
            }
          }
    }
    this.centers = best.centers;
    this.c = best.c;
    this.a = best.a;
    // The GCV score is reported on the response's own scale (λ is scale-free: the fit is linear in y).
    best.gcv /= yScale * yScale;
    this.state = { kernel: this.kernelName, lambda: best.lambda, gcv: best.gcv, scales, centers: [], c: [], a: [], notes: best.notes };
  }

  /** One fit on the inputs multiplied column-wise by `scales`. */
  private solve(
    X0: Matrix,
    y: Float64Array,
    scales: number[],
  ): { centers: Float64Array; c: Float64Array; a: Float64Array; lambda: number; gcv: number; notes: string[] } {
    const n = X0.rows,
      d = X0.cols;
    const X: Matrix = scales.every((v) => v === 1) ? X0 : { ...X0, data: X0.data.map((v, i) => v * scales[i % d]) };
    if (n > RBF_MAX_POINTS)
      throw new VarmapError("E_TOO_MANY_POINTS", `rbf: the exact solve takes at most ${RBF_MAX_POINTS} training points, got ${n}`, {
        remedy: "leave the local variant on (drop local: false / --rbf-local no), or use another method (mars, lsp, delaunay)",
      });
    const notes: string[] = [];
    const kernel = this.kernelName;

    // Householder QR of the tail P = [1, X]; a column (nearly) in the span of the previous ones is dropped.
    const p = d + 1;
    const P = new Float64Array(n * p);
    for (let i = 0; i < n; i++) {
      P[i * p] = 1;
      for (let j = 0; j < d; j++) P[i * p + j + 1] = X.data[i * d + j];
    }
    const reflectors: { v: Float64Array; k: number }[] = [];
    const kept: number[] = [];
    const R: number[][] = [];
    for (let j = 0; j < p; j++) {
      const col = Float64Array.from({ length: n }, (_, i) => P[i * p + j]);
      const norm0 = Math.hypot(...col);
      for (const h of reflectors) applyReflector(h.v, h.k, col);
      const k = reflectors.length;
      let s = 0;
      for (let i = k; i < n; i++) s += col[i] * col[i];
      const norm = Math.sqrt(s);
      if (k >= n - 1 || !(norm > 1e-10 * Math.max(norm0, 1e-300))) {
        notes.push(j === 0 ? "no intercept (no training points)" : `input ${j - 1} is constant (or collinear) on the training set: its linear term is dropped`);
        continue;
      }
      const alpha = col[k] >= 0 ? -norm : norm;
      const v = new Float64Array(n);
      for (let i = k; i < n; i++) v[i] = col[i];
      v[k] -= alpha;
      const vn = Math.sqrt(v.reduce((t, x) => t + x * x, 0));
      for (let i = k; i < n; i++) v[i] /= vn;
      reflectors.push({ v, k });
      kept.push(j);
      R.push(Array.from(col.subarray(0, k)).concat([alpha]));
    }
    const q = reflectors.length;
    const m = n - q;

    // K (kept: the tail's residual needs K c) and B, the trailing m × m block of Qᵀ K Q (lower triangle: all that
    // symtrid reads), through the compact form Q = H_1 ⋯ H_q = I − V T Vᵀ (V: the unit reflectors as columns, T
    // upper triangular): Qᵀ K Q = K − A Vᵀ − V Aᵀ with A = K V T − ½ V Tᵀ (Vᵀ K V) T (the `rbfgram` kernel).
    const V = new Float64Array(n * q);
    reflectors.forEach((h, t) => {
      for (let i = h.k; i < n; i++) V[i * q + t] = h.v[i];
    });
    const { K, B } = rbfgram(this.backend, X.data, n, d, kernel === "cubic", V, q);
    const qy = Float64Array.from(y);
    for (const h of reflectors) applyReflector(h.v, h.k, qy);
    // T = Q_Tᵀ B Q_T tridiagonal (the `symtrid` kernel): every λ of the grid then costs O(m) (tridiagonalFit).
    const tri = symtrid(this.backend, B, m, true);
    const z = qy.slice(q);
    applyQt(tri, z);
    const { min: muMin, max: muMaxSigned, absSum: muSum } = tridiagonalSpectrum(tri.d, tri.e);

    // λ: fixed or by GCV, never below the conditioning floor.
    const muMax = m === 0 ? 0 : Math.max(Math.abs(muMaxSigned), Math.abs(muMin));
    // The condition is taken against the kernel's own magnitude on the unit cube as well as against μ_max: when
    // the training points nearly coincide, every μ is ~0 on them while φ at a query between them is not, and a
    // λ relative to μ_max alone lets c = z/(μ + λ) explode away from the data (values 1e6× the data and more).
    const reference = phiReference(kernel, d);
    const floor = m === 0 ? 0 : Math.max(0, (Math.max(muMax, reference) - RBF_MAX_CONDITION * muMin) / (RBF_MAX_CONDITION - 1));
    const requested = this.options.runs !== undefined ? 1 / (2 * (this.options.runs - 1)) : (this.options.smoothing ?? "gcv");
    let lambda: number,
      gcv = 0;
    if (requested === "gcv") {
      const scale = m > 0 ? muSum / m : 1;
      let best = Infinity,
        bestLambda = floor;
      const [k0, k1, steps] = GCV_DECADES;
      const candidates = [floor];
      for (let k = k0 * steps; k <= k1 * steps; k++) candidates.push(scale * 10 ** (k / steps));
      // Degenerate points (every μ far below φ's magnitude): λ up to the kernel's own magnitude (see the floor).
      for (let k = 0; k <= k1 * steps; k++) candidates.push(reference * 10 ** (k / steps));
      candidates.sort((u, v) => v - u);
      // Largest λ first, a smaller one only when clearly better: a flat score (the kernel adds nothing on these
      // points) means the smoothest fit, not the one that a rounding error favoured.
      for (const lam of candidates) {
        if (!(lam >= floor) || lam === 0) continue;
        const { rss, tr } = tridiagonalFit(tri.d, tri.e, z, lam);
        const score = tr > 0 ? (n * rss) / (tr * tr) : Infinity;
        if (score < best * (1 - 1e-9)) (best = score), (bestLambda = lam);
      }
      lambda = bestLambda;
      gcv = Number.isFinite(best) ? best : 0;
    } else {
      lambda = requested;
      if (lambda < floor) {
        notes.push(`smoothing raised from ${requested} to ${floor}: the system is ill-conditioned (near-duplicate inputs)`);
        lambda = floor;
      }
      const { rss, tr } = tridiagonalFit(tri.d, tri.e, z, lambda);
      gcv = tr > 0 ? (n * rss) / (tr * tr) : 0;
    }

    // c = Q_P [0; Q_T (T + λ I)⁻¹ z]; the tail from R a = (Q_Pᵀ (y − K c − λ c))[:q].
    const c = new Float64Array(n);
    if (m > 0) {
      const u = new Float64Array(m);
      tridiagonalFit(tri.d, tri.e, z, lambda, u);
      if (!u.every(Number.isFinite))
        throw new VarmapError("E_RBF_ILL_CONDITIONED", `rbf: the solve at λ = ${lambda} is singular`, {
          remedy: "give a larger --rbf-smoothing, or remove duplicate configurations",
        });
      applyQ(tri, u);
      c.set(u, q);
    }
    for (let r = reflectors.length - 1; r >= 0; r--) applyReflector(reflectors[r].v, reflectors[r].k, c);
    const resid = Float64Array.from(y);
    for (let i = 0; i < n; i++) {
      let s = lambda * c[i];
      for (let j = 0; j < n; j++) s += K[i * n + j] * c[j];
      resid[i] -= s;
    }
    for (const h of reflectors) applyReflector(h.v, h.k, resid);
    const coefKept = new Float64Array(q);
    for (let k = q - 1; k >= 0; k--) {
      let s = resid[k];
      for (let t = k + 1; t < q; t++) s -= R[t][k] * coefKept[t];
      coefKept[k] = s / R[k][k];
    }
    const a = new Float64Array(p);
    kept.forEach((j, k) => (a[j] = coefKept[k]));
    if (!c.every(Number.isFinite) || !a.every(Number.isFinite))
      throw new VarmapError("E_RBF_ILL_CONDITIONED", "rbf: the spline coefficients are not finite", {
        remedy: "check the inputs for extreme values, or give a larger --rbf-smoothing",
      });

    return { centers: Float64Array.from(X.data), c, a, lambda, gcv, notes };
  }

  /** The local variant: one exact spline per patch (λ chosen per patch as the global fit chooses it). */
  private fitLocal(X: Matrix, y: Float64Array): void {
    const d = X.cols;
    const layout = patchLayout(this.backend, X);
    const fits: { centers: Float64Array; c: Float64Array; a: Float64Array; lambda: number }[] = [];
    const lambdas: number[] = [];
    let gcvSum = 0;
    const notes = new Set<string>();
    const scales = new Array<number>(d).fill(1);
    for (let p = 0; p < layout.radii.length; p++) {
      const rows = layout.members.subarray(p * layout.m, (p + 1) * layout.m);
      const Xp: Matrix = { data: new Float64Array(layout.m * d), rows: layout.m, cols: d };
      const yp = new Float64Array(layout.m);
      rows.forEach((r, i) => {
        Xp.data.set(X.data.subarray(r * d, (r + 1) * d), i * d);
        yp[i] = y[r];
      });
      const fit = this.solve(Xp, yp, scales);
      fits.push({ centers: fit.centers, c: fit.c, a: fit.a, lambda: fit.lambda });
      lambdas.push(fit.lambda);
      gcvSum += fit.gcv;
      for (const note of fit.notes) notes.add(`patch ${p}: ${note}`);
    }
    if (this.options.anisotropic) notes.add("anisotropic scales are not searched by the local variant: every input keeps scale 1");
    this.patches = { centres: layout.centres, radii: layout.radii, fits };
    this.centers = new Float64Array(0);
    this.c = new Float64Array(0);
    this.a = new Float64Array(0);
    const sorted = lambdas.slice().sort((u, v) => u - v);
    this.state = {
      kernel: this.kernelName,
      lambda: sorted[Math.floor(sorted.length / 2)],
      gcv: gcvSum / lambdas.length / (this.yScale * this.yScale),
      scales,
      centers: [],
      c: [],
      a: [],
      notes: [
        `local variant: ${fits.length} patches of ${layout.m} points (partition of unity, each λ by ${this.options.runs !== undefined ? "runs" : (this.options.smoothing ?? "gcv")})`,
        ...notes,
      ],
    };
  }

  /** The value of the spline (centers, c, a) at row r of Xq (normalized inputs, the fit's response scale). */
  private evaluate(kernel: RbfKernel, centers: Float64Array, c: Float64Array, a: Float64Array, Xq: Float64Array, d: number, r: number): number {
    let s = a[0];
    for (let t = 0; t < d; t++) s += a[t + 1] * Xq[r * d + t];
    for (let i = 0; i < c.length; i++) {
      let e2 = 0;
      for (let t = 0; t < d; t++) {
        const e = Xq[r * d + t] - centers[i * d + t];
        e2 += e * e;
      }
      s += c[i] * phi(kernel, Math.sqrt(e2));
    }
    return s;
  }

  protected predictScaled(Xq0: Matrix): Float64Array {
    if (this.patches) {
      const { centres, radii, fits } = this.patches;
      const d = Xq0.cols,
        kernel = this.kernelName;
      const out = new Float64Array(Xq0.rows);
      for (let r = 0; r < Xq0.rows; r++) {
        let s = 0;
        for (const { patch, weight } of patchWeights(centres, radii, d, Xq0.data, r)) {
          const f = fits[patch];
          s += weight * this.evaluate(kernel, f.centers, f.c, f.a, Xq0.data, d, r);
        }
        out[r] = s / this.yScale;
      }
      return out;
    }
    const d = Xq0.cols,
      n = this.c.length,
      kernel = this.kernelName;
    const scales = this.state!.scales;
    const Xq: Matrix = scales.every((v) => v === 1) ? Xq0 : { ...Xq0, data: Xq0.data.map((v, i) => v * scales[i % d]) };
    const out = new Float64Array(Xq.rows);
    for (let r = 0; r < Xq.rows; r++) {
      let s = this.a[0];
      for (let t = 0; t < d; t++) s += this.a[t + 1] * Xq.data[r * d + t];
      for (let i = 0; i < n; i++) {
        let e2 = 0;
        for (let t = 0; t < d; t++) {
          const e = Xq.data[r * d + t] - this.centers[i * d + t];
          e2 += e * e;
        }
        s += this.c[i] * phi(kernel, Math.sqrt(e2));
      }
      // Exact (a power of two); a prediction beyond the double range becomes ±Infinity, clamped by the estimator.
      out[r] = s / this.yScale;
    }
    return out;
  }

  /** λ used, its GCV score and the notes of the fit. */
  get smoothing(): { lambda: number; gcv: number; scales: number[]; notes: string[] } {
    if (!this.state) throw new VarmapError("E_NOT_FITTED", "this rbf model has not been fitted", { remedy: "call fit(X, y) first" });
    return { lambda: this.state.lambda, gcv: this.state.gcv, scales: [...this.state.scales], notes: [...this.state.notes] };
  }

  protected stateJSON(): RbfState {
    const s = this.state!;
    const patches = this.patches;
    return {
      kernel: s.kernel,
      lambda: s.lambda,
      gcv: s.gcv,
      scales: [...s.scales],
      centers: Array.from(this.centers),
      c: Array.from(this.c),
      a: Array.from(this.a),
      ...(this.yScale === 1 ? {} : { yScale: this.yScale }),
      notes: [...s.notes],
      ...(patches
        ? {
            patches: patches.fits.map((f, p) => ({
              centre: Array.from(patches.centres.subarray(p * this.dim, (p + 1) * this.dim)),
              radius: patches.radii[p],
              centers: Array.from(f.centers),
              c: Array.from(f.c),
              a: Array.from(f.a),
              lambda: f.lambda,
            })),
          }
        : {}),
    };
  }

  protected loadState(state: RbfState): void {
    this.state = { ...state, scales: [...state.scales], notes: [...state.notes] };
    this.centers = Float64Array.from(state.centers);
    this.c = Float64Array.from(state.c);
    this.a = Float64Array.from(state.a);
    this.yScale = state.yScale ?? 1;
    const finite = (xs: unknown) => Array.isArray(xs) && xs.every((v) => typeof v === "number" && Number.isFinite(v));
    if (!(this.yScale > 0) || !Number.isFinite(this.yScale) || !finite(state.c) || !finite(state.a) || !finite(state.centers))
      throw new VarmapError("E_MODEL_FORMAT", "rbf model: a coefficient, center or yScale is not a finite number", {
        remedy: "pass the JSON written by toJSON() or `varmap fit`, unedited",
      });
    this.patches = undefined;
    if (state.patches !== undefined) {
      const d = this.dim;
      const ok =
        Array.isArray(state.patches) &&
        state.patches.length > 0 &&
        state.patches.every(
          (p) =>
            finite(p.centre) &&
            p.centre.length === d &&
            typeof p.radius === "number" &&
            p.radius >= 0 &&
            finite(p.centers) &&
            finite(p.c) &&
            finite(p.a) &&
            p.centers.length === p.c.length * d &&
            p.a.length === d + 1,
        );
      if (!ok)
        throw new VarmapError("E_MODEL_FORMAT", "rbf model: a patch of the local variant is malformed", {
          remedy: "pass the JSON written by toJSON() or `varmap fit`, unedited",
        });
      this.patches = {
        centres: Float64Array.from(state.patches.flatMap((p) => p.centre)),
        radii: Float64Array.from(state.patches, (p) => p.radius),
        fits: state.patches.map((p) => ({ centers: Float64Array.from(p.centers), c: Float64Array.from(p.c), a: Float64Array.from(p.a), lambda: p.lambda })),
      };
    }
  }
}

/** x ← (I − 2 v vᵀ) x for a unit v supported on rows k…n−1. */
function applyReflector(v: Float64Array, k: number, x: Float64Array): void {
  let s = 0;
  for (let i = k; i < x.length; i++) s += v[i] * x[i];
  s *= 2;
  for (let i = k; i < x.length; i++) x[i] -= s * v[i];
}

/**
 * The GCV pieces of (T + λ I) u = w for a symmetric tridiagonal T (diagonal d, subdiagonal e[i] = T[i][i−1]) with
 * T + λ I positive definite: rss = λ² ‖u‖² (the residual sum of squares of the spline, ‖λ (B + λI)⁻¹ z‖²) and
 * tr = λ · trace (T + λI)⁻¹ (= tr(I − A_λ) = Σ λ / (μ_i + λ)). O(m): forward and backward LDLᵀ pivots, whose
 * "twisted" combination γ_i gives the diagonal of the inverse, 1/γ_i. u (optional) receives the solution.
 */
export function tridiagonalFit(d: Float64Array, e: Float64Array, w: Float64Array, lambda: number, u?: Float64Array): { rss: number; tr: number } {
  const m = d.length;
  if (m === 0) return { rss: 0, tr: 0 };
  const fwd = new Float64Array(m),
    bwd = new Float64Array(m),
    x = u ?? new Float64Array(m);
  // Forward: T + λI = L D Lᵀ, L unit lower bidiagonal (l_i = e_i / D_{i−1}); solve L D y = w on the way.
  fwd[0] = d[0] + lambda;
  x[0] = w[0];
  for (let i = 1; i < m; i++) {
    const l = e[i] / fwd[i - 1];
    fwd[i] = d[i] + lambda - l * e[i];
    x[i] = w[i] - l * x[i - 1];
  }
  // Back substitution: Lᵀ u = D⁻¹ y.
  x[m - 1] /= fwd[m - 1];
  for (let i = m - 2; i >= 0; i--) x[i] = x[i] / fwd[i] - (e[i + 1] / fwd[i]) * x[i + 1];
  // Backward pivots (T + λI = U D' Uᵀ from the bottom); γ_i = fwd_i − e_{i+1}² / bwd_{i+1}.
  bwd[m - 1] = d[m - 1] + lambda;
  for (let i = m - 2; i >= 0; i--) bwd[i] = d[i] + lambda - (e[i + 1] * e[i + 1]) / bwd[i + 1];
  let trInv = 1 / fwd[m - 1],
    norm2 = x[m - 1] * x[m - 1];
  for (let i = 0; i < m - 1; i++) {
    trInv += 1 / (fwd[i] - (e[i + 1] * e[i + 1]) / bwd[i + 1]);
    norm2 += x[i] * x[i];
  }
  return { rss: lambda * lambda * norm2, tr: lambda * trInv };
}

/** Number of eigenvalues of the symmetric tridiagonal (d, e) below x (Sturm sequence). */
function countBelow(d: Float64Array, e: Float64Array, x: number): number {
  let count = 0,
    q = 1;
  for (let i = 0; i < d.length; i++) {
    q = d[i] - x - (i > 0 ? (e[i] * e[i]) / q : 0);
    if (q === 0) q = -1e-300;
    if (q < 0) count++;
  }
  return count;
}

/** The k-th smallest eigenvalue (0-based) of the tridiagonal, by bisection to rounding within [lo, hi]. */
function eigenvalueAt(d: Float64Array, e: Float64Array, k: number, lo: number, hi: number): number {
  for (let it = 0; it < 200; it++) {
    const mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;
    if (countBelow(d, e, mid) > k) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * Smallest and largest eigenvalue of the tridiagonal and Σ|μ_i| (bisection: the trace, less twice the sum of the
 * negative eigenvalues, which a conditionally positive definite kernel has only from rounding).
 */
export function tridiagonalSpectrum(d: Float64Array, e: Float64Array): { min: number; max: number; absSum: number } {
  const m = d.length;
  if (m === 0) return { min: Infinity, max: 0, absSum: 0 };
  let lo = Infinity,
    hi = -Infinity,
    trace = 0;
  for (let i = 0; i < m; i++) {
    const r = (i > 0 ? Math.abs(e[i]) : 0) + (i + 1 < m ? Math.abs(e[i + 1]) : 0);
    lo = Math.min(lo, d[i] - r);
    hi = Math.max(hi, d[i] + r);
    trace += d[i];
  }
  const pad = 1e-14 * Math.max(Math.abs(lo), Math.abs(hi), 1e-300);
  (lo -= pad), (hi += pad);
  const min = eigenvalueAt(d, e, 0, lo, hi),
    max = eigenvalueAt(d, e, m - 1, lo, hi);
  let absSum = trace;
  const negatives = min < 0 ? countBelow(d, e, 0) : 0;
  for (let k = 0; k < negatives; k++) absSum -= 2 * eigenvalueAt(d, e, k, lo, 0);
  return { min, max, absSum };
}
