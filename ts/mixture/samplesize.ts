// How many runs does an experiment need? Γ_q(n), the scaled standard error of the estimated q-quantile of a
// fitted mixture after n runs, by the delta method (seed 001 §4, §6 and Appendix A; spec A.2):
//
//   se1_q = sqrt(gᵀ I⁻¹ g),  g = ∂x_q/∂θ,  I = Fisher information of one run,  Γ_q(n) = se1_q / ((x_q − c) √n)
//
// θ = (π_1..π_{k−1}, a_1..a_k, b_1..b_k) in seed 001 §3.1's order (P = 3k − 1; π_k = 1 − Σπ_j absorbs the
// constraint). sqrt(gᵀI⁻¹g) does not depend on the parametrization, so any smooth one-to-one b-scale can be used
// (`bScale`); reports print I and g in the natural one.
//
// Errata of seed 001 recorded here (spec A.8):
// - (A.4) writes ∂²f where it means ∂² log f: I = −E[∂² log f] = E[s sᵀ], s = ∇_θ log f (the form used here).
// - (A.8)–(A.9) are garbled; the correct weight derivative, with π_k = 1 − Σπ_j, is
//   ∂x_q/∂π_j = −(F_j(x_q) − F_k(x_q)) / f(x_q), where f is the *mixture* density.
// - In (A.11) and (A.13) the denominator "f_j(x̂_q, μ_l, σ_l)" means f_l (here: the mixture density f).
// - (A.15)–(A.17) are OCR-garbled versions of ∂x_q/∂σ₁, ∂x_q/∂μ₂ and ∂x_q/∂σ₂ (all given by quantileGradient).
// - Eq. (10) prints the variance update as "σ_j": the source of the sd-or-variance ambiguity of Table 7's σ
//   (mixture variance 0.998922 read as sd, 1.00393 read as variance; both fit standardized data).
// - "Reduce the uncertainty by 93.38%" contradicts "6.32%" (= 1/√250): it should be 93.68%.
import { counterRng } from "../data/random.js";
import { getBackend } from "../backend/index.js";
import { mixtureFit } from "../backend/kernels/mixture.js";
import { FAMILIES, gammaLogpdf, gammaP, lgamma, type FamilyName } from "./families.js";
import { Mixture } from "./model.js";
import { digamma, integrate, integrateVector, trigamma } from "./quadrature.js";

const EPS = 2.220446049250313e-16;

/** Parametrization of the b parameters: as fitted (sd, scale or σ of log x), their squares, or their logs. */
export type BScale = "natural" | "variance" | "log";

/** Number of free parameters of a k-component mixture: 3k − 1. */
export function parameterCount(k: number): number {
  return 3 * k - 1;
}

/** Factor turning ∂/∂b into ∂/∂b' for b' = b (1), b² (1/(2b)) or log b (b). */
function bFactor(b: number, scale: BScale): number {
  return scale === "natural" ? 1 : scale === "variance" ? 1 / (2 * b) : b;
}

/** Derivative h′(z) of the standardized log-density of log x for the four log families. */
function hPrime(f: FamilyName, z: number): number {
  switch (f) {
    case "lognormal":
      return -z;
    case "weibull":
      return 1 - Math.exp(z);
    case "loglogistic":
      return -Math.tanh(z / 2);
    case "frechet":
      return Math.exp(-z) - 1;
    default:
      throw new Error(`hPrime: ${f} is not a log family`);
  }
}

/** (centre, spread) of component (a, b) in the integration variable v (x for normal, log x otherwise). */
function componentSpan(f: FamilyName, a: number, b: number): [number, number] {
  if (f === "gamma") return [digamma(a) + Math.log(b), Math.sqrt(trigamma(a))];
  return [a, b];
}

/**
 * Break points for integrating over a mixture on its variable's scale: ±40 spans around every component (the
 * ends) and each component's centre ± 2 spans inside, ascending and distinct.
 */
function integrationPoints(m: Mixture, fam: FamilyName): number[] {
  let lo = Infinity,
    hi = -Infinity;
  const breaks: number[] = [];
  for (let j = 0; j < m.k; j++) {
    const [c, d] = componentSpan(fam, m.a[j], m.b[j]);
    lo = Math.min(lo, c - 40 * d);
    hi = Math.max(hi, c + 40 * d);
    breaks.push(c - 2 * d, c, c + 2 * d);
  }
  return [lo, ...breaks.filter((b) => b > lo && b < hi).sort((a, b) => a - b), hi].filter((v, i, arr) => i === 0 || v > arr[i - 1]);
}

