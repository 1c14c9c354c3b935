// Special functions, once. There are two log-gamma functions on purpose, each frozen by what depends on its last
// bits: lgamma is the kernels' (native/src/mixture.cc, wasm/mixture.ts) Stirling form, so TypeScript densities agree
// with the fitted ones; logGamma (Lanczos) sets the synthetic design's Weibull and Fréchet parameters, so changing
// it would change every seeded synthetic dataset. Both are accurate to ~1e-15 relative for x > 0.

const LOG_SQRT_2PI = 0.9189385332046728;

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
