// The sampling variance of each configuration's statistic over its runs, by the jackknife: with θ_(i) the statistic
// of the runs without run i and θ̄ their mean, var ≈ (n − 1)/n Σ (θ_(i) − θ̄)². It works for every statistic a map
// models (mean, sd, var, cv, ci90, quantiles) with no distributional assumption: on the bimodal run distributions
// of real maps the variance of an sd differs by a factor 50 between configurations (through the kurtosis), which a
// formula assuming normal runs would miss. (For quantiles the jackknife is known to be inconsistent: its variance is
// a rough, noisy guide there.) A predictor that models per-point noise (gp) uses it as each point's known noise.
import { tQuantile, quantile7 } from "./stats.js";
import { QUANTILE_LEVELS, QUANTILE_NAMES, type ConfigTable, type StatName } from "./types.js";

/** Fewest runs a jackknife variance is computed from; below it the variance is NaN (unknown). */
export const JACKKNIFE_MIN_RUNS = 3;

/** Per configuration, the jackknife variance of `stat` over its runs (NaN with fewer than JACKKNIFE_MIN_RUNS runs). */
export function jackknifeVariances(table: Pick<ConfigTable, "count" | "runs" | "offsets">, stat: StatName): Float64Array {
  const out = new Float64Array(table.count);
  let sorted = new Float64Array(64),
    loo = new Float64Array(64),
    theta = new Float64Array(64);
  const quantile = stat === "q10" || stat === "q90";
  for (let c = 0; c < table.count; c++) {
    const a = table.offsets[c],
      n = table.offsets[c + 1] - a;
    if (n < JACKKNIFE_MIN_RUNS) {
      out[c] = NaN;
      continue;
    }
    if (theta.length < n) (sorted = new Float64Array(n)), (loo = new Float64Array(n)), (theta = new Float64Array(n));
    const runs = table.runs.subarray(a, a + n);
    if (quantile) {
      const x = sorted.subarray(0, n);
      x.set(runs);
      x.sort(); // leaving a run out of sorted runs keeps them sorted
      for (let i = 0; i < n; i++) {
        const s = loo.subarray(0, n - 1);
        for (let k = 0, o = 0; k < n; k++) if (k !== i) s[o++] = x[k];
        theta[i] = quantile7(s, QUANTILE_LEVELS[QUANTILE_NAMES.indexOf(stat)]);
      }
    } else leaveOneOutMoments(runs, stat, theta);
    let mean = 0;
    for (let i = 0; i < n; i++) mean += theta[i];
    mean /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (theta[i] - mean) ** 2;
    out[c] = ((n - 1) / n) * ss;
  }
  return out;
}

/**
 * theta[i] = the moment statistic (mean, var, sd, cv, ci90) of the runs without run i, for every i in O(n): with
 * d_k = x_k − x̄ and Q = Σ d_k², the sample without run i has mean x̄ − d_i/(n − 1) and sum of squared deviations
 * Q − d_i² n/(n − 1) (deviations from the full mean keep the sums exact where raw power sums would cancel).
 */
function leaveOneOutMoments(x: Float64Array, stat: Exclude<StatName, "q10" | "q90">, theta: Float64Array): void {
  const n = x.length;
  let sum = 0;
  for (let k = 0; k < n; k++) sum += x[k];
  const m = sum / n;
  let q = 0;
  for (let k = 0; k < n; k++) q += (x[k] - m) ** 2;
  const ci = stat === "ci90" ? (2 * tQuantile(0.95, n - 2)) / Math.sqrt(n - 1) : 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - m;
    const mean = m - d / (n - 1);
    const v = Math.max(0, q - (d * d * n) / (n - 1)) / (n - 2);
    theta[i] = stat === "mean" ? mean : stat === "var" ? v : stat === "sd" ? Math.sqrt(v) : stat === "cv" ? Math.sqrt(v) / mean : ci * Math.sqrt(v);
  }
}
