// Generalized extreme value (GEV) fits (seed 002; spec B): the likelihood smooth through ξ = 0, standard
// errors from the observed (or expected) information, return levels with delta-method and profile-likelihood
// intervals, the nested Gumbel fit with its likelihood-ratio test, and goodness of fit (KS, Anderson–Darling,
// probability/quantile/return-level plot data). The per-configuration Newton fit itself is the `gev` kernel
// (native/src/gev.cc, wasm/gev.ts); this module is its TypeScript reference for everything around it.
//
// Convention (evd/ismev): ξ > 0 is a heavy upper tail (scipy's c = −ξ). With z = (x − μ)/σ, w = 1 + ξz,
// L = log(w)/ξ (→ z as ξ → 0) and t = e^{−L}: G(x) = exp(−t), nllh = n log σ + Σ[(1 + ξ)L + t].
//
// Seed 002 errata: its eq. (1) is labelled a density but is the CDF G; its ξ = 0 branch exp(−e^{(x−μ)/σ}) has
// a sign error and must read exp(−e^{−(x−μ)/σ}); its Fig. 2 caption's ± values are 1.18–1.20× the
// expected-information SEs at its own estimates for n = 400 (0.0118, 0.0086, 0.0345), as if about 280 runs
// had been fitted (spec B.1). Fitting with ismev's Nelder–Mead and numerical Hessian, as the paper did, stops
// short of the optimum (evd/scipy by 3e-8..1e-5 in nllh on the golden samples); varmap's Newton does not.
import type { KernelBackend } from "../backend/kernel.js";
import { GEV_OUT, GEV_STATUS_NAMES, GevStatus, gevFitBatch, type GevStatusName } from "../backend/kernels/gev.js";
import { normCdf } from "../util/special.js";

/** χ²₁ 0.95 quantile: the profile-likelihood cut-off of a 95% interval. */
export const CHI2_1_95 = 3.841458820694124;
const SERIES_BELOW = 0.1; // |ξz| below which L and its ξ-derivatives are power series (as the kernel)
const TERMS = 20;
const S0 = Array.from({ length: TERMS }, (_, j) => (j % 2 === 0 ? 1 : -1) / (j + 1));
const S1 = Array.from({ length: TERMS }, (_, j) => (-(j % 2 === 0 ? 1 : -1) * (j + 1)) / (j + 2));
const S2 = Array.from({ length: TERMS }, (_, j) => ((j % 2 === 0 ? 1 : -1) * (j + 2) * (j + 1)) / (j + 3));

function horner(c: number[], a: number): number {
  let s = c[c.length - 1];
  for (let j = c.length - 2; j >= 0; j--) s = s * a + c[j];
  return s;
}

export interface GevParams {
  loc: number;
  scale: number;
  shape: number;
}

/** L = log(1 + ξz)/ξ and its first two ξ-derivatives at fixed z; NaN outside the support. */
export function gevL(z: number, xi: number): { L: number; Lx: number; Lxx: number } {
  const a = xi * z,
    w = 1 + a;
  if (!(w > 0)) return { L: NaN, Lx: NaN, Lxx: NaN };
  if (Math.abs(a) < SERIES_BELOW) return { L: z * horner(S0, a), Lx: z * z * horner(S1, a), Lxx: z * z * z * horner(S2, a) };
  const L = Math.log1p(a) / xi;
  const Lx = (z / w - L) / xi;
  return { L, Lx, Lxx: (-z * z) / (xi * w * w) - (2 * Lx) / xi };
}

/** L alone (the CDF, density and tests need no derivatives). */
function lOnly(z: number, xi: number): number {
  const a = xi * z;
  return Math.abs(a) < SERIES_BELOW ? z * horner(S0, a) : Math.log1p(a) / xi;
}

export interface NllhEval {
  f: number;
  /** ∂nllh/∂(μ, σ, ξ). */
  g: [number, number, number];
  /** Hessian, 3×3 row-major. */
  H: number[];
}