/** The mixture q-quantile: safeguarded Newton between the components' own quantiles, to |F − q| ≤ 4ε. */
export function mixtureQuantile(m: Mixture, q: number): number {
  if (m.k === 1) return m.family.quantile(q, m.a[0], m.b[0]);
  const qs = m.w.map((_, j) => m.family.quantile(q, m.a[j], m.b[j]));
  let lo = Math.min(...qs),
    hi = Math.max(...qs);
  if (lo === hi) return lo;
  let x = m.quantile(q); // bisection start (invertCdf), then polish
  for (let it = 0; it < 100; it++) {
    const r = m.cdf(x) - q;
    if (r === 0 || Math.abs(r) <= 4 * EPS) return x;
    if (r < 0) lo = x;
    else hi = x;
    const fx = m.pdf(x);
    let nx = x - r / fx;
    if (!(nx > lo && nx < hi)) nx = 0.5 * (lo + hi);
    if (Math.abs(nx - x) <= 1e-15 * Math.abs(x) || nx === x) return nx;
    x = nx;
  }
  return x;
}

/** ∂F_j/∂a and ∂F_j/∂b of one component at x, and its density f_j(x). */
export function componentCdfGradient(fam: FamilyName, x: number, a: number, b: number): { f: number; dA: number; dB: number } {
  const F = FAMILIES[fam];
  const f = Math.exp(F.logpdf(x, a, b));
  if (fam === "normal") {
    const z = (x - a) / b;
    return { f, dA: -f, dB: -z * f };
  }
  if (fam === "gamma") return { f, dA: gammaShapeCdfDerivative(a, x / b), dB: -(x / b) * f };
  if (!(x > 0)) return { f: 0, dA: 0, dB: 0 };
  const z = (Math.log(x) - a) / b;
  return { f, dA: -x * f, dB: -z * x * f };
}

/**
 * ∂P(α, t)/∂α = ∫_0^t (log u − ψ(α)) u^{α−1} e^{−u}/Γ(α) du, integrated over s = log u by adaptive G7K15; when
 * P(α, t) > 0.5 the upper tail is integrated and negated (the whole integral is 0).
 */
export function gammaShapeCdfDerivative(alpha: number, t: number): number {
  if (!(t > 0)) return 0;
  const psi = digamma(alpha);
  const sd = Math.sqrt(trigamma(alpha));
  const st = Math.log(t);
  const g = (s: number) => {
    const u = Math.exp(s);
    const lp = gammaLogpdf(u, alpha, 1) + s;
    return lp === -Infinity ? 0 : (s - psi) * Math.exp(lp);
  };
  const lo = psi - 40 * sd - 40 / alpha,
    hi = psi + 40 * sd;
  const inner = (a: number, b: number) => [a, ...[psi - 2 * sd, psi, psi + 2 * sd].filter((v) => v > a && v < b), b];
  if (gammaP(alpha, t) <= 0.5) return st <= lo ? 0 : integrate(g, inner(lo, st), 1e-12).value;
  return st >= hi ? 0 : -integrate(g, inner(st, hi), 1e-12).value;
}

export interface QuantileGradient {
  q: number;
  xq: number;
  /** Mixture density at x_q. */
  f: number;
  /** ∂x_q/∂θ in θ order. */
  g: Float64Array;
}

/** x_q and its gradient by the implicit function theorem: ∂x_q/∂η = −(∂F/∂η)(x_q) / f(x_q). */
export function quantileGradient(m: Mixture, q: number, bScale: BScale = "natural"): QuantileGradient {
  const k = m.k,
    fam = m.family.name;
  const xq = mixtureQuantile(m, q);
  const f = m.pdf(xq);
  const g = new Float64Array(parameterCount(k));
  const Fk = m.family.cdf(xq, m.a[k - 1], m.b[k - 1]);
  for (let j = 0; j < k - 1; j++) g[j] = -(m.family.cdf(xq, m.a[j], m.b[j]) - Fk) / f;
  for (let j = 0; j < k; j++) {
    const d = componentCdfGradient(fam, xq, m.a[j], m.b[j]);
    g[k - 1 + j] = -(m.w[j] * d.dA) / f;
    g[2 * k - 1 + j] = (-(m.w[j] * d.dB) / f) * bFactor(m.b[j], bScale);
  }
  return { q, xq, f, g };
}

