// Kolmogorov–Smirnov validation of a predicted distribution against a held-out configuration's runs (spec E.3):
// the statistic, the group's rejection thresholds, the noise floor, and the scale-free W1 distance.
import type { RunDistribution } from "./distributions.js";

/** Significance levels of the rejection columns (the seed authors' tables). */
export const KS_LEVELS = [0.05, 0.01, 0.001, 1e-6] as const;
/** Column suffixes for KS_LEVELS, as Python's repr writes them (reject_0.05 … reject_1e-06). */
export const KS_LEVEL_NAMES = ["0.05", "0.01", "0.001", "1e-06"] as const;

export type KsTest = "two-sample" | "one-sample";

/** c(p) = sqrt(−½ ln(p/2)). */
export function ksCoefficient(p: number): number {
  return Math.sqrt(-0.5 * Math.log(p / 2));
}

/**
 * The rejection threshold for a test configuration with n runs: the group's two-sample convention
 * c(p)·sqrt(1/n + 1/n) (the prediction counted as a sample of the same size), or c(p)/sqrt(n) one-sample.
 */
export function ksThreshold(p: number, n: number, test: KsTest = "two-sample"): number {
  return test === "two-sample" ? ksCoefficient(p) * Math.sqrt(2 / n) : ksCoefficient(p) / Math.sqrt(n);
}

/** Median of the null two-sample KS statistic for two samples of n: 0.8276·sqrt(2/n) (the asymptotic median). */
export function ksNoiseFloor(n: number): number {
  return 0.8276 * Math.sqrt(2 / n);
}

/**
 * sup_x |F(x) − G_n(x)| with G_n the EDF of `sorted` (ascending). F is monotone and right-continuous, so between
 * two distinct sample values G_n is constant and the supremum is reached at F(v) or F(v−) of a sample value v:
 * exact for continuous F (scipy's kstest) and step functions (ks_2samp's EDF against EDF) alike.
 */
export function ksStatistic(F: Pick<RunDistribution, "cdf" | "cdfLeft">, sorted: ArrayLike<number>): number {
  const n = sorted.length;
  let d = 0;
  let i = 0;
  while (i < n) {
    const v = sorted[i];
    let j = i;
    while (j < n && sorted[j] === v) j++;
    const below = i / n,
      atOrBelow = j / n;
    const dl = Math.abs(F.cdfLeft(v) - below);
    const dr = Math.abs(F.cdf(v) - atOrBelow);
    if (dl > d) d = dl;
    if (dr > d) d = dr;
    i = j;
  }
  return d;
}

/** The W1 integration levels for n test runs: `sub` midpoints per step of the test EDF (cached: shared by every test). */
const w1Grids = new Map<string, Float64Array>();
function w1Grid(n: number, sub: number): Float64Array {
  const key = `${n},${sub}`;
  let g = w1Grids.get(key);
  if (!g) w1Grids.set(key, (g = Float64Array.from({ length: n * sub }, (_, j) => (Math.floor(j / sub) + ((j % sub) + 0.5) / sub) / n)));
  return g;
}

/**
 * W1 distance relative to the test mean: ∫₀¹ |Q(p) − Q_n(p)| dp / x̄ with Q_n the test EDF's quantile function
 * (x₍ᵢ₎ on ((i−1)/n, i/n]). Midpoint rule with `sub` cells per test step; scale-free.
 */
export function w1Relative(F: Pick<RunDistribution, "quantile" | "quantiles">, sorted: ArrayLike<number>, sub = 16): number {
  const n = sorted.length;
  const ps = w1Grid(n, sub);
  const q = F.quantiles ? F.quantiles(ps) : Float64Array.from(ps, (p) => F.quantile(p));
  let s = 0,
    mean = 0;
  for (let i = 0; i < n; i++) {
    mean += sorted[i] / n;
    for (let k = 0; k < sub; k++) s += Math.abs(q[i * sub + k] - sorted[i]);
  }
  return s / (n * sub) / Math.abs(mean);
}
