// One GEV fit per configuration (spec B.3): prepares each configuration's sample (lower tail, block maxima),
// fits a chunk of configurations in one kernel call, and turns each fit into the row of gev.csv (plus its
// diagnostics rows). Rows are plain JSON values, so a job task can return them.
import type { KernelBackend } from "../backend/kernel.js";
import { VarmapError, type ErrorCode } from "../errors.js";
import { gevFitBatch } from "../backend/kernels/gev.js";
import { counterRng } from "../data/random.js";
import {
  andersonDarling,
  blockMaxima,
  expectedCovarianceScaled,
  gevDiagnostics,
  gevFitFromBatch,
  gevScale,
  rescaleGevFit,
  gevNllh,
  ksStatistic,
  normQuantileUpper,
  profileReturnLevelInterval,
  profileShapeInterval,
  returnLevel,
  spdInverse,
  ellOfPeriod,
  gevQuantile,
  type DiagRow,
  type GevFit,
} from "./gev.js";

export interface GevRunOptions {
  /** upper: fit the runs; lower: fit −runs (minima), return levels given back on the runs' scale. */
  tail: "upper" | "lower";
  /** Fit the maxima of consecutive blocks of this many runs (1: every run). */
  block: number;
  /** Return periods T > 1. */
  periods: number[];
  /** Confidence level of the Wald and profile intervals. */
  level: number;
  /** Profile-likelihood intervals for ξ and the return levels (instead of Wald). */
  profile: boolean;
  /** Standard errors from the observed (default) or the expected information. */
  information: "observed" | "expected";
  /** Also report the Gumbel fit's SEs and return levels. */
  gumbelDetail: boolean;
  /** Configurations with fewer (block maxima) runs get the row flag too_few_runs and no fit. */
  minRuns: number;
  /** Also return the diagnostics rows. */
  diagnostics: boolean;
  maxIter: number;
  /** Parametric-bootstrap replicates for the KS and AD p-values (0: none; columns ks_p, ad_p, gof_boot). */
  gofBoot?: number;
  /** Seed of the bootstrap samples (counterRng(seed, "gev-gof", configuration, replicate)). */
  seed?: string;
}

export const DEFAULT_GEV_OPTIONS: GevRunOptions = {
  tail: "upper",
  block: 1,
  periods: [10, 100, 1000],
  level: 0.95,
  profile: false,
  information: "observed",
  gumbelDetail: false,
  minRuns: 10,
  diagnostics: false,
  maxIter: 100,
};

export type Cell = number | string | null;

export interface GevConfigResult {
  /** Runs (or blocks) fitted. */
  n: number;
  /** "" or why the row has no (valid) fit. */
  flag: string;
  /** The gev.csv cells after the key columns, by name (gevColumnNames order). */
  cells: Record<string, Cell>;
  diag?: DiagRow[];
}

/** Period label in column names: rl10, rl100, rl2.5. */
export function periodLabel(T: number): string {
  return `rl${String(T)}`;
}

/** The result columns of gev.csv after the key columns. */
export function gevColumnNames(o: GevRunOptions): string[] {
  const cols = [
    "n",
    "tail",
    "loc",
    "scale",
    "shape",
    "se_loc",
    "se_scale",
    "se_shape",
    "cov_loc_scale",
    "cov_loc_shape",
    "cov_scale_shape",
    "nllh",
    "aic",
    "bic",
    "iterations",
    "converged",
    "regular",
    "flag",
    "gumbel_loc",
    "gumbel_scale",
    "gumbel_nllh",
    "lr_stat",
    "lr_p",
    "ks",
    "ad",
  ];
  if (o.gofBoot) cols.push("ks_p", "ad_p", "gof_boot");
  if (o.gumbelDetail) cols.push("gumbel_se_loc", "gumbel_se_scale");
  cols.push(o.profile ? "shape_lo_profile" : "shape_lo", o.profile ? "shape_hi_profile" : "shape_hi");
  for (const T of o.periods) {
    const r = periodLabel(T);
    cols.push(r, `${r}_se`, `${r}_lo`, `${r}_hi`);
    if (o.gumbelDetail) cols.push(`gumbel_${r}`, `gumbel_${r}_se`);
  }
  cols.push("n_outliers");
  return cols;
}

const num = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** The sample a configuration's runs give: negated for the lower tail, then block maxima. */
export function prepareSample(runs: ArrayLike<number>, o: GevRunOptions): Float64Array {
  const x = Float64Array.from(runs, (v) => (o.tail === "lower" ? -v : v));
  return o.block > 1 ? blockMaxima(x, o.block) : x;
}

/**
 * Fits configurations c0 .. c1 − 1 of (runs, offsets): one kernel call for the chunk, then the rows.
 */
