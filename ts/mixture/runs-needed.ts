// Runs needed for the moments (spec A.2.5): the relative standard error Γ(n) of the mean, variance and standard
// deviation of n runs, and the smallest n that brings it under a target. Shared by `samplesize` (next to the
// quantile rule of the delta method) and `whatif` (seed 004 §2.5's "95% confidence, ±5% relative error" rule).
import { VarmapError } from "../errors.js";
import { tQuantile } from "../data/stats.js";
import { normQuantile } from "./families.js";

/** Relative SE of the mean of n runs: CV/√n. */
export function meanGamma(cv: number, n: number): number {
  return cv / Math.sqrt(n);
}

/** Relative SE of the sample variance: sqrt(2/(n−1) + (κ−3)/n), κ the non-excess kurtosis (3 = normal). */
export function varGamma(n: number, kurtosis = 3): number {
  return Math.sqrt(2 / (n - 1) + (kurtosis - 3) / n);
}

/** Relative SE of the sample sd (and of a CI width, which is proportional to it): half that of the variance. */
export function sdGamma(n: number, kurtosis = 3): number {
  return 0.5 * varGamma(n, kurtosis);
}

/** SE form for the mean: n = ⌈(CV/τ)²⌉ (at least 2). */
export function meanRunsNeededSE(cv: number, tau: number): number {
  checkTarget(tau, "relative standard error");
  return Math.max(2, Math.ceil((cv / tau) ** 2 - 1e-12));
}

/**
 * CI form for the mean: the smallest n ≥ 2 with t_{1−α/2, n−1}·CV/√n ≤ ε, where level = 1 − α. Starts at the
 * normal-theory guess ⌈(z·CV/ε)²⌉, steps up while the inequality fails, then down while it still holds.
 * ε = 0.05, level 0.95: CV 0.02 → 3, 0.1 → 18, 0.2 → 64, 0.5 → 387.
 */
export function meanRunsNeededCI(cv: number, precision: number, level = 0.95, maxRuns = 1e7): number {
  checkTarget(precision, "relative CI half-width");
  checkLevel(level);
  if (!(cv >= 0) || !Number.isFinite(cv)) return NaN;
  if (cv === 0) return 2;
  const p = 1 - (1 - level) / 2;
  const ok = (n: number): boolean => (tQuantile(p, n - 1) * cv) / Math.sqrt(n) <= precision;
  let n = Math.max(2, Math.ceil(((normQuantile(p) * cv) / precision) ** 2));
  while (!ok(n)) {
    if (n >= maxRuns) return Infinity;
    n++;
  }
  while (n > 2 && ok(n - 1)) n--;
  return n;
}

/** The smallest n ≥ 2 with gamma(n) ≤ tau for a decreasing gamma (scan upward from an asymptotic guess). */
export function runsNeededMonotone(gamma: (n: number) => number, tau: number, guess = 2, maxRuns = 1e7): number {
  checkTarget(tau, "relative standard error");
  let n = Math.max(2, Math.floor(guess));
  while (n > 2 && gamma(n - 1) <= tau) n--;
  while (!(gamma(n) <= tau)) {
    if (n >= maxRuns) return Infinity;
    n = n < 64 ? n + 1 : Math.ceil(n * 1.01);
  }
  // A geometric step may overshoot: walk back to the smallest n.
  while (n > 2 && gamma(n - 1) <= tau) n--;
  return n;
}

/** Runs needed for the variance (κ from the sample or a model). */
export function varRunsNeeded(tau: number, kurtosis = 3): number {
  const k = Math.max(1, kurtosis);
  return runsNeededMonotone((n) => varGamma(n, k), tau, 1 + (2 + (k - 3)) / (tau * tau));
}

/** Runs needed for the sd (and for a CI width). */
export function sdRunsNeeded(tau: number, kurtosis = 3): number {
  const k = Math.max(1, kurtosis);
  return runsNeededMonotone((n) => sdGamma(n, k), tau, 1 + (2 + (k - 3)) / (4 * tau * tau));
}

function checkTarget(x: number, what: string): void {
  if (!(x > 0) || !Number.isFinite(x))
    throw new VarmapError("E_USAGE", `the ${what} target ${x} is not a positive number`, { remedy: "give a target such as 0.05 (5%)" });
}

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1)) throw new VarmapError("E_USAGE", `the confidence level ${level} is not in (0, 1)`, { remedy: "give a level such as 0.95" });
}
