// `--smooth pchip` (spec E.2 method 1, as Lux et al., Numerical Algorithms 2021, did on the MOANA data): each
// training configuration's empirical CDF is replaced by a monotone piecewise cubic Hermite interpolant
// (Fritsch–Carlson PCHIP), and the `cdf` method mixes these continuous CDFs instead of the step functions.
//
// Knots of one configuration's smoothed CDF (varmap's choice; the paper does not give its knot heights): its
// distinct run values v_1 < … < v_m, at height 0 at v_1, 1 at v_m, and in between the midpoint of the EDF's jump
// there, (F_n(v_k−) + F_n(v_k))/2 (Hazen's plotting position). The support stays [min, max] as the EDF's, the
// function is continuous and strictly increasing on it, and it converges to the EDF's limit as runs grow.
import { maxAbs, momentExponent, upperBound, type RunDistribution } from "./distributions.js";

/**
 * A monotone cubic Hermite interpolant through (x_k, y_k), x strictly ascending, y nondecreasing, with the
 * derivatives of scipy's PchipInterpolator: Fritsch–Butland's weighted harmonic mean of the neighbouring slopes
 * inside (0 where a slope is 0), the shape-preserving three-point formula at the ends; two knots give a line.
 */
export class Pchip {
  readonly d: Float64Array;
  constructor(
    readonly x: Float64Array,
    readonly y: Float64Array,
  ) {
    const n = x.length;
    const d = (this.d = new Float64Array(n));
    if (n < 2) return;
    const h = Float64Array.from({ length: n - 1 }, (_, k) => x[k + 1] - x[k]);
    const m = Float64Array.from({ length: n - 1 }, (_, k) => (y[k + 1] - y[k]) / h[k]);
    if (n === 2) {
      d[0] = d[1] = m[0];
      return;
    }
    for (let k = 1; k < n - 1; k++) {
      if (m[k - 1] * m[k] <= 0) continue; // a flat neighbour (or a turn): 0 keeps the interpolant monotone
      const w1 = 2 * h[k] + h[k - 1],
        w2 = h[k] + 2 * h[k - 1];
      d[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k]);
    }
    d[0] = endSlope(h[0], h[1], m[0], m[1]);
    d[n - 1] = endSlope(h[n - 2], h[n - 3], m[n - 2], m[n - 3]);
  }

  /** The interpolant at t, clamped to y_0 below x_0 and y_{n−1} above x_{n−1}. */
  value(t: number): number {
    const { x, y } = this;
    const n = x.length;
    if (t <= x[0]) return y[0];
    if (t >= x[n - 1]) return y[n - 1];
    const k = upperBound(x, t) - 1;
    return this.piece(k, t);
  }

  /** The cubic of interval k = [x_k, x_{k+1}] at t. */
  piece(k: number, t: number): number {
    const { x, y, d } = this;
    const h = x[k + 1] - x[k],
      s = (t - x[k]) / h,
      s2 = s * s,
      s3 = s2 * s;
    return y[k] * (2 * s3 - 3 * s2 + 1) + h * d[k] * (s3 - 2 * s2 + s) + y[k + 1] * (3 * s2 - 2 * s3) + h * d[k + 1] * (s3 - s2);
  }

  /** The derivative of the cubic of interval k at t. */
  slope(k: number, t: number): number {
    const { x, y, d } = this;
    const h = x[k + 1] - x[k],
      s = (t - x[k]) / h,
      s2 = s * s;
    return ((y[k + 1] - y[k]) * (6 * s - 6 * s2)) / h + d[k] * (3 * s2 - 4 * s + 1) + d[k + 1] * (3 * s2 - 2 * s);
  }
}

/** scipy's _edge_case: the three-point end slope, zeroed or limited to 3·m0 so the end stays monotone. */
function endSlope(h0: number, h1: number, m0: number, m1: number): number {
  const d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);
  if (Math.sign(d) !== Math.sign(m0)) return 0;
  if (Math.sign(m0) !== Math.sign(m1) && Math.abs(d) > Math.abs(3 * m0)) return 3 * m0;
  return d;
}

/** The PCHIP-smoothed CDF of sorted runs (knots as described at the top), or null when all runs are equal. */
export function pchipCdf(sorted: Float64Array): Pchip | null {
  const n = sorted.length;
  const xs: number[] = [],
    ys: number[] = [];
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && sorted[j] === sorted[i]) j++;
    xs.push(sorted[i]);
    ys.push((i + j) / (2 * n));
    i = j;
  }
  if (xs.length < 2) return null;
  ys[0] = 0;
  ys[ys.length - 1] = 1;
  return new Pchip(Float64Array.from(xs), Float64Array.from(ys));
}

// Three-point Gauss–Legendre on [0, 1]: exact for the degree-4 integrands of the moments of a cubic CDF.
const GL_T = [0.5 - 0.5 * Math.sqrt(0.6), 0.5, 0.5 + 0.5 * Math.sqrt(0.6)];
const GL_W = [5 / 18, 8 / 18, 5 / 18];

/**
 * Σ_i w_i P_i: the `cdf` method on PCHIP-smoothed EDFs. Continuous, so cdfLeft = cdf; a configuration whose runs
 * are all equal keeps its point mass (a step at that value). Quantiles invert the sum by safeguarded regula falsi
 * inside the bracket of knots that holds the level; mean and sd are exact (Gauss–Legendre on each cubic piece).
 */