/** The negative log-likelihood with its analytic gradient and Hessian; f = +∞ outside the support. */
export function gevNllh(x: ArrayLike<number>, p: GevParams): NllhEval {
  const { loc: mu, scale: sigma, shape: xi } = p;
  const bad: NllhEval = { f: Infinity, g: [NaN, NaN, NaN], H: new Array(9).fill(NaN) };
  if (!(sigma > 0) || !Number.isFinite(mu) || !Number.isFinite(xi)) return bad;
  const n = x.length,
    inv = 1 / sigma;
  let sum = 0;
  const g = [0, 0, 0],
    h = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    const z = (x[i] - mu) * inv,
      a = xi * z,
      w = 1 + a;
    if (!(w > 0)) return bad;
    const { L, Lx, Lxx } = gevL(z, xi);
    const t = Math.exp(-L);
    sum += (1 + xi) * L + t;
    const A = 1 + xi - t,
      iw = 1 / w,
      sw = inv * iw;
    const Lm = -sw,
      Ls = -z * sw;
    g[0] += A * Lm;
    g[1] += A * Ls;
    g[2] += A * Lx + L;
    h[0] += t * Lm * Lm + A * (-xi * sw * sw);
    h[1] += t * Lm * Ls + A * sw * sw;
    h[2] += t * Lm * Lx + A * z * sw * iw + Lm;
    h[3] += t * Ls * Ls + A * z * (2 + a) * sw * sw;
    h[4] += t * Ls * Lx + A * z * z * sw * iw + Ls;
    h[5] += t * Lx * Lx + A * Lxx + 2 * Lx;
  }
  const f = n * Math.log(sigma) + sum;
  if (!Number.isFinite(f)) return bad;
  g[1] += n * inv;
  h[3] -= n * inv * inv;
  return { f, g: [g[0], g[1], g[2]], H: [h[0], h[1], h[2], h[1], h[3], h[4], h[2], h[4], h[5]] };
}

/** G(x) = exp(−(1 + ξz)^{−1/ξ}); 0 or 1 beyond the support's ends. */
export function gevCdf(x: number, p: GevParams): number {
  const z = (x - p.loc) / p.scale,
    w = 1 + p.shape * z;
  if (!(w > 0)) return p.shape > 0 ? 0 : 1;
  return Math.exp(-Math.exp(-lOnly(z, p.shape)));
}

/** The density g(x) = t^{1+ξ} e^{−t}/σ. */
export function gevPdf(x: number, p: GevParams): number {
  const z = (x - p.loc) / p.scale,
    w = 1 + p.shape * z;
  if (!(w > 0)) return 0;
  const L = lOnly(z, p.shape),
    t = Math.exp(-L);
  return Math.exp(-(1 + p.shape) * L - t) / p.scale;
}

// h = −ℓ Σ u^k/(k+1)!, h′ = ℓ² Σ (k+1) u^k/(k+2)!, h″ = −ℓ³ Σ (k+2)(k+1) u^k/(k+3)! (u = −ξℓ; 25 terms: at
// |u| < 0.5 the truncation is below 1e-30).
const H_TERMS = 25;
const factorial = (k: number): number => (k <= 1 ? 1 : k * factorial(k - 1));
const H0 = Array.from({ length: H_TERMS }, (_, k) => 1 / factorial(k + 1));
const H1 = Array.from({ length: H_TERMS }, (_, k) => (k + 1) / factorial(k + 2));
const H2 = Array.from({ length: H_TERMS }, (_, k) => ((k + 2) * (k + 1)) / factorial(k + 3));

// h(ξ) = expm1(−ξℓ)/ξ and its ξ-derivatives: series in u = −ξℓ when |u| < 0.5 (no cancellation), else closed forms.
function hSeries(xi: number, l: number): [number, number, number] {
  const u = -xi * l;
  if (Math.abs(u) < 0.5) return [-l * horner(H0, u), l * l * horner(H1, u), -l * l * l * horner(H2, u)];
  const e = Math.exp(-xi * l),
    f = Math.expm1(-xi * l),
    f1 = -l * e,
    f2 = l * l * e;
  return [f / xi, (f1 * xi - f) / (xi * xi), (f2 * xi * xi - 2 * f1 * xi + 2 * f) / (xi * xi * xi)];
}

