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
  for (let c = 0; c < table.count; c++) {
    const a = table.offsets[c],
      n = table.offsets[c + 1] - a;
    if (n < JACKKNIFE_MIN_RUNS) {
      out[c] = NaN;
      continue;
    }
    if (sorted.length < n) (sorted = new Float64Array(n)), (loo = new Float64Array(n)), (theta = new Float64Array(n));
    const x = sorted.subarray(0, n);
    x.set(table.runs.subarray(a, a + n));
    x.sort(); // leaving a run out of sorted runs keeps them sorted (the quantiles need that)
    for (let i = 0; i < n; i++) {
      const s = loo.subarray(0, n - 1);
      for (let k = 0, o = 0; k < n; k++) if (k !== i) s[o++] = x[k];
      theta[i] = statOfSample(s, stat);
    }
    let mean = 0;
    for (let i = 0; i < n; i++) mean += theta[i];
    mean /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (theta[i] - mean) ** 2;
    out[c] = ((n - 1) / n) * ss;
  }
  return out;
}

/** One statistic of a sorted sample, defined as ts/data/stats.ts defines it for a configuration's runs. */
function statOfSample(x: Float64Array, stat: StatName): number {
  const n = x.length;
  if (stat === "q10" || stat === "q90") return quantile7(x, QUANTILE_LEVELS[QUANTILE_NAMES.indexOf(stat)]);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i];
  const mean = sum / n;
  if (stat === "mean") return mean;
  let m2 = 0;
  for (let i = 0; i < n; i++) m2 += (x[i] - mean) ** 2;
  const v = m2 / (n - 1);
  switch (stat) {
    case "var":
      return v;
    case "sd":
      return Math.sqrt(v);
    case "cv":
      return Math.sqrt(v) / mean;
    case "ci90":
      return (2 * tQuantile(0.95, n - 1) * Math.sqrt(v)) / Math.sqrt(n);
  }
}
