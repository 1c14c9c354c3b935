// Special functions, once. There are two log-gamma functions on purpose, each frozen by what depends on its last
// bits: lgamma is the kernels' (native/src/mixture.cc, wasm/mixture.ts) Stirling form, so TypeScript densities agree
// with the fitted ones; logGamma (Lanczos) sets the synthetic design's Weibull and Fréchet parameters, so changing
// it would change every seeded synthetic dataset. Both are accurate to ~1e-15 relative for x > 0.

export const LOG_SQRT_2PI = 0.9189385332046728;

/** log Γ(x), x > 0 (Stirling series after shifting above 15, as in the kernels). */
export function lgamma(x: number): number {
  let p = 1;
  while (x < 15) {
    p *= x;
    x += 1;
  }
  const xi = 1 / x,
    x2 = xi * xi;
  const series = xi * (1 / 12 + x2 * (-1 / 360 + x2 * (1 / 1260 + x2 * (-1 / 1680 + x2 * (1 / 1188 + x2 * (-691 / 360360))))));
  return (x - 0.5) * Math.log(x) - x + LOG_SQRT_2PI + series - Math.log(p);
}

/** log Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; ~1e-15 relative); the synthetic design's. */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Standard normal CDF via erfc (Cody-style rational approximations through Math functions). */
export function normCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}
/** erfc with ~1e-15 relative accuracy (Numerical Recipes' erfccheb-free continued fraction / series). */
export function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  if (x < 2) {
    // series for erf
    let sum = x,
      term = x;
    const x2 = x * x;
    for (let n = 1; n < 200; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // continued fraction (Lentz) for erfc
  const tiny = 1e-300;
  let f = x,
    C = x,
    D = 0;
  for (let n = 1; n < 500; n++) {
    const an = n / 2;
    D = x + an * D;
    D = Math.abs(D) < tiny ? tiny : D;
    C = x + an / C;
    C = Math.abs(C) < tiny ? tiny : C;
    D = 1 / D;
    const delta = C * D;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (f * Math.sqrt(Math.PI));
}
/** Standard normal quantile (Acklam's approximation refined by one Halley step). */
export function normQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - 0.02425) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const q = p - 0.5,
      r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const e = normCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/** Gamma log-density; for shapes >= 15 in the cancellation-free form the kernels use (Stirling). */
export function gammaLogpdf(x: number, a: number, th: number): number {
  if (a < 15) return -lgamma(a) - a * Math.log(th) + (a - 1) * Math.log(x) - x / th;
  const xi = 1 / a,
    x2 = xi * xi;
  const tail = xi * (1 / 12 + x2 * (-1 / 360 + x2 * (1 / 1260 + x2 * (-1 / 1680 + x2 * (1 / 1188 + x2 * (-691 / 360360))))));
  const u = x / (a * th) - 1;
  return 0.5 * Math.log(a) - LOG_SQRT_2PI - tail - a * (u - Math.log1p(u)) - Math.log(x);
}

/** Regularized lower incomplete gamma P(a, x) (series / continued fraction). */
export function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const lpre = a * Math.log(x) - x - lgamma(a);
  if (x < a + 1) {
    let ap = a,
      sum = 1 / a,
      del = sum;
    for (let n = 0; n < 100000; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * 1e-16) break;
    }
    return Math.min(1, sum * Math.exp(lpre));
  }
  const tiny = 1e-300;
  let b = x + 1 - a,
    c = 1 / tiny,
    d = 1 / b,
    h = d;
  for (let i = 1; i < 100000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return Math.max(0, 1 - Math.exp(lpre) * h);
}

/** Bisection on a monotone CDF (used where no closed-form inverse exists). */
export function invertCdf(cdf: (x: number) => number, p: number, lo: number, hi: number): number {
  while (cdf(lo) > p) lo = lo > 0 ? lo / 2 : lo * 2 - 1;
  while (cdf(hi) < p) hi = hi > 0 ? hi * 2 : hi / 2 + 1;
  for (let i = 0; i < 200 && hi - lo > 1e-15 * Math.max(Math.abs(lo), Math.abs(hi)); i++) {
    const mid = 0.5 * (lo + hi);
    if (cdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/** Marsaglia–Tsang gamma draw with unit scale from a stream of uniforms. */
export function gammaDraw(shape: number, next: () => number): number {
  if (shape < 1) return gammaDraw(shape + 1, next) * Math.pow(next(), 1 / shape);
  const d = shape - 1 / 3,
    c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      x = normQuantile(next());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}