/** ℓ = log(−log f) for non-exceedance probability f (= log y_p with p = 1 − f). */
function ellOf(nonExceedance: number): number {
  return Math.log(-Math.log(nonExceedance));
}

/** ℓ = log y_p, y_p = −log(1 − 1/T), for return period T (log1p keeps the digits of large T). */
export function ellOfPeriod(period: number): number {
  return Math.log(-Math.log1p(-1 / period));
}

/** The quantile G⁻¹(f) = μ + σ h(ξ) with h = expm1(−ξℓ)/ξ, ℓ = log(−log f). */
export function gevQuantile(f: number, p: GevParams): number {
  return p.loc + p.scale * hSeries(p.shape, ellOf(f))[0];
}

export interface ReturnLevel {
  /** Return period T (exceedance probability 1/T per observation). */
  period: number;
  level: number;
  se: number;
  lo: number;
  hi: number;
}

/** Packed covariance (ll ls lx ss sx xx) → 3×3 row-major. */
export function unpackCov(c: ArrayLike<number>): number[] {
  return [c[0], c[1], c[2], c[1], c[3], c[4], c[2], c[4], c[5]];
}

/** z at non-exceedance f and its delta-method SE from the covariance V (3×3 row-major). */
export function quantileWithSe(f: number, p: GevParams, V: number[]): { z: number; se: number; grad: number[] } {
  return levelWithSe(ellOf(f), p, V);
}

/** z = μ + σh(ξ) at ℓ with its gradient (1, h, σh′) and delta-method SE. */
function levelWithSe(l: number, p: GevParams, V: number[]): { z: number; se: number; grad: number[] } {
  const [h, h1] = hSeries(p.shape, l);
  const grad = [1, h, p.scale * h1];
  let v = 0;
  for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) v += grad[a] * V[3 * a + b] * grad[b];
  return { z: p.loc + p.scale * h, se: Math.sqrt(v), grad };
}

/** Return level z_p for period T (p = 1/T; Coles §3.3.3) with its delta-method SE and Wald interval at `level`. */
export function returnLevel(period: number, p: GevParams, V: number[], level = 0.95): ReturnLevel {
  const q = levelWithSe(ellOfPeriod(period), p, V);
  const k = normQuantileUpper(level);
  return { period, level: q.z, se: q.se, lo: q.z - k * q.se, hi: q.z + k * q.se };
}

/** The two-sided normal critical value for a central interval of probability `level` (1.959963984540054 for 0.95). */
const criticalValues = new Map<number, number>();
export function normQuantileUpper(level: number): number {
  const known = criticalValues.get(level);
  if (known !== undefined) return known;
  const v = bisectNormal(level);
  criticalValues.set(level, v);
  return v;
}

