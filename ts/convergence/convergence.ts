// Confidence-interval convergence (seed 000 §6, Fig. 10; spec A.3): the width W(m) of the (1 − α) CI of the sd
// (chi-square interval) or of the mean (Student t) from m of a configuration's N runs, its "way towards full
// convergence" c(m) = (W(m₀) − W(m)) / (W(m₀) − W(N)), the convergence points m_ℓ (smallest m with c(m) ≥ ℓ), the
// analytic baseline (s held constant: c(m) depends on m, m₀, N and α only), and the runs needed for a target
// relative half-width.
import { counterRng } from "../data/random.js";
import { tQuantile } from "../data/stats.js";
import { gammaP } from "../util/special.js";
import { meanRunsNeededCI, runsNeededMonotone } from "../mixture/runs-needed.js";

export type CiKind = "sd" | "mean";
export type SubsetMode = "average" | "nested" | "order";

const chiCache = new Map<string, number>();

/** Quantile p of χ² with ν degrees of freedom: bisection on the regularized incomplete gamma, relative 1e-14. */
export function chiSquareQuantile(p: number, nu: number): number {
  const key = `${p}:${nu}`;
  const hit = chiCache.get(key);
  if (hit !== undefined) return hit;
  const cdf = (x: number) => gammaP(nu / 2, x / 2);
  let lo = 0,
    hi = Math.max(1, nu);
  while (cdf(hi) < p) hi *= 2;
  for (let i = 0; i < 400 && hi - lo > 1e-14 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (cdf(mid) < p) lo = mid;
    else hi = mid;
  }
  const x = 0.5 * (lo + hi);
  chiCache.set(key, x);
  return x;
}

/** The CI of σ or of the mean from m runs with sample sd 1 (and mean 0): [lower, upper] offsets. */
export function ciFactors(kind: CiKind, m: number, level: number): { lower: number; upper: number; width: number } {
  const alpha = 1 - level;
  if (kind === "sd") {
    const lower = Math.sqrt((m - 1) / chiSquareQuantile(1 - alpha / 2, m - 1));
    const upper = Math.sqrt((m - 1) / chiSquareQuantile(alpha / 2, m - 1));
    return { lower, upper, width: upper - lower };
  }
  const h = tQuantile(1 - alpha / 2, m - 1) / Math.sqrt(m);
  return { lower: -h, upper: h, width: 2 * h };
}

/** c(m) over m = m0..N from widths W (index m − m0); NaN everywhere when W(m0) = W(N) (flat). */
export function convergenceCurve(w: ArrayLike<number>): Float64Array {
  const w0 = w[0],
    wN = w[w.length - 1];
  return Float64Array.from(w, (v) => (w0 === wN ? NaN : (w0 - v) / (w0 - wN)));
}

/** Smallest m with c(m) ≥ level (NaN if flat or never). */
export function convergencePoint(c: ArrayLike<number>, m0: number, level: number): number {
  for (let i = 0; i < c.length; i++) if (c[i] >= level) return m0 + i;
  return NaN;
}

/** The analytic baseline: convergence points with s constant. */
export function analyticPoints(kind: CiKind, m0: number, N: number, level: number, levels: readonly number[]): number[] {
  const w = Array.from({ length: N - m0 + 1 }, (_, i) => ciFactors(kind, m0 + i, level).width);
  const c = convergenceCurve(w);
  return levels.map((l) => convergencePoint(c, m0, l));
}

/**
 * s_m for m = m0..N (index m − m0): `average` the mean sd of B subsets of size m drawn without replacement from the
 * stream keyed by (seed, "convergence", configuration, m) (subset b is its b-th block of draws; subsets larger than
 * N/2 are drawn as complements); `nested` the first m runs of one seeded permutation; `order` the first m runs.
 */
