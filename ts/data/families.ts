// The six run-distribution families of seed 001 (Table 2), parameterized here by mean and standard deviation
// (method of moments), with samplers driven by a CounterRng. Used by `varmap synth`.
import type { CounterRng } from "./random.js";
import { logGamma } from "./stats.js";

/** The families a sampler exists for (not to be confused with mixture/families.ts FAMILIES, the fitted families' definitions). */
export const SAMPLER_FAMILIES = ["normal", "gamma", "weibull", "lognormal", "loglogistic", "frechet"] as const;
export type Family = (typeof SAMPLER_FAMILIES)[number];

/**
 * The family's own parameters for mean m and standard deviation s (method of moments): normal (m, s); gamma
 * (shape, scale); lognormal (μ, σ of log x); Weibull (shape k, scale λ); log-logistic (shape β, scale α); Fréchet
 * (shape α, scale σ). The sampler and the law (familyLaw) both start from these, so they describe the same draws.
 */
function familyParameters(family: Family, m: number, s: number): [number, number] {
  const cv = s / m;
  switch (family) {
    case "normal":
      return [m, s];
    case "gamma": {
      const shape = 1 / (cv * cv);
      return [shape, m / shape];
    }
    case "lognormal": {
      const s2 = Math.log1p(cv * cv);
      return [Math.log(m) - s2 / 2, Math.sqrt(s2)];
    }
    case "weibull": {
      // cv² = Γ(1+2/k)/Γ(1+1/k)² − 1, decreasing in the shape k.
      const k = solveDecreasing((k) => Math.exp(logGamma(1 + 2 / k) - 2 * logGamma(1 + 1 / k)) - 1, cv * cv, 0.2, 200);
      return [k, m / Math.exp(logGamma(1 + 1 / k))];
    }
    case "loglogistic": {
      // b = π/β: mean = α b / sin b, E X² = α² 2b / sin 2b (β > 2).
      const cv2 = (beta: number) => {
        const b = Math.PI / beta;
        return (2 * b) / Math.sin(2 * b) / Math.pow(b / Math.sin(b), 2) - 1;
      };
      const beta = solveDecreasing(cv2, cv * cv, 2.0001, 500);
      const b = Math.PI / beta;
      return [beta, m / (b / Math.sin(b))];
    }
    case "frechet": {
      // mean = σ Γ(1 − 1/α), E X² = σ² Γ(1 − 2/α) (α > 2).
      const cv2 = (a: number) => Math.exp(logGamma(1 - 2 / a) - 2 * logGamma(1 - 1 / a)) - 1;
      const a = solveDecreasing(cv2, cv * cv, 2.0001, 500);
      return [a, m / Math.exp(logGamma(1 - 1 / a))];
    }
  }
}

/** A sampler of one family with the given mean m > 0 and standard deviation s > 0. */
export function familySampler(family: Family, m: number, s: number): (r: CounterRng) => number {
  const [p, q] = familyParameters(family, m, s);
  switch (family) {
    case "normal":
      return (r) => p + q * r.normal();
    case "gamma":
      return (r) => q * gammaDeviate(r, p);
    case "lognormal":
      return (r) => Math.exp(p + q * r.normal());
    case "weibull":
      return (r) => q * Math.pow(-Math.log(1 - r.next()), 1 / p);
    case "loglogistic":
      return (r) => {
        const u = r.next();
        return q * Math.pow((u + 1e-300) / (1 - u), 1 / p);
      };
    case "frechet":
      return (r) => q * Math.pow(-Math.log(r.next() + 1e-300), -1 / p);
  }
}

/**
 * The law familySampler(family, m, s) draws from, as (a, b) in the fitted families' parameterization
 * (ts/mixture/families.ts): normal (mean, sd), gamma (shape, scale), and the log families (μ, σ) of log x — the
 * Weibull's λ(−ln(1−U))^(1/k) is log x = ln λ + (1/k)·ln(−ln(1−U)), and so on. (The uniforms' 1e-300 guards are
 * below any probability that matters.)
 */
export function familyLaw(family: Family, m: number, s: number): { family: Family; a: number; b: number } {
  const [p, q] = familyParameters(family, m, s);
  if (family === "normal" || family === "gamma" || family === "lognormal") return { family, a: p, b: q };
  return { family, a: Math.log(q), b: 1 / p };
}

/** The x in [lo, hi] where the decreasing f(x) = target (bisection on log x; clamped at the ends). */
function solveDecreasing(f: (x: number) => number, target: number, lo: number, hi: number): number {
  let a = Math.log(lo);
  let b = Math.log(hi);
  // Relative precision 1e-10 in the shape is plenty for synthetic data and costs half the log-gamma calls.
  while (b - a > 1e-10) {
    const mid = 0.5 * (a + b);
    if (f(Math.exp(mid)) > target) a = mid;
    else b = mid;
  }
  return Math.exp(0.5 * (a + b));
}

/** Gamma(shape, 1) deviate (Marsaglia & Tsang 2000; shape < 1 by the U^(1/shape) boost). */
export function gammaDeviate(r: CounterRng, shape: number): number {
  if (shape < 1) return gammaDeviate(r, shape + 1) * Math.pow(r.next() + 1e-300, 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const z = r.normal();
    const v0 = 1 + c * z;
    if (v0 <= 0) continue;
    const v = v0 * v0 * v0;
    const u = r.next();
    if (Math.log(u + 1e-300) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
}