/** Standardized log-density h(z) of log x for the four log families (as in families.ts). */
function hLog(f: FamilyName, z: number): number {
  switch (f) {
    case "lognormal":
      return -LOG_SQRT_2PI - 0.5 * z * z;
    case "weibull":
      return z - Math.exp(z);
    case "loglogistic":
      return -Math.abs(z) - 2 * Math.log1p(Math.exp(-Math.abs(z)));
    case "frechet":
      return -z - Math.exp(-z);
    default:
      throw new Error(`hLog: ${f} is not a log family`);
  }
}
const LOG_SQRT_2PI = 0.9189385332046728;

/**
 * Gamma log-density at x = e^v for shapes ≥ 15, from t = v − log(aβ) (log1p(u) = t exactly for u = x/(aβ) − 1):
 * the Stirling form of gammaLogpdf without the rounding of exp(v), which matters for very narrow components.
 */
function gammaLogpdfFromLog(v: number, a: number, b: number): number {
  const t = v - Math.log(a * b);
  const xi = 1 / a,
    x2 = xi * xi;
  const tail = xi * (1 / 12 + x2 * (-1 / 360 + x2 * (1 / 1260 + x2 * (-1 / 1680 + x2 * (1 / 1188 + x2 * (-691 / 360360))))));
  return 0.5 * Math.log(a) - LOG_SQRT_2PI - tail - a * (Math.expm1(t) - t) - v;
}

/** log a − ψ(a) for a ≥ 15 by its asymptotic series (no cancellation for large a). */
function logMinusDigamma(a: number): number {
  const xi = 1 / a,
    x2 = xi * xi;
  return 0.5 * xi + x2 * (1 / 12 - x2 * (1 / 120 - x2 * (1 / 252 - x2 * (1 / 240 - x2 * (1 / 132)))));
}

/**
 * Score s = ∇_θ log f(x) into out (length P); returns log f(x). Posterior weights in log space. For the log
 * families, `logx` (when given) is used as log x: the quadrature runs in v = log x, and log(exp(v)) would add
 * rounding noise of |v|·ε/σ to z, which for a narrow component is far above the quadrature's tolerance.
 */
export function mixtureScore(m: Mixture, x: number, out: Float64Array, bScale: BScale = "natural", lpj = new Float64Array(m.k), logx?: number): number {
  const k = m.k,
    fam = m.family.name,
    F = m.family;
  const logFam = fam !== "normal" && fam !== "gamma";
  const lx = logFam ? (logx ?? (x > 0 ? Math.log(x) : -Infinity)) : 0;
  // lpj[j] = log f_j(x) first (component densities), the maximum of log π_j f_j tracked alongside
  let mx = -Infinity;
  for (let j = 0; j < k; j++) {
    if (logFam) lpj[j] = lx === -Infinity ? -Infinity : hLog(fam, (lx - m.a[j]) / m.b[j]) - Math.log(m.b[j]) - lx;
    else if (fam === "gamma" && logx !== undefined && m.a[j] >= 15) lpj[j] = gammaLogpdfFromLog(logx, m.a[j], m.b[j]);
    else lpj[j] = F.logpdf(x, m.a[j], m.b[j]);
    const v = Math.log(m.w[j]) + lpj[j];
    if (v > mx) mx = v;
  }
  if (mx === -Infinity) {
    out.fill(0);
    return -Infinity;
  }
  let sum = 0;
  for (let j = 0; j < k; j++) sum += Math.exp(Math.log(m.w[j]) + lpj[j] - mx);
  const lf = mx + Math.log(sum);
  // s_{π_j} = (f_j − f_k)/f = w_j/π_j − w_k/π_k with w_j = π_j f_j / f the posterior weight
  const ratioK = Math.exp(lpj[k - 1] - lf);
  for (let j = 0; j < k - 1; j++) out[j] = Math.exp(lpj[j] - lf) - ratioK;
  for (let j = 0; j < k; j++) {
    const w = m.w[j] * Math.exp(lpj[j] - lf);
    if (w === 0) {
      // far in another component's tail: no weight (and the log-family h′ may overflow there: 0·∞)
      out[k - 1 + j] = 0;
      out[2 * k - 1 + j] = 0;
      continue;
    }
    const a = m.a[j],
      b = m.b[j];
    let da: number, db: number;
    if (fam === "normal") {
      const z = (x - a) / b;
      da = z / b;
      db = (z * z - 1) / b;
    } else if (fam === "gamma" && logx !== undefined && a >= 15) {
      // from t = log(x/(aβ)) without forming x: log(x/β) − ψ(a) = t + (log a − ψ(a)), (x/β − a)/β = a·expm1(t)/β
      const t = logx - Math.log(a * b);
      da = t + logMinusDigamma(a);
      db = (a * Math.expm1(t)) / b;
    } else if (fam === "gamma") {
      da = Math.log(x / b) - digamma(a);
      db = (x / b - a) / b;
    } else {
      const z = (lx - a) / b;
      const hp = hPrime(fam, z);
      da = -hp / b;
      db = -(1 + z * hp) / b;
    }
    out[k - 1 + j] = w * da;
    out[2 * k - 1 + j] = w * db * bFactor(b, bScale);
  }
  return lf;
}