export class PchipCdfMixture implements RunDistribution {
  readonly kind = "pchip-mixture";
  private readonly parts: { w: number; P: Pchip | null; at: number }[];
  /** All knots ascending with the mixture's CDF there (left limits where a point mass sits). */
  private readonly knots: Float64Array;
  private readonly mu: number;
  private readonly sigma: number;
  /**
   * Runs near 1e±300 are smoothed divided by a power of two, 2^e (issue 44, momentExponent): their slopes' weighted
   * harmonic means and X² overflow otherwise. Parts and knots are in those units; `up` = 2^e maps back (1 usually).
   */
  private readonly up: number;
  private readonly down: number;

  constructor(samples: readonly Float64Array[], w: ArrayLike<number>) {
    let big = 0;
    for (const s of samples) big = Math.max(big, maxAbs(s));
    const e = momentExponent(big);
    this.up = 2 ** e;
    this.down = 2 ** -e;
    const scaled = e ? samples.map((s) => Float64Array.from(s, (v) => v * this.down)) : samples;
    this.parts = scaled.map((s, i) => ({ w: w[i], P: pchipCdf(s), at: s[0] }));
    const all = new Set<number>();
    for (const p of this.parts)
      if (p.P) for (const v of p.P.x) all.add(v);
      else all.add(p.at);
    this.knots = Float64Array.from(all).sort();
    let m1 = 0;
    for (const p of this.parts) m1 += p.w * (p.P ? pieceMoments(p.P)[0] : p.at);
    let v = 0;
    // Second moment about the mean, for accuracy: Σ w_i E_i[(X − μ)²] = Σ w_i (E_i X² − 2μ E_i X + μ²).
    for (const p of this.parts) {
      const [a, b] = p.P ? pieceMoments(p.P) : [p.at, p.at * p.at];
      v += p.w * (b - 2 * m1 * a + m1 * m1);
    }
    this.mu = m1 * this.up;
    this.sigma = Math.sqrt(Math.max(v, 0)) * this.up;
  }

  cdf(x: number): number {
    return this.cdfScaled(x * this.down);
  }
  cdfLeft(x: number): number {
    return this.cdfLeftScaled(x * this.down);
  }
  private cdfScaled(x: number): number {
    let s = 0;
    for (const p of this.parts) s += p.w * (p.P ? p.P.value(x) : x >= p.at ? 1 : 0);
    return Math.min(Math.max(s, 0), 1);
  }
  private cdfLeftScaled(x: number): number {
    let s = 0;
    for (const p of this.parts) s += p.w * (p.P ? p.P.value(x) : x > p.at ? 1 : 0);
    return Math.min(Math.max(s, 0), 1);
  }
  quantile(p: number): number {
    return this.quantileScaled(p) * this.up;
  }
  private quantileScaled(p: number): number {
    const K = this.knots;
    if (!(p > 0)) return K[0];
    if (p >= 1 || K.length === 1) return K[K.length - 1];
    // The first knot with F >= p, then the root of F − p between it and the knot before.
    let lo = 0,
      hi = K.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdfScaled(K[mid]) >= p) hi = mid;
      else lo = mid + 1;
    }
    if (lo === 0 || this.cdfLeftScaled(K[lo]) < p) return K[lo]; // at the start, or inside a point mass at K[lo]
    return this.root(K[lo - 1], K[lo], p);
  }
  quantiles(ps: Float64Array): Float64Array {
    return Float64Array.from(ps, (p) => this.quantile(p));
  }
  mean(): number {
    return this.mu;
  }
  sd(): number {
    return this.sigma;
  }

  /** F(x) = p on (a, b) with F(a) < p <= F(b−): Illinois regula falsi to F within 1e-15 or adjacent doubles. */
  private root(a: number, b: number, p: number): number {
    let fa = this.cdfScaled(a) - p,
      fb = this.cdfLeftScaled(b) - p;
    let side = 0;
    for (let it = 0; it < 200 && b - a > 2 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b)); it++) {
      let c = fb > fa ? (a * fb - b * fa) / (fb - fa) : 0.5 * (a + b);
      // Every fourth step bisects, so a stalled side cannot slow convergence below bisection's.
      if (!(c > a && c < b) || it % 4 === 3) c = 0.5 * (a + b);
      const fc = this.cdfScaled(c) - p;
      if (Math.abs(fc) <= 1e-15) return c;
      if (fc < 0) {
        a = c;
        fa = fc;
        if (side === -1) fb /= 2;
        side = -1;
      } else {
        b = c;
        fb = fc;
        if (side === 1) fa /= 2;
        side = 1;
      }
    }
    return -fa < fb ? a : b;
  }
}

/** E X and E X² under one smoothed CDF (density P' on each piece; 3-point Gauss–Legendre is exact). */
function pieceMoments(P: Pchip): [number, number] {
  let m1 = 0,
    m2 = 0;
  for (let k = 0; k + 1 < P.x.length; k++) {
    const h = P.x[k + 1] - P.x[k];
    for (let g = 0; g < 3; g++) {
      const t = P.x[k] + GL_T[g] * h;
      const f = P.slope(k, t) * h * GL_W[g];
      m1 += t * f;
      m2 += t * t * f;
    }
  }
  return [m1, m2];
}