export function subsetSds(runs: ArrayLike<number>, m0: number, mode: SubsetMode, reps: number, seed: number, configId: number | string): Float64Array {
  const N = runs.length;
  const out = new Float64Array(N - m0 + 1);
  // centred values: sums of squares without cancellation
  let mean = 0;
  for (let i = 0; i < N; i++) mean += runs[i];
  mean /= N;
  const x = Float64Array.from(runs, (v) => v - mean);
  let tot = 0,
    tot2 = 0;
  for (const v of x) {
    tot += v;
    tot2 += v * v;
  }
  const sdOf = (s: number, s2: number, m: number) => Math.sqrt(Math.max(0, (s2 - (s * s) / m) / (m - 1)));
  if (mode !== "average") {
    const order = Int32Array.from({ length: N }, (_, i) => i);
    if (mode === "nested") {
      const r = counterRng(seed, "convergence-nested", configId);
      for (let i = N - 1; i > 0; i--) {
        const j = r.int(i + 1);
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }
    let s = 0,
      s2 = 0;
    for (let i = 0; i < N; i++) {
      const v = x[order[i]];
      s += v;
      s2 += v * v;
      if (i + 1 >= m0) out[i + 1 - m0] = sdOf(s, s2, i + 1);
    }
    return out;
  }
  const perm = Int32Array.from({ length: N }, (_, i) => i);
  for (let m = m0; m <= N; m++) {
    if (m === N) {
      out[m - m0] = sdOf(tot, tot2, N);
      continue;
    }
    for (let i = 0; i < N; i++) perm[i] = i;
    const r = counterRng(seed, "convergence", configId, m);
    const draw = Math.min(m, N - m);
    let acc = 0;
    for (let b = 0; b < reps; b++) {
      let s = 0,
        s2 = 0;
      for (let i = 0; i < draw; i++) {
        const j = i + r.int(N - i);
        const t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        const v = x[perm[i]];
        s += v;
        s2 += v * v;
      }
      acc += draw === m ? sdOf(s, s2, m) : sdOf(tot - s, tot2 - s2, m);
    }
    out[m - m0] = acc / reps;
  }
  return out;
}

export interface ConvergenceOptions {
  kind: CiKind;
  level: number;
  m0: number;
  /** Largest m (default N). */
  to?: number;
  levels: number[];
  mode: SubsetMode;
  reps: number;
  seed: number;
  precision: number;
}

export interface ConvergenceResult {
  N: number;
  m0: number;
  /** m = m0..to */
  m: Int32Array;
  s: Float64Array;
  w: Float64Array;
  lower: Float64Array;
  upper: Float64Array;
  c: Float64Array;
  points: number[];
  analytic: number[];
  flat: boolean;
  /** Runs needed for a relative half-width ≤ precision (may exceed N). */
  needed: number;
  /** Relative half-width at N: W(N)/(2|x̄|) (mean) or W(N)/(2s) (sd). */
  relHalfWidthN: number;
}

/** The measured convergence of one configuration's runs (N ≥ m0 + 2 checked by the caller). */
export function measureConvergence(runs: ArrayLike<number>, o: ConvergenceOptions, configId: number | string): ConvergenceResult {
  const N = Math.min(runs.length, o.to ?? runs.length);
  const used = Array.prototype.slice.call(runs, 0, N) as number[];
  const s = subsetSds(used, o.m0, o.mode, o.reps, o.seed, configId);
  const len = N - o.m0 + 1;
  const m = Int32Array.from({ length: len }, (_, i) => o.m0 + i);
  let mean = 0;
  for (const v of used) mean += v;
  mean /= N;
  const w = new Float64Array(len),
    lower = new Float64Array(len),
    upper = new Float64Array(len);
  for (let i = 0; i < len; i++) {
    const f = ciFactors(o.kind, m[i], o.level);
    w[i] = f.width * s[i];
    lower[i] = o.kind === "sd" ? f.lower * s[i] : mean + f.lower * s[i];
    upper[i] = o.kind === "sd" ? f.upper * s[i] : mean + f.upper * s[i];
  }
  const c = convergenceCurve(w);
  const flat = w[0] === w[len - 1];
  const sN = s[len - 1];
  return {
    N,
    m0: o.m0,
    m,
    s,
    w,
    lower,
    upper,
    c,
    flat,
    points: o.levels.map((l) => convergencePoint(c, o.m0, l)),
    analytic: analyticPoints(o.kind, o.m0, N, o.level, o.levels),
    needed: runsNeededForPrecision(o.kind, sN / mean, o.precision, o.level),
    relHalfWidthN: w[len - 1] / (2 * (o.kind === "mean" ? Math.abs(mean) : sN)),
  };
}

/**
 * m*(ε): smallest m whose relative CI half-width is ≤ ε (W/(2|x̄|) = t·CV/√m for the mean, W/(2s) for the sd), from
 * the CV of all runs (mean) or from the factor alone (sd).
 */
export function runsNeededForPrecision(kind: CiKind, cv: number, precision: number, level: number): number {
  if (kind === "mean") return meanRunsNeededCI(Math.abs(cv), precision, level);
  return runsNeededMonotone((m) => ciFactors("sd", m, level).width / 2, precision, 2 + 1 / (2 * precision * precision));
}