export interface FisherInformation {
  /** P × P, row-major, θ order. */
  I: Float64Array;
  P: number;
  /** ∫ s f (should be 0): a check of the quadrature and the score. */
  meanScore: Float64Array;
  /** Quadrature error estimate (absolute) and whether the subdivision limit stopped it short. */
  error: number;
  inexact: boolean;
}

/**
 * Expected information of one run, I = ∫ s sᵀ f dx, by adaptive G7K15 in v = x (normal) or v = log x (the
 * others) over [min_j(c_j − 40 d_j), max_j(c_j + 40 d_j)], breakpoints at c_j and c_j ± 2 d_j; the upper
 * triangle and ∫ s f in one vector integral.
 */
export function fisherExpected(m: Mixture, bScale: BScale = "natural"): FisherInformation {
  const P = parameterCount(m.k),
    fam = m.family.name;
  const tri = (P * (P + 1)) / 2;
  const s = new Float64Array(P),
    lpj = new Float64Array(m.k);
  const logV = fam !== "normal";
  const integrand = (v: number, out: Float64Array) => {
    const x = logV ? Math.exp(v) : v;
    const lf = mixtureScore(m, x, s, bScale, lpj, logV ? v : undefined);
    const dens = lf === -Infinity ? 0 : Math.exp(lf + (logV ? v : 0));
    let t = 0;
    for (let i = 0; i < P; i++) {
      const si = s[i] * dens;
      for (let j = i; j < P; j++) out[t++] = si * s[j];
    }
    for (let i = 0; i < P; i++) out[tri + i] = s[i] * dens;
  };
  const pts = integrationPoints(m, fam);
  const r = integrateVector(integrand, tri + P, pts, { relTol: 1e-13, maxPieces: 2000 });
  const I = new Float64Array(P * P);
  let t = 0;
  for (let i = 0; i < P; i++)
    for (let j = i; j < P; j++) {
      I[i * P + j] = r.value[t];
      I[j * P + i] = r.value[t++];
    }
  return { I, P, meanScore: r.value.slice(tri), error: r.error, inexact: r.inexact };
}

/** Empirical information I ≈ (1/n) Σ s(x_i) s(x_i)ᵀ over the data ("measured from data"; no quadrature). */
export function fisherEmpirical(m: Mixture, data: ArrayLike<number>, bScale: BScale = "natural"): FisherInformation {
  const P = parameterCount(m.k);
  const I = new Float64Array(P * P),
    meanScore = new Float64Array(P);
  const s = new Float64Array(P),
    lpj = new Float64Array(m.k);
  for (let i = 0; i < data.length; i++) {
    mixtureScore(m, data[i], s, bScale, lpj);
    for (let a = 0; a < P; a++) {
      meanScore[a] += s[a];
      for (let b = a; b < P; b++) I[a * P + b] += s[a] * s[b];
    }
  }
  const n = Math.max(1, data.length);
  for (let a = 0; a < P; a++) {
    meanScore[a] /= n;
    for (let b = a; b < P; b++) I[b * P + a] = I[a * P + b] /= n;
  }
  return { I, P, meanScore, error: 0, inexact: false };
}

