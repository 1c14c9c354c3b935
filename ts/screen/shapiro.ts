// Shapiro–Wilk W test of normality: Royston's algorithm AS R94 (Applied Statistics 44, 1995), in the form R's
// shapiro.test runs it (src/library/stats/src/swilk.c): coefficients from normal scores with Royston's polynomial
// corrections, W as the squared correlation of sorted data and coefficients (1 − W formed directly, for W near 1),
// and the p-value from Royston's normalizing transformations (exact for n = 3). Valid for 3 ≤ n ≤ 5000.
import { normCdf, normQuantile } from "../mixture/families.js";

export const SW_MIN_N = 3;
export const SW_MAX_N = 5000;

const C1 = [0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056];
const C2 = [0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633];
const C3 = [0.544, -0.39978, 0.025054, -6.714e-4];
const C4 = [1.3822, -0.77857, 0.062767, -0.0020322];
const C5 = [-1.5861, -0.31082, -0.083751, 0.0038915];
const C6 = [-0.4803, -0.082676, 0.0030302];
const G = [-2.273, 0.459];

/** c[0] + c[1] x + … + c[k−1] x^(k−1), evaluated as swilk.c's poly(). */
function poly(c: readonly number[], x: number): number {
  const k = c.length;
  let r = c[0];
  if (k > 1) {
    let p = x * c[k - 1];
    for (let j = k - 2; j > 0; j--) p = (p + c[j]) * x;
    r += p;
  }
  return r;
}

const coefCache = new Map<number, Float64Array>();

/** The coefficients a[1..n/2] (index 0 unused) for sample size n, cached: most configurations share n. */
function coefficients(n: number): Float64Array {
  let a = coefCache.get(n);
  if (a) return a;
  const nn2 = Math.floor(n / 2);
  a = new Float64Array(nn2 + 1);
  if (n === 3) {
    a[1] = Math.SQRT1_2;
  } else {
    const an25 = n + 0.25;
    let summ2 = 0;
    for (let i = 1; i <= nn2; i++) {
      const m = normQuantile((i - 0.375) / an25);
      a[i] = m;
      summ2 += m * m;
    }
    summ2 *= 2;
    const ssumm2 = Math.sqrt(summ2);
    const rsn = 1 / Math.sqrt(n);
    const a1 = poly(C1, rsn) - a[1] / ssumm2;
    let i1: number;
    let fac: number;
    if (n > 5) {
      i1 = 3;
      const a2 = -a[2] / ssumm2 + poly(C2, rsn);
      fac = Math.sqrt((summ2 - 2 * a[1] * a[1] - 2 * a[2] * a[2]) / (1 - 2 * a1 * a1 - 2 * a2 * a2));
      a[2] = a2;
    } else {
      i1 = 2;
      fac = Math.sqrt((summ2 - 2 * a[1] * a[1]) / (1 - 2 * a1 * a1));
    }
    a[1] = a1;
    for (let i = i1; i <= nn2; i++) a[i] /= -fac;
  }
  if (coefCache.size < 10000) coefCache.set(n, a);
  return a;
}

export interface ShapiroWilk {
  w: number;
  p: number;
}

/**
 * W and its p-value for a sample sorted ascending. NaN (both) when n is outside 3…5000 or the range is zero,
 * where R's shapiro.test stops with an error.
 */
export function shapiroWilk(sorted: ArrayLike<number>): ShapiroWilk {
  const n = sorted.length;
  const nan = { w: Number.NaN, p: Number.NaN };
  if (n < SW_MIN_N || n > SW_MAX_N) return nan;
  const rng0 = sorted[n - 1] - sorted[0];
  if (!(rng0 >= 1e-10) || !Number.isFinite(rng0)) return nan;
  // shapiro.test divides by the range when it is below 1 (then swilk divides by the new range, 1).
  const pre = Math.min(rng0, 1);
  const x = (i: number) => sorted[i] / pre;
  const a = coefficients(n);
  const range = x(n - 1) - x(0);
  if (range < 1e-19) return nan;
  const sign = (v: number) => (v > 0 ? 1 : v < 0 ? -1 : 0);
  let sx = x(0) / range;
  let sa = -a[1];
  for (let i = 1, j = n - 1; i < n; j--) {
    const xi = x(i) / range;
    sx += xi;
    i++;
    if (i !== j) sa += sign(i - j) * a[Math.min(i, j)];
  }
  sa /= n;
  sx /= n;
  let ssa = 0;
  let ssx = 0;
  let sax = 0;
  for (let i = 0, j = n - 1; i < n; i++, j--) {
    const asa = i !== j ? sign(i - j) * a[1 + Math.min(i, j)] - sa : -sa;
    const xsx = x(i) / range - sx;
    ssa += asa * asa;
    ssx += xsx * xsx;
    sax += asa * xsx;
  }
  const ssassx = Math.sqrt(ssa * ssx);
  const w1 = ((ssassx - sax) * (ssassx + sax)) / (ssa * ssx);
  const w = 1 - w1;
  if (n === 3) {
    const pi6 = 1.90985931710274;
    const stqr = 1.0471975511966;
    return { w, p: Math.max(0, pi6 * (Math.asin(Math.sqrt(w)) - stqr)) };
  }
  let y = Math.log(w1);
  const lxx = Math.log(n);
  let m: number;
  let s: number;
  if (n <= 11) {
    const gamma = poly(G, n);
    if (y >= gamma) return { w, p: 1e-99 };
    y = -Math.log(gamma - y);
    m = poly(C3, n);
    s = Math.exp(poly(C4, n));
  } else {
    m = poly(C5, lxx);
    s = Math.exp(poly(C6, lxx));
  }
  return { w, p: normCdf(-(y - m) / s) };
}
