// Statistics of each configuration's runs: n, mean, sd (n − 1), variance, min, max, type-7 quantiles,
// skewness and the width of the 90% confidence interval of the mean.
import { QUANTILE_LEVELS, QUANTILE_NAMES, type ConfigStats, type ConfigTable, type QuantileName, type StatName } from "./types.js";
import { logGamma } from "../util/special.js";

/** Statistics that need at least two runs per configuration. */
export function minRunsFor(stat: StatName): number {
  return stat === "sd" || stat === "var" || stat === "ci90" || stat === "cv" ? 2 : 1;
}

export function configStats(table: Pick<ConfigTable, "count" | "runs" | "offsets">): ConfigStats {
  const { count, runs, offsets } = table;
  const mk = () => new Float64Array(count);
  const s: ConfigStats = {
    n: new Int32Array(count),
    mean: mk(),
    sd: mk(),
    var: mk(),
    min: mk(),
    max: mk(),
    quantiles: Object.fromEntries(QUANTILE_NAMES.map((q) => [q, mk()])) as Record<QuantileName, Float64Array>,
    skewness: mk(),
    ci90: mk(),
  };
  let scratch = new Float64Array(64);
  for (let c = 0; c < count; c++) {
    const a = offsets[c];
    const n = offsets[c + 1] - a;
    s.n[c] = n;
    if (n === 0) {
      for (const arr of [s.mean, s.sd, s.var, s.min, s.max, s.skewness, s.ci90]) arr[c] = NaN;
      for (const q of QUANTILE_NAMES) s.quantiles[q][c] = NaN;
      continue;
    }
    if (scratch.length < n) scratch = new Float64Array(n);
    const x = scratch.subarray(0, n);
    x.set(runs.subarray(a, a + n));
    // Values beyond 2^±500 are summed scaled by an exact power of 2, so sums and squares neither overflow
    // (responses near 1e307) nor underflow (near 1e-310); within that range the scale is 1 and nothing changes.
    const k = powerOfTwoScale(x);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += x[i] * k;
    const meanK = sum / n;
    // Two passes: deviations from the mean keep sd exact to the last bits for large, tightly spread values.
    let m2 = 0;
    let m3 = 0;
    for (let i = 0; i < n; i++) {
      const d = x[i] * k - meanK;
      m2 += d * d;
      m3 += d * d * d;
    }
    const sd = n > 1 ? Math.sqrt(m2 / (n - 1)) / k : NaN;
    s.mean[c] = meanK / k;
    s.var[c] = n > 1 ? m2 / (n - 1) / k / k : NaN; // beyond 1.3e154 the variance itself is not representable: Infinity
    s.sd[c] = sd;
    x.sort();
    s.min[c] = x[0];
    s.max[c] = x[n - 1];
    QUANTILE_NAMES.forEach((q, k) => (s.quantiles[q][c] = quantile7(x, QUANTILE_LEVELS[k])));
    // Adjusted Fisher–Pearson G1 (as pandas, Excel, SAS): g1 · √(n(n−1)) / (n − 2), g1 = m3 / m2^1.5 (biased moments).
    const b2 = m2 / n;
    s.skewness[c] = n > 2 && b2 > 0 ? ((m3 / n / Math.pow(b2, 1.5)) * Math.sqrt(n * (n - 1))) / (n - 2) : NaN;
    s.ci90[c] = n > 1 ? (2 * tQuantile(0.95, n - 1) * sd) / Math.sqrt(n) : NaN;
  }
  return s;
}

/**
 * 1, or the power of 2 that brings max |x| into [1, 2) when it lies beyond 2^±limit. Multiplying by it is exact,
 * so sums of squares of extreme values can be formed without overflow or underflow and scaled back.
 */
export function powerOfTwoScale(x: ArrayLike<number>, limit = 500): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  if (m === 0 || !Number.isFinite(m) || (m < 2 ** limit && m > 2 ** -limit)) return 1;
  return 2 ** Math.min(1000, -Math.floor(Math.log2(m))); // 2^1000 at most: 2^1023 is the largest power of 2
}

/** The values of one named statistic (the map response). */
export function statValues(s: ConfigStats, stat: StatName): Float64Array {
  switch (stat) {
    case "sd":
      return s.sd;
    case "var":
      return s.var;
    case "mean":
      return s.mean;
    case "ci90":
      return s.ci90;
    case "q10":
      return s.quantiles.q10;
    case "q90":
      return s.quantiles.q90;
    case "cv":
      // coefficient of variation sd/mean: the natural map for run counts (n* ∝ CV², spec A.4)
      return s.sd.map((v, i) => v / s.mean[i]);
  }
}