export interface QuadraticForm {
  /** gᵀ I⁻¹ g for each g (NaN when singular). */
  values: number[];
  /** Reciprocal 1-norm condition number of the equilibrated matrix D^{-1/2} I D^{-1/2}. */
  rcond: number;
  singular: boolean;
}

/** gᵀI⁻¹g by Cholesky of the equilibrated matrix; singular when Cholesky fails or rcond < 1e-13. */
export function informationQuadForm(I: Float64Array, P: number, gs: readonly Float64Array[]): QuadraticForm {
  const dsq = new Float64Array(P);
  for (let i = 0; i < P; i++) dsq[i] = Math.sqrt(I[i * P + i]);
  const fail = (): QuadraticForm => ({ values: gs.map(() => NaN), rcond: 0, singular: true });
  if (!dsq.every((d) => d > 0 && Number.isFinite(d))) return fail();
  const L = new Float64Array(P * P);
  for (let i = 0; i < P; i++)
    for (let j = 0; j <= i; j++) {
      let sum = I[i * P + j] / (dsq[i] * dsq[j]);
      for (let k = 0; k < j; k++) sum -= L[i * P + k] * L[j * P + k];
      if (i === j) {
        if (!(sum > 0)) return fail();
        L[i * P + i] = Math.sqrt(sum);
      } else L[i * P + j] = sum / L[j * P + j];
    }
  const solveInto = (h: Float64Array): Float64Array => {
    // A x = h with A = L Lᵀ
    const y = new Float64Array(P);
    for (let i = 0; i < P; i++) {
      let sum = h[i];
      for (let k = 0; k < i; k++) sum -= L[i * P + k] * y[k];
      y[i] = sum / L[i * P + i];
    }
    for (let i = P - 1; i >= 0; i--) {
      let sum = y[i];
      for (let k = i + 1; k < P; k++) sum -= L[k * P + i] * y[k];
      y[i] = sum / L[i * P + i];
    }
    return y;
  };
  // rcond = 1 / (‖A‖₁ ‖A⁻¹‖₁), A⁻¹ column by column (P ≤ 47)
  let normA = 0,
    normInv = 0;
  const e = new Float64Array(P);
  for (let j = 0; j < P; j++) {
    let colA = 0;
    for (let i = 0; i < P; i++) colA += Math.abs(I[i * P + j] / (dsq[i] * dsq[j]));
    normA = Math.max(normA, colA);
    e.fill(0);
    e[j] = 1;
    const col = solveInto(e);
    normInv = Math.max(
      normInv,
      col.reduce((s, v) => s + Math.abs(v), 0),
    );
  }
  const rcond = 1 / (normA * normInv);
  if (!(rcond >= 1e-13)) return { values: gs.map(() => NaN), rcond, singular: true };
  const values = gs.map((g) => {
    const h = Float64Array.from(g, (v, i) => v / dsq[i]);
    const x = solveInto(h);
    let s = 0;
    for (let i = 0; i < P; i++) s += h[i] * x[i];
    return s;
  });
  return { values, rcond, singular: false };
}

/** The mixture of X / s (s > 0): normal (a/s, b/s); gamma (a, b/s); log families (a − log s, b). */
/**
 * The power of two a mixture given by hand (--mixture) is divided by (scaleMixture) before its delta-method SEs, 1
 * when its quartiles and median lie within 2^±64 (issue 44): the Fisher information of a model near 1e300 (or
 * 1e-300) over- or underflows and was reported singular. x_q, se1 and the center scale back; Γ is unchanged.
 */
export function mixtureScale(m: Mixture): number {
  let big = 0;
  for (const p of [0.25, 0.5, 0.75]) {
    const x = Math.abs(m.quantile(p));
    if (Number.isFinite(x)) big = Math.max(big, x);
  }
  if (!(big > 0)) return 1;
  const k = Math.floor(Math.log2(big));
  return Math.abs(k) > 64 ? 2 ** k : 1;
}

export function scaleMixture(m: Mixture, s: number): Mixture {
  const fam = m.family.name;
  if (fam === "normal")
    return new Mixture(
      fam,
      m.w,
      m.a.map((v) => v / s),
      m.b.map((v) => v / s),
    );
  if (fam === "gamma")
    return new Mixture(
      fam,
      m.w,
      m.a,
      m.b.map((v) => v / s),
    );
  return new Mixture(
    fam,
    m.w,
    m.a.map((v) => v - Math.log(s)),
    m.b,
  );
}

