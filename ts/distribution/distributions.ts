// Predicted run distributions (spec E.2): every method's output is one of these, and everything downstream (KS,
// W1, moments, quantile/CDF/mixture output) goes through this interface. CDFs are right-continuous with left
// limits, so one KS formula serves continuous predictions and step functions alike (see ks.ts).
import { normCdf, normQuantile, type FamilyName, FAMILIES, invertCdf } from "../mixture/families.js";

/**
 * Values whose largest magnitude `m` lies outside [2^-MOMENT_SAFE_EXPONENT, 2^MOMENT_SAFE_EXPONENT] have their
 * moments computed divided by a power of two near m, then multiplied back (issue 44): the squared deviations of runs
 * near 1e298 overflowed (sd = Infinity: locscale scored KS 0 everywhere) and those of runs near 1e-300 underflowed to
 * 0. Powers of two divide exactly, and values inside the band are summed as before, bit for bit.
 */
export const MOMENT_SAFE_EXPONENT = 256;

/** The exponent e to divide values of largest magnitude m by 2^e before squaring them (0 inside the safe band). */
export function momentExponent(m: number): number {
  const k = m > 0 && m < Infinity ? Math.floor(Math.log2(m)) : 0;
  return Math.abs(k) > MOMENT_SAFE_EXPONENT ? k : 0;
}

/** The largest magnitude among values (NaN when one is NaN). */
export function maxAbs(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]));
  return m;
}

export interface RunDistribution {
  readonly kind: "quantile" | "edf-mixture" | "pchip-mixture" | "normal" | "mixture";
  /** F(x) = P(X <= x). */
  cdf(x: number): number;
  /** F(x−) = P(X < x). */
  cdfLeft(x: number): number;
  /** Generalized inverse: the smallest x with F(x) >= p (p in [0, 1]; may be ±Infinity at 0 and 1 for unbounded laws). */
  quantile(p: number): number;
  mean(): number;
  /** Standard deviation of the distribution itself. */
  sd(): number;
  /** quantile() at many levels; a distribution may make repeated level sets cheap (the normal caches z). */
  quantiles?(ps: Float64Array): Float64Array;
}

/** First index i in [lo, hi) with a[i] > x (a ascending). */
export function upperBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i in [lo, hi) with a[i] >= x (a ascending). */
export function lowerBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A piecewise-linear quantile function through (levels[j], values[j]), levels from 0 to 1 ascending, values
 * nondecreasing (quantile, locscale, per-level). Its CDF is the inverse: continuous where values increase,
 * jumping where a segment is flat (tied order statistics).
 */
export class QuantileFunction implements RunDistribution {
  readonly kind = "quantile";
  constructor(
    readonly levels: Float64Array,
    readonly values: Float64Array,
    /**
     * Mean and sd to report instead of the piecewise-linear function's own: for averaged order statistics the
     * sample mean and sd (n − 1) of the averaged sample, so that one configuration with weight 1 reports exactly
     * its own mean and sd, as the scalar maps do.
     */
    private readonly sampleMoments?: [number, number],
  ) {}

  quantile(p: number): number {
    const P = this.levels,
      V = this.values,
      L = P.length - 1;
    if (!(p > 0)) return V[0];
    if (p >= 1) return V[L];
    const j = Math.min(upperBound(P, p) - 1, L - 1);
    const h = P[j + 1] - P[j];
    return h > 0 ? V[j] + ((p - P[j]) / h) * (V[j + 1] - V[j]) : V[j + 1];
  }

  /** quantile() at ascending levels by one sweep over the knots (the W1 integral of every test configuration). */
  quantiles(ps: Float64Array): Float64Array {
    const P = this.levels,
      V = this.values,
      L = P.length - 1,
      out = new Float64Array(ps.length);
    let j = 0;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      if (!(p > 0)) out[i] = V[0];
      else if (p >= 1) out[i] = V[L];
      else {
        while (j < L - 1 && P[j + 1] <= p) j++; // P[j] <= p < P[j + 1], as upperBound − 1 gives
        const h = P[j + 1] - P[j];
        out[i] = h > 0 ? V[j] + ((p - P[j]) / h) * (V[j + 1] - V[j]) : V[j + 1];
      }
    }
    return out;
  }

  cdf(x: number): number {
    const P = this.levels,
      V = this.values,
      L = P.length - 1;
    if (x < V[0]) return 0;
    if (x >= V[L]) return 1;
    const j = upperBound(V, x) - 1; // V[j] <= x < V[j + 1]
    return P[j] + ((x - V[j]) / (V[j + 1] - V[j])) * (P[j + 1] - P[j]);
  }

  cdfLeft(x: number): number {
    const P = this.levels,
      V = this.values,
      L = P.length - 1;
    if (x <= V[0]) return 0;
    if (x > V[L]) return 1;
    const j = lowerBound(V, x); // V[j − 1] < x <= V[j]
    return P[j - 1] + ((x - V[j - 1]) / (V[j] - V[j - 1])) * (P[j] - P[j - 1]);
  }

  mean(): number {
    if (this.sampleMoments) return this.sampleMoments[0];
    const P = this.levels,
      V = this.values;
    let s = 0;
    for (let j = 0; j + 1 < P.length; j++) s += (P[j + 1] - P[j]) * (V[j] + V[j + 1]) * 0.5;
    return s;
  }

  sd(): number {
    // ∫ Q² dp over a linear piece from a to b: (a² + ab + b²) / 3 per unit level; centred on the mean for accuracy.
    if (this.sampleMoments) return this.sampleMoments[1];
    const P = this.levels,
      V = this.values,
      mu = this.mean();
    const e = momentExponent(maxAbs(V)),
      down = 2 ** -e;
    let s = 0;
    for (let j = 0; j + 1 < P.length; j++) {
      const a = (V[j] - mu) * down,
        b = (V[j + 1] - mu) * down;
      s += ((P[j + 1] - P[j]) * (a * a + a * b + b * b)) / 3;
    }
    return Math.sqrt(Math.max(s, 0)) * 2 ** e;
  }
}