function bisectNormal(level: number): number {
  // Bisection on Φ: exact to rounding; memoized, so once per level.
  const target = 0.5 + level / 2;
  let lo = 0,
    hi = 40;
  for (let i = 0; i < 200 && hi - lo > 1e-16 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (normCdf(mid) < target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/** χ²₁ quantile at `level` (= the square of the two-sided normal critical value). */
export function chi2OneQuantile(level: number): number {
  return normQuantileUpper(level) ** 2;
}

/** Upper tail of χ²₁: P(χ²₁ > s) = 2Φ(−√s). */
export function chi2OneSf(s: number): number {
  return s <= 0 ? 1 : 2 * normCdf(-Math.sqrt(s));
}

// ---- small symmetric solves (N ≤ 3) ----

function cholesky(A: number[], n: number): number[] | null {
  const L = new Array(n * n).fill(0);
  for (let j = 0; j < n; j++) {
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) d -= L[j * n + k] ** 2;
    if (!(d > 0)) return null;
    L[j * n + j] = Math.sqrt(d);
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / L[j * n + j];
    }
  }
  return L;
}

function cholSolve(L: number[], b: number[], n: number): number[] {
  const y = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * y[k];
    y[i] = s / L[i * n + i];
  }
  const x = new Array(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
  return x;
}

/** The inverse of a symmetric positive definite n×n matrix, or null. */
export function spdInverse(A: number[], n: number): number[] | null {
  const L = cholesky(A, n);
  if (!L) return null;
  const V = new Array(n * n).fill(0);
  for (let j = 0; j < n; j++) {
    const e = new Array(n).fill(0);
    e[j] = 1;
    const c = cholSolve(L, e, n);
    for (let i = 0; i < n; i++) V[i * n + j] = c[i];
  }
  return V;
}

/**
 * Damped Newton for a smooth function of ≤ 3 variables given its value, gradient and Hessian (Levenberg damping
 * when the Hessian is not positive definite, Armijo backtracking; +∞ outside the domain). Returns the minimizer
 * and the minimum, or null if it does not converge.
 */
export function newtonMinimize(fn: (v: number[]) => { f: number; g: number[]; H: number[] }, v0: number[], maxIter = 100): { v: number[]; f: number } | null {
  const n = v0.length;
  let v = v0.slice();
  let e = fn(v);
  if (!Number.isFinite(e.f)) return null;
  for (let it = 0; it < maxIter; it++) {
    let lambda = 0,
      L: number[] | null = null;
    const diag = Array.from({ length: n }, (_, i) => Math.abs(e.H[i * n + i]) + 1e-300);
    while (lambda <= 1e12) {
      const M = e.H.slice();
      for (let i = 0; i < n; i++) M[i * n + i] += lambda * diag[i];
      if ((L = cholesky(M, n))) break;
      lambda = lambda === 0 ? 1e-8 : lambda * 10;
    }
    const mg = e.g.map((x) => -x);
    const d = L ? cholSolve(L, mg, n) : mg.map((x, i) => x / diag[i]);
    const rel = Math.max(...d.map((di, i) => Math.abs(di) / Math.max(1, Math.abs(v[i]))));
    if (lambda === 0 && rel < 1e-12) {
      const t = fn(v.map((vi, i) => vi + d[i]));
      return t.f <= e.f ? { v: v.map((vi, i) => vi + d[i]), f: t.f } : { v, f: e.f };
    }
    const slope = e.g.reduce((s, gi, i) => s + gi * d[i], 0);
    let alpha = 1,
      accepted = false,
      trial = e;
    for (let ls = 0; ls < 60; ls++, alpha /= 2) {
      const vt = v.map((vi, i) => vi + alpha * d[i]);
      trial = fn(vt);
      if (Number.isFinite(trial.f) && (trial.f <= e.f + 1e-4 * alpha * slope || (lambda === 0 && alpha === 1 && rel < 1e-6))) {
        v = vt;
        accepted = true;
        break;
      }
    }
    if (!accepted) return lambda === 0 && rel < 1e-8 ? { v, f: e.f } : null;
    e = trial;
  }
  return null;
}

// ---- one configuration's fit ----

export interface GevFit {
  n: number;
  /** "ok" or the reason there is no (valid) fit. */
  status: GevStatusName;
  converged: boolean;
  /** ξ̂ > −0.5 (Smith 1985): the SEs are valid. */
  regular: boolean;
  params: GevParams;
  nllh: number;
  /** Inverse observed information, 3×3 row-major (μ, σ, ξ); NaN when not converged. */
  cov: number[];
  se: [number, number, number];
  iterations: number;
  /** max_i |∂nllh/∂θ_i|·SE_i at the estimate. */
  gradSe: number;
  gumbel: { loc: number; scale: number; nllh: number };
  /** 2(nllh_Gumbel − nllh) and its χ²₁ p-value (H0: ξ = 0). */
  lrStat: number;
  lrP: number;
  aic: number;
  bic: number;
}

/** Reads configuration k of a kernel batch result. */
export function gevFitFromBatch(out: Float64Array, status: Int32Array, iterations: Int32Array, k: number, n: number): GevFit {
  const o = out.subarray(k * GEV_OUT, (k + 1) * GEV_OUT);
  const st = status[k];
  const ok = st === GevStatus.OK;
  const params = { loc: o[0], scale: o[1], shape: o[2] };
  const cov = ok ? unpackCov(o.subarray(4, 10)) : new Array(9).fill(NaN);
  const nllh = o[3];
  const gumbel = { loc: o[10], scale: o[11], nllh: o[12] };
  const lrStat = ok ? Math.max(0, 2 * (gumbel.nllh - nllh)) : NaN;
  return {
    n,
    status: GEV_STATUS_NAMES[st] ?? "not_converged",
    converged: ok || st === GevStatus.SINGULAR,
    regular: ok && params.shape > -0.5,
    params,
    nllh,
    cov,
    se: [Math.sqrt(cov[0]), Math.sqrt(cov[4]), Math.sqrt(cov[8])],
    iterations: iterations[k],
    gradSe: o[13],
    gumbel,
    lrStat,
    lrP: ok ? chi2OneSf(lrStat) : NaN,
    aic: 2 * nllh + 6,
    bic: 2 * nllh + 3 * Math.log(n),
  };
}

/**
 * The power of two a sample is divided by before the fit, so that its spread is near 1 (GEV fits are scale-
 * equivariant in theory, not in floating point: runs ×1e298 came back `unbounded`, ×1e-300 `not_converged`).
 * 1 for samples whose range lies in [2^-30, 2^60] (the kernel's comfortable range; their fits are unchanged to the
 * bit). A power of two divides exactly, so the fit of x/s is that of x on another scale.
 */
export function gevScale(x: ArrayLike<number>): number {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < x.length; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  let range = hi - lo;
  if (!Number.isFinite(range)) range = Math.max(Math.abs(lo), Math.abs(hi));
  if (!(range > 0) || !Number.isFinite(range) || (range >= 2 ** -30 && range <= 2 ** 60)) return 1;
  return 2 ** Math.round(Math.log2(range));
}

/** The fit of x/s turned into the fit of x: location and scale times s, shape unchanged, nllh + n·log s. */
export function rescaleGevFit(fit: GevFit, s: number): GevFit {
  if (s === 1) return fit;
  const d = [s, s, 1];
  const cov = fit.cov.map((v, i) => v * d[Math.floor(i / 3)] * d[i % 3]);
  const shift = fit.n * Math.log(s);
  const nllh = fit.nllh + shift;
  return {
    ...fit,
    params: { loc: fit.params.loc * s, scale: fit.params.scale * s, shape: fit.params.shape },
    nllh,
    cov,
    // From the standardized fit's SEs: the variances themselves can overflow (σ ≈ 1e298: σ² is not a double).
    se: [fit.se[0] * s, fit.se[1] * s, fit.se[2]],
    gumbel: { loc: fit.gumbel.loc * s, scale: fit.gumbel.scale * s, nllh: fit.gumbel.nllh + shift },
    aic: 2 * nllh + 6,
    bic: 2 * nllh + 3 * Math.log(fit.n),
  };
}

/** expectedCovariance computed on a scale where σ is near 1 and scaled back (1/σ² overflows for σ ≈ 1e-300). */
export function expectedCovarianceScaled(p: GevParams, n: number): { cov: number[]; se: [number, number, number] } {
  const s = p.scale > 0 && Number.isFinite(p.scale) && (p.scale < 2 ** -30 || p.scale > 2 ** 60) ? 2 ** Math.round(Math.log2(p.scale)) : 1;
  const c = expectedCovariance({ loc: p.loc / s, scale: p.scale / s, shape: p.shape }, n);
  const d = [s, s, 1];
  return {
    cov: s === 1 ? c : c.map((v, i) => v * d[Math.floor(i / 3)] * d[i % 3]),
    se: [Math.sqrt(c[0]) * s, Math.sqrt(c[4]) * s, Math.sqrt(c[8])],
  };
}

/** Fits one sample (the kernel on the given backend) on a standardized scale (gevScale). */
export function fitGev(backend: KernelBackend, x: ArrayLike<number>, maxIter = 100): GevFit {
  const s = gevScale(x);
  const r = gevFitBatch(
    backend,
    Float64Array.from(x, (v) => v / s),
    Int32Array.from([0, x.length]),
    maxIter,
  );
  return rescaleGevFit(gevFitFromBatch(r.out, r.status, r.iterations, 0, x.length), s);
}

// ---- expected information ----

/**
 * Expected (Fisher) information of n observations at p: n·E[∂²nllh₁], the expectation over t = (1 + ξz)^{−1/ξ},
 * which is Exp(1) under the model, written as an integral over s = log t (density e^{s − e^s}) and summed by the
 * trapezoid rule (spectrally accurate for this doubly-exponentially decaying integrand). Smooth through ξ = 0
 * (the same series as the likelihood). Finite only for ξ > −0.5; NaN below.
 */
export function expectedInformation(p: GevParams, n: number): number[] {
  const xi = p.shape;
  if (!(xi > -0.5)) return new Array(9).fill(NaN);
  // The integrand decays like e^{(1 + 2 min(ξ, 0)) s} as s → −∞.
  const rate = 1 + 2 * Math.min(xi, 0);
  const smin = Math.max(-45 / rate, -20000),
    smax = Math.log(50);
  const ds = Math.min(0.01, (smax - smin) / 20000);
  const acc = new Array(9).fill(0);
  const one = [0];
  for (let s = smin; s <= smax; s += ds) {
    const wgt = Math.exp(s - Math.exp(s));
    if (wgt === 0) continue;
    // x with t(x) = e^s: L = −s, z = expm1(−ξs)/ξ (→ −s).
    const u = -xi * s;
    const z = Math.abs(u) < 1e-8 ? -s * (1 + u / 2) : Math.expm1(u) / xi;
    one[0] = p.loc + p.scale * z;
    const e = gevNllh(one, p);
    if (!Number.isFinite(e.f)) continue;
    for (let k = 0; k < 9; k++) acc[k] += wgt * e.H[k] * ds;
  }
  return acc.map((a) => a * n);
}

/** Covariance from the expected information (its inverse), 3×3 row-major. */
export function expectedCovariance(p: GevParams, n: number): number[] {
  return spdInverse(expectedInformation(p, n), 3) ?? new Array(9).fill(NaN);
}

// ---- profile likelihood ----

/** min over (μ, σ) of nllh at fixed ξ, warm-started at (μ0, σ0). */
function profileAtShape(x: ArrayLike<number>, xi: number, start: number[]): { v: number[]; f: number } | null {
  return newtonMinimize((v) => {
    const e = gevNllh(x, { loc: v[0], scale: v[1], shape: xi });
    return { f: e.f, g: [e.g[0], e.g[1]], H: [e.H[0], e.H[1], e.H[3], e.H[4]] };
  }, start);
}

/** min over (σ, ξ) of nllh with μ = z − σh(ξ) (the return level for ℓ fixed at z), warm-started. */
function profileAtLevel(x: ArrayLike<number>, z: number, l: number, start: number[]): { v: number[]; f: number } | null {
  return newtonMinimize((v) => {
    const [sigma, xi] = v;
    const [h, h1, h2] = hSeries(xi, l);
    const e = gevNllh(x, { loc: z - sigma * h, scale: sigma, shape: xi });
    if (!Number.isFinite(e.f)) return { f: Infinity, g: [NaN, NaN], H: [NaN, NaN, NaN, NaN] };
    // Chain rule: J = ∂(μ, σ, ξ)/∂(σ, ξ) = [[−h, −σh′], [1, 0], [0, 1]]; μ's second derivatives add g_μ·M.
    const c1 = [-h, 1, 0],
      c2 = [-sigma * h1, 0, 1];
    const Hc = (c: number[]) => [0, 1, 2].map((r) => e.H[3 * r] * c[0] + e.H[3 * r + 1] * c[1] + e.H[3 * r + 2] * c[2]);
    const H1 = Hc(c1),
      H2 = Hc(c2);
    const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    const gm = e.g[0];
    return {
      f: e.f,
      g: [dot(e.g, c1), dot(e.g, c2)],
      H: [dot(c1, H1), dot(c1, H2) - gm * h1, dot(c2, H1) - gm * h1, dot(c2, H2) - gm * sigma * h2],
    };
  }, start);
}

/** Finds where the deviance 2(p(θ) − nllh) crosses `cut` moving from θ̂ by `step` (±); NaN if it never does. */
function profileCrossing(dev: (theta: number) => number, theta0: number, step: number, cut: number, limit: (t: number) => boolean): number {
  let a = theta0,
    da = -cut;
  let b = theta0;
  for (let k = 1; k <= 60; k++) {
    b = theta0 + step * k * (k < 10 ? 0.5 : 1) * (k < 30 ? 1 : 4);
    if (!limit(b)) return NaN;
    const db = dev(b) - cut;
    if (!Number.isFinite(db)) return NaN;
    if (db >= 0) {
      // Bracketed: bisection with a secant guess (Illinois).
      let fa = da,
        fb = db;
      for (let i = 0; i < 100 && Math.abs(b - a) > 1e-12 * Math.max(1, Math.abs(b)); i++) {
        let c = b - (fb * (b - a)) / (fb - fa);
        if (!(c > Math.min(a, b) && c < Math.max(a, b))) c = 0.5 * (a + b);
        const fc = dev(c) - cut;
        if (!Number.isFinite(fc)) return NaN;
        if (fc >= 0) {
          b = c;
          fb = fc;
          fa /= 2;
        } else {
          a = c;
          fa = fc;
          fb /= 2;
        }
      }
      return 0.5 * (a + b);
    }
    a = b;
    da = db;
  }
  return NaN;
}

export interface Interval {
  lo: number;
  hi: number;
}

/** Profile-likelihood interval for ξ: {ξ : 2(p(ξ) − nllh) ≤ χ²₁(level)} (Coles §2.6.6). */
export function profileShapeInterval(x: ArrayLike<number>, fit: GevFit, level = 0.95): Interval {
  const cut = chi2OneQuantile(level);
  const { loc, scale, shape } = fit.params;
  let warm = [loc, scale];
  const dev = (xi: number) => {
    const r = profileAtShape(x, xi, warm) ?? profileAtShape(x, xi, [loc, scale]);
    if (!r) return NaN;
    warm = r.v;
    return 2 * (r.f - fit.nllh);
  };
  const step = Number.isFinite(fit.se[2]) && fit.se[2] > 0 ? fit.se[2] : 0.05;
  const lo = profileCrossing(dev, shape, -step, cut, (t) => t > -1);
  warm = [loc, scale];
  const hi = profileCrossing(dev, shape, step, cut, () => true);
  return { lo, hi };
}

/** Profile-likelihood interval for the return level of period T. */
export function profileReturnLevelInterval(x: ArrayLike<number>, fit: GevFit, period: number, level = 0.95): Interval {
  const cut = chi2OneQuantile(level);
  const l = ellOfPeriod(period);
  const rl = returnLevel(period, fit.params, fit.cov, level);
  let warm = [fit.params.scale, fit.params.shape];
  const dev = (z: number) => {
    const r = profileAtLevel(x, z, l, warm) ?? profileAtLevel(x, z, l, [fit.params.scale, fit.params.shape]);
    if (!r) return NaN;
    warm = r.v;
    return 2 * (r.f - fit.nllh);
  };
  const step = Number.isFinite(rl.se) && rl.se > 0 ? rl.se : Math.abs(rl.level) * 0.01 + 1e-12;
  const lo = profileCrossing(dev, rl.level, -step, cut, () => true);
  warm = [fit.params.scale, fit.params.shape];
  const hi = profileCrossing(dev, rl.level, step, cut, () => true);
  return { lo, hi };
}

// ---- goodness of fit and diagnostics ----

/** One-sample Kolmogorov–Smirnov statistic of x against the fitted G. */
export function ksStatistic(x: ArrayLike<number>, p: GevParams): number {
  const s = Float64Array.from(x).sort();
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const g = gevCdf(s[i], p);
    d = Math.max(d, (i + 1) / n - g, g - i / n);
  }
  return d;
}