/**
 * Non-excess kurtosis E(X−μ)⁴/σ⁴ of the mixture (for `--moments model`), by G7K15 quadrature over the same domain as
 * the information; ∞ when a loglogistic or Fréchet component (σ ≥ 1/4) has no fourth moment.
 */
export function mixtureKurtosis(m: Mixture): number {
  const fam = m.family.name;
  if ((fam === "loglogistic" || fam === "frechet") && m.b.some((b) => b >= 0.25)) return Infinity;
  const logV = fam !== "normal";
  const pts = integrationPoints(m, fam);
  const moment = (g: (x: number) => number) =>
    integrateVector(
      (v, out) => {
        const x = logV ? Math.exp(v) : v;
        const lf = m.logpdf(x);
        out[0] = lf === -Infinity ? 0 : g(x) * Math.exp(lf + (logV ? v : 0));
      },
      1,
      pts,
      { relTol: 1e-12 },
    ).value[0];
  const mu = moment((x) => x);
  const m2 = moment((x) => (x - mu) ** 2),
    m4 = moment((x) => (x - mu) ** 4);
  return m4 / (m2 * m2);
}

/** Mean of the mixture (∞ where a component has none: loglogistic or Fréchet with σ ≥ 1). */
export function mixtureMean(m: Mixture): number {
  let s = 0;
  for (let j = 0; j < m.k; j++) {
    const a = m.a[j],
      b = m.b[j];
    let mu: number;
    switch (m.family.name) {
      case "normal":
        mu = a;
        break;
      case "gamma":
        mu = a * b;
        break;
      case "lognormal":
        mu = Math.exp(a + (b * b) / 2);
        break;
      case "weibull":
        mu = Math.exp(a + lgamma(1 + b));
        break;
      case "loglogistic":
        mu = b < 1 ? Math.exp(a) * ((Math.PI * b) / Math.sin(Math.PI * b)) : Infinity;
        break;
      case "frechet":
        mu = b < 1 ? Math.exp(a + lgamma(1 - b)) : Infinity;
        break;
    }
    s += m.w[j] * mu;
  }
  return s;
}

export type InformationKind = "expected" | "empirical";
export type CenterKind = "none" | "mean";

export interface DeltaOptions {
  information?: InformationKind;
  /** Runs for --information empirical. */
  data?: ArrayLike<number>;
  center?: CenterKind;
  bScale?: BScale;
}

export interface QuantileSE {
  q: number;
  xq: number;
  /** Standard error of x̂_q from one run (n = 1). */
  se1: number;
  /** Density at x_q. */
  f: number;
  g: Float64Array;
  /** x_q − c is 0: Γ is undefined. */
  atCenter: boolean;
}

export interface DeltaResult {
  quantiles: QuantileSE[];
  center: number;
  info: FisherInformation;
  rcond: number;
  singular: boolean;
  inexact: boolean;
}

/** Delta-method standard errors of the requested quantiles of a mixture (spec A.2.2–A.2.4). */
export function deltaQuantileSE(m: Mixture, qs: readonly number[], opts: DeltaOptions = {}): DeltaResult {
  const bScale = opts.bScale ?? "natural";
  const info = opts.information === "empirical" ? fisherEmpirical(m, opts.data ?? [], bScale) : fisherExpected(m, bScale);
  let scale = 0;
  for (const v of info.I) scale = Math.max(scale, Math.abs(v));
  // quadrature_inexact only matters beyond 1e-8 relative: otherwise the result stands
  const inexact = info.inexact;
  const unusable = inexact && info.error > 1e-8 * scale;
  const grads = qs.map((q) => quantileGradient(m, q, bScale));
  const qf = informationQuadForm(
    info.I,
    info.P,
    grads.map((g) => g.g),
  );
  const center = opts.center === "mean" ? mixtureMean(m) : 0;
  const quantiles = grads.map((g, i) => ({
    q: g.q,
    xq: g.xq,
    f: g.f,
    g: g.g,
    se1: unusable ? NaN : Math.sqrt(qf.values[i]),
    atCenter: g.xq - center === 0,
  }));
  return { quantiles, center, info, rcond: qf.rcond, singular: qf.singular, inexact };
}