export function fitGevConfigs(backend: KernelBackend, runs: Float64Array, offsets: Int32Array, c0: number, c1: number, o: GevRunOptions): GevConfigResult[] {
  const samples: Float64Array[] = [];
  for (let c = c0; c < c1; c++) samples.push(prepareSample(runs.subarray(offsets[c], offsets[c + 1]), o));
  // Only configurations with enough runs go to the kernel.
  const fitted = samples.map((s, i) => (s.length >= o.minRuns ? i : -1)).filter((i) => i >= 0);
  const off = new Int32Array(fitted.length + 1);
  fitted.forEach((i, k) => (off[k + 1] = off[k] + samples[i].length));
  const x = new Float64Array(off[fitted.length]);
  // Each sample is fitted on a standardized scale (a power of two: exact), its fit scaled back (issue 44).
  const scales = fitted.map((i) => gevScale(samples[i]));
  fitted.forEach((i, k) => x.set(scales[k] === 1 ? samples[i] : samples[i].map((v) => v / scales[k]), off[k]));
  const batch = gevFitBatch(backend, x, off, o.maxIter);
  const results: GevConfigResult[] = samples.map((s) => tooFew(s.length, o));
  fitted.forEach((i, k) => {
    results[i] = configRow(samples[i], rescaleGevFit(gevFitFromBatch(batch.out, batch.status, batch.iterations, k, samples[i].length), scales[k]), o);
    if (o.gofBoot && results[i].flag === "") Object.assign(results[i].cells, gofBootstrap(backend, samples[i], results[i].cells, c0 + i, o));
  });
  return results;
}

/**
 * Parametric-bootstrap p-values of the KS and AD statistics with estimated parameters (Stute, Manteiga & Quindimil
 * 1993): B samples of n from the fitted GEV, each refitted, its KS and AD against its own fit; p = (1 + #{T_b ≥ T})
 * / (1 + B) over the replicates whose refit is valid (gof_boot counts them).
 */
export function gofBootstrap(backend: KernelBackend, x: Float64Array, cells: Record<string, Cell>, config: number, o: GevRunOptions): Record<string, Cell> {
  const B = o.gofBoot ?? 0;
  const n = x.length;
  const p = { loc: cells.loc as number, scale: cells.scale as number, shape: cells.shape as number };
  const ks = cells.ks as number;
  const ad = cells.ad as number;
  const xs = new Float64Array(B * n);
  const off = new Int32Array(B + 1);
  for (let b = 0; b < B; b++) {
    const r = counterRng(o.seed ?? "1", "gev-gof", config, b);
    for (let i = 0; i < n; i++) {
      let u = r.next();
      if (u === 0) u = 2 ** -53;
      xs[b * n + i] = gevQuantile(u, p);
    }
    off[b + 1] = (b + 1) * n;
  }
  const batch = gevFitBatch(backend, xs, off, o.maxIter);
  let valid = 0;
  let geKs = 0;
  let geAd = 0;
  for (let b = 0; b < B; b++) {
    const f = gevFitFromBatch(batch.out, batch.status, batch.iterations, b, n);
    if (f.status !== "ok") continue;
    const xb = xs.subarray(b * n, (b + 1) * n);
    valid++;
    if (ksStatistic(xb, f.params) >= ks) geKs++;
    if (andersonDarling(xb, f.params) >= ad) geAd++;
  }
  return valid ? { ks_p: (1 + geKs) / (1 + valid), ad_p: (1 + geAd) / (1 + valid), gof_boot: valid } : { ks_p: null, ad_p: null, gof_boot: 0 };
}

function emptyCells(o: GevRunOptions): Record<string, Cell> {
  const cells: Record<string, Cell> = {};
  for (const c of gevColumnNames(o)) cells[c] = null;
  return cells;
}

function tooFew(n: number, o: GevRunOptions): GevConfigResult {
  const cells = emptyCells(o);
  Object.assign(cells, { n, tail: o.tail, converged: "false", regular: "false", flag: "too_few_runs", iterations: 0 });
  return { n, flag: "too_few_runs", cells };
}

/** The Gumbel fit's covariance: inverse of the (μ, σ) block of the Hessian at ξ = 0. */
function gumbelCov(x: ArrayLike<number>, loc: number, scale: number): number[] | null {
  const e = gevNllh(x, { loc, scale, shape: 0 });
  return Number.isFinite(e.f) ? spdInverse([e.H[0], e.H[1], e.H[3], e.H[4]], 2) : null;
}