/** Type-7 quantile (R's default, numpy's "linear") of sorted values. */
export function quantile7(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

const tCache = new Map<string, number>();

/** Quantile p ∈ (0.5, 1) of Student's t with ν degrees of freedom, by bisection on the incomplete beta CDF. */
export function tQuantile(p: number, nu: number): number {
  const key = `${p}:${nu}`;
  const hit = tCache.get(key);
  if (hit !== undefined) return hit;
  // P(T > t) = I_x(ν/2, 1/2) / 2 with x = ν / (ν + t²); solve I_x = 2(1 − p) for x, decreasing in t.
  const target = 2 * (1 - p);
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200 && hi - lo > 1e-17; i++) {
    const mid = 0.5 * (lo + hi);
    if (betaReg(mid, nu / 2, 0.5) < target) lo = mid;
    else hi = mid;
  }
  const x = 0.5 * (lo + hi);
  const t = Math.sqrt((nu * (1 - x)) / x);
  tCache.set(key, t);
  return t;
}

/** Regularized incomplete beta I_x(a, b) (continued fraction, modified Lentz). */
export function betaReg(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  if (x > (a + 1) / (a + b + 2)) return 1 - betaReg(1 - x, b, a);
  const tiny = 1e-300;
  let f = 1;
  let C = 1;
  let D = 0;
  for (let m = 0; m <= 10000; m++) {
    for (let half = 0; half < 2; half++) {
      let num: number;
      if (m === 0 && half === 0) num = 1;
      else if (half === 0) num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
      else num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
      D = 1 + num * D;
      if (Math.abs(D) < tiny) D = tiny;
      D = 1 / D;
      C = 1 + num / C;
      if (Math.abs(C) < tiny) C = tiny;
      const delta = C * D;
      f *= delta;
      if (Math.abs(delta - 1) < 1e-16) return (Math.exp(lnFront) * (f - 1)) / a;
    }
  }
  return (Math.exp(lnFront) * (f - 1)) / a;
}

// log Γ lives in util/special.ts; re-exported for existing importers.
export { logGamma };

/**
 * The distribution-free confidence interval of the p-quantile from n sorted runs (Hahn & Meeker, Statistical
 * Intervals, 1991, §5.2): order statistics x(l) ≤ ξp ≤ x(u) hold with probability P(l ≤ K ≤ u − 1), K ~ Binomial(n, p)
 * the runs below ξp. Equal tails: l the largest with P(K < l) ≤ α/2, u the smallest with P(K ≥ u) ≤ α/2. A side no
 * order statistic reaches is open (NaN): too few runs for that quantile at that level. `coverage` is the interval's
 * exact probability (≥ level when both sides are closed; the half-open interval's otherwise).
 */
export function quantileInterval(sorted: ArrayLike<number>, p: number, level: number): { low: number; high: number; coverage: number } {
  const n = sorted.length;
  const { l, u, coverage } = quantileRanks(n, p, level);
  return { low: l >= 1 ? sorted[l - 1] : Number.NaN, high: u <= n ? sorted[u - 1] : Number.NaN, coverage };
}

const ranksCache = new Map<string, { l: number; u: number; coverage: number }>();

/**
 * quantileInterval's order statistics (1-based; l = 0 and u = n + 1 mean open) and coverage: they depend on n, p and
 * the level only, so configurations with the same run count share one binomial computation.
 */
export function quantileRanks(n: number, p: number, level: number): { l: number; u: number; coverage: number } {
  const key = `${n}:${p}:${level}`;
  const hit = ranksCache.get(key);
  if (hit) return hit;
  const half = (1 - level) / 2;
  // cdf[k] = P(K ≤ k), from the binomial pmf in log space (n up to millions stays finite).
  const cdf = new Float64Array(n + 1);
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const lnn = logGamma(n + 1);
  let acc = 0;
  for (let k = 0; k <= n; k++) {
    acc += Math.exp(lnn - logGamma(k + 1) - logGamma(n - k + 1) + k * lp + (n - k) * lq);
    cdf[k] = Math.min(1, acc);
  }
  let l = 0;
  for (let k = 1; k <= n && cdf[k - 1] <= half; k++) l = k;
  let u = n + 1;
  for (let k = n; k >= 1 && 1 - cdf[k - 1] <= half; k--) u = k;
  const ranks = { l, u, coverage: (u <= n ? cdf[u - 1] : 1) - (l >= 1 ? cdf[l - 1] : 0) };
  if (ranksCache.size >= 10_000) ranksCache.clear(); // run counts are few; a bound all the same
  ranksCache.set(key, ranks);
  return ranks;
}

/** The fewest runs for which quantileInterval closes both sides: p^n ≤ α/2 and (1 − p)^n ≤ α/2. */
export function runsForQuantileInterval(p: number, level: number): number {
  return Math.ceil(Math.log((1 - level) / 2) / Math.log(Math.max(p, 1 - p)) - 1e-9);
}