/** Γ_q(n) = se1 / ((x_q − c) √n); NaN when x_q = c. */
export function gammaQ(se1: number, xq: number, center: number, n: number): number {
  const d = xq - center;
  return d === 0 ? NaN : se1 / (d * Math.sqrt(n));
}

/** n*_q(τ) = ⌈(se1 / (τ |x_q − c|))²⌉: the smallest n with |Γ_q(n)| ≤ τ (at least 1). */
export function quantileRunsNeeded(se1: number, xq: number, center: number, tau: number): number {
  const d = Math.abs(xq - center);
  if (d === 0 || !Number.isFinite(se1)) return NaN;
  const v = (se1 / (tau * d)) ** 2;
  // guard against v landing a rounding error above an integer
  return Math.max(1, Math.ceil(v * (1 - 4 * EPS)));
}

/** Order-statistic se1: sqrt(q(1 − q)) / f(x_q), the asymptotic SE of the sample quantile for n = 1. */
export function orderStatisticSE1(q: number, density: number): number {
  return density > 0 ? Math.sqrt(q * (1 - q)) / density : NaN;
}

/** Gaussian KDE with Silverman's bandwidth 0.9·min(s, IQR/1.34)·n^(−1/5). */
export function kdeDensity(data: ArrayLike<number>): (x: number) => number {
  const x = Float64Array.from(data).sort();
  const n = x.length;
  let mean = 0;
  for (const v of x) mean += v;
  mean /= n;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  const sd = Math.sqrt(ss / Math.max(1, n - 1));
  const q7 = (p: number) => {
    const h = (n - 1) * p,
      lo = Math.floor(h),
      hi = Math.min(lo + 1, n - 1);
    return x[lo] + (h - lo) * (x[hi] - x[lo]);
  };
  const iqr = q7(0.75) - q7(0.25);
  const spread = iqr > 0 ? Math.min(sd, iqr / 1.34) : sd;
  const h = 0.9 * spread * Math.pow(n, -0.2);
  return (t: number) => {
    let s = 0;
    for (const v of x) s += Math.exp(-0.5 * ((t - v) / h) ** 2);
    return s / (n * h * Math.sqrt(2 * Math.PI));
  };
}

/**
 * Bootstrap SE of x̂_q at n runs: R samples of size n drawn from the fitted mixture (stream keyed by
 * (seed, configuration, n, r)), each refitted with the same family and k by varmap's EM kernel (its own starts,
 * one batched call), SE = SD of the refitted quantiles.
 */
export function bootstrapQuantileSE(m: Mixture, qs: readonly number[], n: number, reps: number, seed: number, configId: number | string): number[] {
  const runs = new Float64Array(n * reps);
  const offsets = new Int32Array(reps + 1);
  // The EM kernel fits positive runs (it divides by their mean): a normal mixture of any location is shifted well
  // into the positive range and shifted back (its quantiles are location-equivariant).
  const shift = m.family.name === "normal" ? Math.max(0, ...m.a.map((a, j) => 12 * m.b[j] - a)) : 0;
  for (let r = 0; r < reps; r++) {
    const rng = counterRng(seed, "bootstrap", configId, n, r);
    const x = m.sample(n, () => rng.next());
    for (let i = 0; i < n; i++) runs[r * n + i] = x[i] + shift;
    offsets[r + 1] = (r + 1) * n;
  }
  const fit = mixtureFit(getBackend(), { runs, offsets, models: [[m.family.code, m.k]], seed, restarts: 3 });
  const values: number[][] = qs.map(() => []);
  for (let r = 0; r < reps; r++) {
    const p = fit.params.subarray(r * fit.pstride, r * fit.pstride + 3 * m.k);
    if (!Number.isFinite(fit.loglik[r])) continue;
    const k = m.k;
    const mr = new Mixture(m.family.name, Array.from(p.subarray(0, k)), Array.from(p.subarray(k, 2 * k)), Array.from(p.subarray(2 * k, 3 * k)));
    qs.forEach((q, i) => {
      values[i].push(mixtureQuantile(mr, q) - shift);
    });
  }
  return values.map((v) => {
    if (v.length < 2) return NaN;
    const mean = v.reduce((s, x) => s + x, 0) / v.length;
    return Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / (v.length - 1));
  });
}