function configRow(x: Float64Array, fit: GevFit, o: GevRunOptions): GevConfigResult {
  const cells = emptyCells(o);
  const n = x.length;
  const ok = fit.status === "ok";
  let flag = fit.status === "ok" ? "" : fit.status;
  if (ok && !fit.regular) flag = "irregular"; // ξ̂ ≤ −0.5: estimates exist, SEs are not valid (Smith 1985)
  const lower = o.tail === "lower";
  const p = fit.params;
  const hasEstimates = fit.status === "ok" || fit.status === "not_converged" || fit.status === "singular_information";
  const expected = ok && o.information === "expected" ? expectedCovarianceScaled(p, n) : undefined;
  const cov = expected ? expected.cov : fit.cov;
  // SEs from the standardized scale (issue 44): on runs ×1e298 the variances overflow, the SEs do not.
  const se = expected ? expected.se : fit.se;
  Object.assign(cells, {
    n,
    tail: o.tail,
    iterations: fit.iterations,
    converged: String(fit.converged),
    regular: String(fit.regular),
    flag,
    gumbel_loc: num(fit.gumbel.loc),
    gumbel_scale: num(fit.gumbel.scale),
    gumbel_nllh: num(fit.gumbel.nllh),
  });
  if (hasEstimates)
    Object.assign(cells, { loc: num(p.loc), scale: num(p.scale), shape: num(p.shape), nllh: num(fit.nllh), aic: num(fit.aic), bic: num(fit.bic) });
  if (!ok) return { n, flag, cells };
  Object.assign(cells, {
    se_loc: num(se[0]),
    se_scale: num(se[1]),
    se_shape: num(se[2]),
    cov_loc_scale: num(cov[1]),
    cov_loc_shape: num(cov[2]),
    cov_scale_shape: num(cov[5]),
    lr_stat: num(fit.lrStat),
    lr_p: num(fit.lrP),
    ks: num(ksStatistic(x, p)),
    ad: num(andersonDarling(x, p)),
  });
  const k = normQuantileUpper(o.level);
  const fitForIntervals: GevFit = { ...fit, cov, se: [se[0], se[1], se[2]] };
  if (o.profile) {
    const iv = profileShapeInterval(x, fitForIntervals, o.level);
    cells.shape_lo_profile = num(iv.lo);
    cells.shape_hi_profile = num(iv.hi);
  } else {
    cells.shape_lo = num(p.shape - k * se[2]);
    cells.shape_hi = num(p.shape + k * se[2]);
  }
  const gcov = o.gumbelDetail && Number.isFinite(fit.gumbel.nllh) ? gumbelCov(x, fit.gumbel.loc, fit.gumbel.scale) : null;
  if (gcov) {
    cells.gumbel_se_loc = num(Math.sqrt(gcov[0]));
    cells.gumbel_se_scale = num(Math.sqrt(gcov[3]));
  }
  for (const T of o.periods) {
    const r = periodLabel(T);
    const rl = returnLevel(T, p, cov, o.level);
    let lo = rl.lo,
      hi = rl.hi;
    if (o.profile) ({ lo, hi } = profileReturnLevelInterval(x, fitForIntervals, T, o.level));
    // Lower tail: the fit is of −x, so the level on the runs' scale is −z and the interval flips.
    cells[r] = num(lower ? -rl.level : rl.level);
    cells[`${r}_se`] = num(rl.se);
    cells[`${r}_lo`] = num(lower ? -hi : lo);
    cells[`${r}_hi`] = num(lower ? -lo : hi);
    if (gcov) {
      const l = ellOfPeriod(T); // Gumbel: z = μ − σℓ, gradient (1, −ℓ)
      const z = fit.gumbel.loc - fit.gumbel.scale * l;
      cells[`gumbel_${r}`] = num(lower ? -z : z);
      cells[`gumbel_${r}_se`] = num(Math.sqrt(gcov[0] - 2 * l * gcov[1] + l * l * gcov[3]));
    }
  }
  const d = gevDiagnostics(x, fitForIntervals, o.level, o.diagnostics);
  cells.n_outliers = d.outliers;
  return { n, flag, cells, diag: o.diagnostics ? d.rows : undefined };
}

const STRICT_CODES: Record<string, [ErrorCode, string]> = {
  too_few_runs: ["E_TOO_FEW_RUNS", "give more runs, or lower --min-runs (the SEs are meaningless below about 10)"],
  degenerate: ["E_GEV_DEGENERATE", "fewer than 3 distinct values: there is no spread to fit; drop the configuration (--where)"],
  unbounded: ["E_GEV_UNBOUNDED", "the likelihood grows without bound as ξ → −1 (runs piled at an upper endpoint); check the data or use --tail lower"],
  not_converged: ["E_GEV_NOT_CONVERGED", "the fit did not converge; check the runs for outliers or mixed regimes"],
  singular_information: ["E_GEV_NOT_CONVERGED", "the observed information is singular at the estimate; check the runs"],
  nonfinite: ["E_NONFINITE", "remove or impute non-finite runs"],
};

/** --strict: the first configuration without a valid fit becomes a VarmapError naming it and the reason. */
export function strictCheck(results: GevConfigResult[], describe: (i: number) => string, file?: string): void {
  results.forEach((r, i) => {
    const entry = STRICT_CODES[r.flag];
    if (entry)
      throw new VarmapError(entry[0], `no valid GEV fit (${r.flag}, ${r.n} runs)`, { location: { file, configuration: describe(i) }, remedy: entry[1] });
  });
}