/** Anderson–Darling statistic A² of x against the fitted G (+∞ when a run is outside the support). */
export function andersonDarling(x: ArrayLike<number>, p: GevParams): number {
  const s = Float64Array.from(x).sort();
  const n = s.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const lo = Math.log(gevCdf(s[i], p));
    // log(1 − G) = log(−expm1(−t)) keeps the upper tail's digits.
    const z = (s[n - 1 - i] - p.loc) / p.scale;
    const w = 1 + p.shape * z;
    const t = w > 0 ? Math.exp(-lOnly(z, p.shape)) : p.shape > 0 ? Infinity : 0;
    const hi = Math.log(-Math.expm1(-t));
    sum += (2 * i + 1) * (lo + hi);
  }
  return -n - sum / n;
}

export type DiagKind = "pp" | "qq" | "rl_point" | "rl_curve" | "density";

export interface DiagRow {
  kind: DiagKind;
  x: number;
  y: number;
  lo: number;
  hi: number;
  outlier: boolean | null;
}

/** Non-exceedance probabilities of the return-level curve (ismev gev.diag's grid). */
export const RL_CURVE_F = [0.001, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.995, 0.999];

/**
 * Plot data (ismev gev.diag, spec B.2): probability plot (p_i, G(x_(i))), quantile plot (G⁻¹(p_i), x_(i)),
 * return-level points (−1/log p_i, x_(i)) flagged `outlier` outside the ±k·SE band at their own period, the
 * return-level curve with its band, and the fitted density over the data's range. p_i = i/(n + 1).
 */
