// Per-configuration sequential stopping (issue 43): a measured configuration's statistic has a confidence interval
// from the jackknife variance over its runs (ts/data/stat-variance.ts: no normality assumed, the kurtosis of real
// run distributions enters); the configuration stops receiving runs when the interval's relative half-width reaches
// the requested precision, or when it holds --max-runs runs (more would not pay within the campaign's cap).
//
// What the precision is measured against. With "cap" (the default) the interval is for the statistic the
// configuration would have at --max-runs runs (finite-population correction 1 − n/max): "±10 % at 90 %" then means
// "with 90 % confidence, the runs still allowed would not move the sd by more than 10 %". Against the true value
// ("true", no correction) ±10 % on an sd at 90 % needs ≈ 135 runs of normal data (z²/(2ε²)), beyond any cap a
// campaign like MOANA's (40) sets, so every configuration would simply run to the cap.
import { VarmapError } from "../errors.js";
import { jackknifeVariances } from "../data/stat-variance.js";
import { configStats, statValues, tQuantile } from "../data/stats.js";
import type { StatName } from "../data/types.js";

export type PrecisionAgainst = "cap" | "true";

export interface StoppingRule {
  stat: StatName;
  /** Relative half-width of the statistic's CI to reach (e.g. 0.1); undefined: no precision target. */
  precision?: number;
  /** Confidence level of that interval (e.g. 0.9). */
  level: number;
  /** Runs a new configuration gets at once, and the fewest a configuration stops at. */
  minRuns: number;
  /** The most runs a configuration receives. */
  maxRuns: number;
  against: PrecisionAgainst;
}

export interface ConfigEstimate {
  /** Runs measured per configuration. */
  n: Int32Array;
  /** The statistic (NaN with too few runs). */
  value: Float64Array;
  /** Relative sampling variance of the statistic, var/value² (NaN when unknown). */
  relVar: Float64Array;
  /** Relative CI half-width now (NaN when unknown). */
  halfWidth: Float64Array;
  /** Runs the precision needs in total (by the per-run variance now), capped at maxRuns; NaN without precision. */
  needed: Float64Array;
  /** 1: no more runs (precision reached or at the cap). */
  converged: Uint8Array;
}

export function zOf(level: number): number {
  return tQuantile(0.5 + level / 2, 1e7);
}

export function checkRule(rule: StoppingRule): void {
  const bad = (flag: string, v: unknown, remedy: string) => new VarmapError("E_USAGE", `${flag} ${String(v)} is not valid`, { remedy });
  if (rule.precision !== undefined && !(rule.precision > 0 && rule.precision < 1))
    throw bad("--precision", rule.precision, "give a relative half-width in (0, 1), e.g. --precision 0.1");
  if (!(rule.level > 0 && rule.level < 1)) throw bad("--level", rule.level, "give a confidence level in (0, 1), e.g. --level 0.9");
  if (!(Number.isInteger(rule.minRuns) && rule.minRuns >= 3)) throw bad("--min-runs", rule.minRuns, "give an integer ≥ 3 (the jackknife needs 3 runs)");
  if (!(Number.isInteger(rule.maxRuns) && rule.maxRuns >= rule.minRuns))
    throw bad("--max-runs", rule.maxRuns, `give an integer ≥ --min-runs (${rule.minRuns})`);
}

/** Estimates of every configuration from its runs (runs[c] in recorded order). */
export function estimate(runs: readonly (readonly number[])[], rule: StoppingRule): ConfigEstimate {
  const count = runs.length;
  const offsets = new Int32Array(count + 1);
  for (let c = 0; c < count; c++) offsets[c + 1] = offsets[c] + runs[c].length;
  const flat = new Float64Array(offsets[count]);
  runs.forEach((r, c) => flat.set(r, offsets[c]));
  const table = { count, runs: flat, offsets };
  const stats = configStats(table);
  const value = Float64Array.from(statValues(stats, rule.stat));
  const jack = jackknifeVariances(table, rule.stat);
  const z = zOf(rule.level);
  const n = new Int32Array(count);
  const relVar = new Float64Array(count);
  const halfWidth = new Float64Array(count);
  const needed = new Float64Array(count);
  const converged = new Uint8Array(count);
  for (let c = 0; c < count; c++) {
    const k = runs[c].length;
    n[c] = k;
    if (k < 2) value[c] = NaN;
    const rv = Number.isFinite(jack[c]) && value[c] !== 0 && Number.isFinite(value[c]) ? jack[c] / (value[c] * value[c]) : NaN;
    relVar[c] = rv;
    const fpc = rule.against === "cap" ? Math.max(0, 1 - k / rule.maxRuns) : 1;
    halfWidth[c] = Number.isFinite(rv) ? z * Math.sqrt(rv * fpc) : NaN;
    if (rule.precision === undefined) needed[c] = NaN;
    else if (!Number.isFinite(rv)) needed[c] = Math.max(rule.minRuns, k + 1);
    else {
      // z² v1 (1/m − 1/M) ≤ ε² with v1 = k·rv the per-run relative variance (M = ∞ against the true value).
      const v1 = k * rv;
      const inv = rule.against === "cap" ? 1 / rule.maxRuns : 0;
      const m = (z * z * v1) / (rule.precision * rule.precision + z * z * v1 * inv);
      needed[c] = Math.min(rule.maxRuns, Math.max(rule.minRuns, Math.ceil(m)));
    }
    converged[c] =
      k >= rule.maxRuns || (rule.precision !== undefined && k >= rule.minRuns && Number.isFinite(halfWidth[c]) && halfWidth[c] <= rule.precision) ? 1 : 0;
  }
  return { n, value, relVar, halfWidth, needed, converged };
}

/**
 * Runs to add to a configuration that has not converged: half the gap to the runs the precision needs (at least 2,
 * at most the cap), so an estimate made on few runs is revised before it commits many more.
 */
export function topUp(e: ConfigEstimate, c: number, rule: StoppingRule): number {
  const k = e.n[c];
  if (e.converged[c] || !Number.isFinite(e.needed[c])) return 0;
  const gap = e.needed[c] - k;
  if (gap <= 0) return Math.min(2, rule.maxRuns - k);
  return Math.min(rule.maxRuns - k, Math.max(2, Math.ceil(gap / 2)));
}