/**
 * The convex combination of empirical CDFs, Σ w_i F_i (the group's CDF mixing, method `cdf`): a step function
 * jumping by w_i / n_i at every run of configuration i.
 */
export class EdfMixture implements RunDistribution {
  readonly kind = "edf-mixture";
  /** All runs merged ascending, with the cumulative probability at each. */
  private readonly x: Float64Array;
  private readonly cum: Float64Array;
  private readonly mu: number;
  private readonly sigma: number;

  /** samples[i]: configuration i's runs sorted ascending; w[i] its weight (>= 0, summing to 1). */
  constructor(samples: readonly Float64Array[], w: ArrayLike<number>) {
    const pts: [number, number][] = [];
    let mu = 0;
    samples.forEach((s, i) => {
      let si = 0;
      for (let k = 0; k < s.length; k++) {
        pts.push([s[k], i]);
        si += s[k];
      }
      mu += (w[i] * si) / s.length;
    });
    pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    this.x = Float64Array.from(pts, (p) => p[0]);
    this.cum = new Float64Array(pts.length);
    // F at each run as Σ_i w_i c_i / n_i from the counts c_i so far (not a running sum of w_i / n_i): one
    // configuration with weight 1 then gives exactly its EDF, i / n.
    const counts = new Float64Array(samples.length);
    const e = momentExponent(maxAbs(this.x)),
      down = 2 ** -e;
    let v = 0;
    pts.forEach(([xv, i], k) => {
      counts[i]++;
      let c = 0;
      for (let j = 0; j < samples.length; j++) if (counts[j] > 0) c += (w[j] * counts[j]) / samples[j].length;
      this.cum[k] = Math.min(c, 1);
      v += (w[i] / samples[i].length) * ((xv - mu) * down) * ((xv - mu) * down);
    });
    // The total weight is 1 up to rounding: pin the top so F reaches exactly 1.
    if (pts.length) this.cum[pts.length - 1] = 1;
    this.mu = mu;
    this.sigma = Math.sqrt(v) * 2 ** e;
  }

  cdf(x: number): number {
    const k = upperBound(this.x, x);
    return k === 0 ? 0 : this.cum[k - 1];
  }
  cdfLeft(x: number): number {
    const k = lowerBound(this.x, x);
    return k === 0 ? 0 : this.cum[k - 1];
  }
  quantile(p: number): number {
    if (!(p > 0)) return this.x[0];
    const k = lowerBound(this.cum, p - 1e-15 * p);
    return this.x[Math.min(k, this.x.length - 1)];
  }
  /** quantile() at ascending levels by one sweep. */
  quantiles(ps: Float64Array): Float64Array {
    const out = new Float64Array(ps.length),
      N = this.x.length;
    let k = 0;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      if (!(p > 0)) {
        out[i] = this.x[0];
        continue;
      }
      const t = p - 1e-15 * p;
      while (k < N - 1 && this.cum[k] < t) k++;
      out[i] = this.x[k];
    }
    return out;
  }
  mean(): number {
    return this.mu;
  }
  sd(): number {
    return this.sigma;
  }
}

/** Standard normal quantiles of level sets used again and again (the W1 grid of every test configuration). */
const zCache = new WeakMap<Float64Array, Float64Array>();