export function gevDiagnostics(x: ArrayLike<number>, fit: GevFit, level = 0.95, withRows = true): { rows: DiagRow[]; outliers: number } {
  const s = Float64Array.from(x).sort();
  const n = s.length,
    p = fit.params,
    k = normQuantileUpper(level);
  const rows: DiagRow[] = [];
  let outliers = 0;
  if (withRows) {
    for (let i = 0; i < n; i++) rows.push({ kind: "pp", x: (i + 1) / (n + 1), y: gevCdf(s[i], p), lo: NaN, hi: NaN, outlier: null });
    for (let i = 0; i < n; i++) rows.push({ kind: "qq", x: gevQuantile((i + 1) / (n + 1), p), y: s[i], lo: NaN, hi: NaN, outlier: null });
  }
  for (let i = 0; i < n; i++) {
    const pi = (i + 1) / (n + 1);
    const q = quantileWithSe(pi, p, fit.cov);
    const lo = q.z - k * q.se,
      hi = q.z + k * q.se;
    const out = Number.isFinite(q.se) ? s[i] < lo || s[i] > hi : null;
    if (out) outliers++;
    if (withRows) rows.push({ kind: "rl_point", x: -1 / Math.log(pi), y: s[i], lo, hi, outlier: out });
  }
  if (!withRows) return { rows, outliers };
  for (const f of RL_CURVE_F) {
    const q = quantileWithSe(f, p, fit.cov);
    rows.push({ kind: "rl_curve", x: -1 / Math.log(f), y: q.z, lo: q.z - k * q.se, hi: q.z + k * q.se, outlier: null });
  }
  const a = s[0],
    b = s[n - 1];
  for (let j = 0; j <= 100; j++) {
    const xv = a + ((b - a) * j) / 100;
    rows.push({ kind: "density", x: xv, y: gevPdf(xv, p), lo: NaN, hi: NaN, outlier: null });
  }
  return { rows, outliers };
}

/** Maxima of consecutive blocks of B runs, in run order (a trailing partial block is dropped). */
export function blockMaxima(x: ArrayLike<number>, block: number): Float64Array {
  const m = Math.floor(x.length / block);
  const out = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    let v = -Infinity;
    for (let i = j * block; i < (j + 1) * block; i++) v = Math.max(v, x[i]);
    out[j] = v;
  }
  return out;
}