/** N(μ, σ²): the per-statistic baseline (method `normal`). */
export class NormalDistribution implements RunDistribution {
  readonly kind = "normal";
  constructor(
    readonly mu: number,
    readonly sigma: number,
  ) {}
  cdf(x: number): number {
    return this.sigma > 0 ? normCdf((x - this.mu) / this.sigma) : x >= this.mu ? 1 : 0;
  }
  cdfLeft(x: number): number {
    return this.sigma > 0 ? this.cdf(x) : x > this.mu ? 1 : 0;
  }
  quantile(p: number): number {
    if (!(this.sigma > 0)) return this.mu;
    if (!(p > 0)) return -Infinity;
    if (p >= 1) return Infinity;
    // Acklam's approximation, then two Newton steps on normCdf so that F(Q(p)) = p to rounding.
    let z = normQuantile(p);
    for (let it = 0; it < 2; it++) z -= (normCdf(z) - p) / (Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI));
    return this.mu + this.sigma * z;
  }
  quantiles(ps: Float64Array): Float64Array {
    if (!(this.sigma > 0)) return new Float64Array(ps.length).fill(this.mu);
    let z = zCache.get(ps);
    if (!z) zCache.set(ps, (z = Float64Array.from(ps, (p) => new NormalDistribution(0, 1).quantile(p))));
    return Float64Array.from(z, (v) => this.mu + this.sigma * v);
  }
  mean(): number {
    return this.mu;
  }
  sd(): number {
    return this.sigma;
  }
}

/** One component of a finite mixture whose components may belong to different families. */
export interface MixtureComponent {
  w: number;
  family: FamilyName;
  a: number;
  b: number;
}

/**
 * A finite mixture with a family per component: the `cdf` combination of per-configuration mixtures (R-MIX) is
 * one exactly, with components {(w_i π_ij, family_i, θ_ij)} (spec E.2), and so is `--dist params`.
 */
export class FamilyMixture implements RunDistribution {
  readonly kind = "mixture";
  private moments?: [number, number];
  constructor(readonly components: readonly MixtureComponent[]) {}

  pdf(x: number): number {
    let s = 0;
    for (const c of this.components) s += c.w * Math.exp(FAMILIES[c.family].logpdf(x, c.a, c.b));
    return s;
  }
  cdf(x: number): number {
    let s = 0;
    for (const c of this.components) s += c.w * FAMILIES[c.family].cdf(x, c.a, c.b);
    return Math.min(Math.max(s, 0), 1);
  }
  cdfLeft(x: number): number {
    return this.cdf(x);
  }
  quantile(p: number): number {
    const qs = this.components.map((c) => FAMILIES[c.family].quantile(p, c.a, c.b));
    if (this.components.length === 1) return qs[0];
    if (!(p > 0)) return Math.min(...qs);
    if (p >= 1) return Math.max(...qs);
    return invertCdf((x) => this.cdf(x), p, Math.min(...qs), Math.max(...qs));
  }
  mean(): number {
    return this.numericMoments()[0];
  }
  sd(): number {
    return this.numericMoments()[1];
  }
  /**
   * quantile() at ascending levels, interpolated: the CDF is tabulated on 2,049 points between the extreme
   * levels' quantiles and inverted by one sweep with linear interpolation (relative error ~1e-6 of the range;
   * for W1 and moments, where bisecting every level would dominate the run time).
   */
  quantiles(ps: Float64Array): Float64Array {
    const out = new Float64Array(ps.length);
    if (!ps.length) return out;
    const lo = this.quantile(ps[0]),
      hi = this.quantile(ps[ps.length - 1]);
    if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return out.fill(lo);
    const G = 2048;
    // (hi − lo)·j overflows for runs near 1e306 (issue 44): then the step first, the same grid to rounding.
    const at = (j: number) => {
      const t = (hi - lo) * j;
      return Number.isFinite(t) ? lo + t / G : lo + ((hi - lo) / G) * j;
    };
    const xs = Float64Array.from({ length: G + 1 }, (_, j) => (j === G ? hi : at(j)));
    const Fs = Float64Array.from(xs, (x) => this.cdf(x));
    let j = 0;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      while (j < G - 1 && Fs[j + 1] < p) j++;
      const dF = Fs[j + 1] - Fs[j];
      const t = dF > 0 ? Math.min(Math.max((p - Fs[j]) / dF, 0), 1) : 1;
      out[i] = xs[j] + t * (xs[j + 1] - xs[j]);
    }
    return out;
  }
  /** Moments by the midpoint rule over 4,000 levels of the quantile function (families differ in closed forms). */
  private numericMoments(): [number, number] {
    if (this.moments) return this.moments;
    const M = 4000;
    const q = this.quantiles(Float64Array.from({ length: M }, (_, j) => (j + 0.5) / M));
    let mu = 0;
    for (const v of q) mu += v / M;
    const e = momentExponent(maxAbs(q)),
      down = 2 ** -e;
    let v2 = 0;
    for (const v of q) v2 += ((v - mu) * down * ((v - mu) * down)) / M;
    return (this.moments = [mu, Math.sqrt(v2) * 2 ** e]);
  }
}
