// The distribution target of `fit`, `predict` and `cv` (spec E.4): fit distribution models, predict whole run
// distributions at new configurations, cross-validate them on the engine. The CLI (ts/cli/distribution.ts) parses
// the flags into these options and prints the summaries.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { VarmapError } from "../errors.js";
import { checkRowColumns } from "../data/duckdb.js";
import { parseInteger, parsePositiveInteger } from "../data/option-values.js";
import { loadDataset, type LoadOptions } from "../data/load.js";
import { TABLE_OUTPUT, TABLE_OUTPUT_EXTENSIONS, tableFormat, writeJsonAtomic, writeTable, tableCsv, type Column } from "../data/write.js";
import { QUANTILE_LEVELS, QUANTILE_NAMES } from "../data/types.js";
import type { FamilyName } from "../mixture/families.js";
import { flatParamRecord } from "../mixture/flat-params.js";
import {
  checkDistributionOptions,
  fitDistributionModels,
  mixtureOutputs,
  predictMapDistributions,
  readDistributionModels,
  type DistributionModelsFile,
} from "../distribution/model.js";
import type { RunDistribution } from "../distribution/distributions.js";
import type { DistName, MomentMethod, PositionsName, SmoothName } from "../distribution/methods.js";
import type { FeatureWeightsName } from "../distribution/feature-weights.js";
import type { PerLevelSpec } from "../distribution/per-level.js";
import { readTruth } from "../distribution/truth.js";
import type { WeightsName } from "../distribution/weights.js";
import type { KsTest } from "../distribution/ks.js";
import { readFits, type FitRow } from "../distribution/params.js";
import { readSplitsFile } from "../cv/splits.js";
import { parseFractions } from "../cv/divisions.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { distCvSetup, job as distributionCvJob } from "../jobs/cv-distribution.js";
import { jobOptions, type RunOptions } from "./common.js";
import { readConfigurations } from "./predict.js";

/** The distribution methods and their settings, shared by fit and cv. */
export interface DistributionMethodOptions {
  weights: WeightsName;
  moments: MomentMethod;
  /** Quantile levels j/K of the outputs (10 … 10,000). */
  levels: number;
  smooth: SmoothName;
  perLevel?: PerLevelSpec;
  positions: PositionsName;
  featureWeights: FeatureWeightsName;
  /** --dist params: the mixture fits `varmap mixture --out` wrote for the same data. */
  fits?: string;
}

export interface FitDistributionOptions extends DistributionMethodOptions {
  /** Column roles of the runs (the statistic is ignored: the models hold whole distributions). */
  data: LoadOptions;
  dist: DistName;
  /** The models file (.json); without it the models are only in the summary. */
  out?: string;
  /** No notes on stderr. */
  quiet?: boolean;
}

export interface FitDistributionSummary {
  out: string | null;
  models: DistributionModelsFile;
}

export async function runFitDistribution(file: string, options: FitDistributionOptions): Promise<FitDistributionSummary> {
  const o = options;
  checkDistributionOptions({ dists: [o.dist], weights: o.weights, moments: o.moments, levels: o.levels, fits: o.fits, needFits: true });
  const data = await loadDataset(file, { ...o.data, stat: "sd" });
  const note = o.quiet ? undefined : (m: string) => process.stderr.write(`varmap: note: ${m}\n`);
  const fits = o.dist === "params" ? await readFits(o.fits!, [...data.table.roles.factors, ...data.table.roles.inputs]) : undefined;
  const models = fitDistributionModels(
    data,
    file,
    {
      dist: o.dist,
      weights: o.weights,
      moments: o.moments,
      levels: o.levels,
      smooth: o.smooth,
      perLevel: o.perLevel,
      positions: o.positions,
      featureWeights: o.featureWeights,
    },
    note,
    fits,
  );
  if (o.out) await writeJsonAtomic(o.out, models);
  return { out: o.out ?? null, models };
}

export const DISTRIBUTION_OUTPUTS = ["quantiles", "cdf", "mixture"] as const;

export interface PredictDistributionOptions {
  /** Configurations (.csv, .tsv or .parquet): the map's factor columns and input columns. */
  at: string;
  /** quantiles (default), cdf or mixture. */
  output?: (typeof DISTRIBUTION_OUTPUTS)[number];
  /** --output cdf: points of the x grid per configuration, 2 … 100,000 (default 200). */
  gridPoints?: number;
  /** Quantile levels j/K (default: the models file's). */
  levels?: number;
  /** --output mixture: the families (default all). */
  families: FamilyName[];
  /** --output mixture: the largest number of components, 1 … 5 (default 3). */
  kmax?: number;
  /** The table (and `<out>-summary`); without it the table is in the summary (`csv`). */
  out?: string;
}

export interface PredictDistributionSummary {
  out: string | null;
  /** mean, sd, q05 … q95 per configuration, beside `out`. */
  summaryOut: string | null;
  /** Predicted distributions (one per row of `at`). */
  distributions: number;
  dist: DistName;
  output: string;
  csv?: string;
}

type Row = Record<string, unknown>;

/** Predicted distributions at the rows of `at`: quantiles / CDF / mixture table, plus `<out>-summary`. */
export async function runPredictDistribution(modelsPath: string, options: PredictDistributionOptions): Promise<PredictDistributionSummary> {
  const output = options.output ?? "quantiles";
  const gridPoints = options.gridPoints ?? 200;
  parseInteger(gridPoints, "--grid-points", { min: 2, max: 100_000, example: 200 });
  const file = readDistributionModels(modelsPath);
  const levels = options.levels === undefined ? file.levels : options.levels;
  checkDistributionOptions({ dists: [file.dist], weights: file.weights, moments: file.moments, levels, needFits: false });
  const families = options.families;
  const kmax = options.kmax ?? 3;
  parseInteger(kmax, "--kmax", { min: 1, max: 5, example: 3 });
  if (options.out) tableFormat(options.out, "--out");

  const at = options.at;
  const rows = await readConfigurations(at);
  const { dists, extrapolated, distance, paramsInvalid } = predictRows(file, rows, at);
  const keyCols = [...file.factors, ...file.inputs];
  const keyValues = (i: number) => keyCols.map((c) => (file.factors.includes(c) ? String(rows[i][c]) : Number(rows[i][c])));

  const table: Record<string, (string | number | null)[]> = Object.fromEntries(keyCols.map((c) => [c, []]));
  const push = (i: number, extra: Record<string, string | number | null>) => {
    keyValues(i).forEach((v, j) => table[keyCols[j]].push(v));
    for (const [k, v] of Object.entries(extra)) (table[k] ??= []).push(v);
  };
  if (output === "quantiles") {
    dists.forEach((F, i) => {
      for (let j = 0; j <= levels; j++) {
        const x = F.quantile(j / levels);
        if (Number.isFinite(x)) push(i, { p: j / levels, x, extrapolated: extrapolated[i], distance: distance[i] });
      }
    });
  } else if (output === "cdf") {
    dists.forEach((F, i) => {
      const [lo, hi] = support(F);
      for (let j = 0; j < gridPoints; j++) {
        const x = j === gridPoints - 1 ? hi : lo + ((hi - lo) * j) / (gridPoints - 1);
        push(i, { x, F: F.cdf(x), extrapolated: extrapolated[i], distance: distance[i] });
      }
    });
  } else {
    const fits = mixtureOutputs(dists, levels, { families, kmax, seed: 1, location: (i) => ({ file: at, row: i + 2 }) });
    for (const r of fits.rows)
      if (r.best)
        push(r.config, {
          family: r.family,
          k: r.k,
          params: JSON.stringify(r.params),
          bic_pseudo: r.bic,
          extrapolated: extrapolated[r.config],
          distance: distance[r.config],
          // the parameters as typed columns too (issue 44 item 4): a_name, b_name, w1..wK, a1..aK, b1..bK
          ...flatParamRecord({ family: r.family, params: r.params }, kmax),
        });
  }
  const summary: Record<string, (string | number)[]> = Object.fromEntries(keyCols.map((c) => [c, []]));
  const sumCols: Record<string, number[]> = { mean: [], sd: [], ...Object.fromEntries(QUANTILE_NAMES.map((q) => [q, []])), extrapolated: [], distance: [] };
  if (file.dist === "params") sumCols.params_invalid = Array.from(paramsInvalid);
  if (file.perLevel) sumCols.nonfinite = Array.from(paramsInvalid);
  dists.forEach((F, i) => {
    keyValues(i).forEach((v, j) => summary[keyCols[j]].push(v));
    sumCols.mean.push(F.mean());
    sumCols.sd.push(F.sd());
    QUANTILE_LEVELS.forEach((p, k) => sumCols[QUANTILE_NAMES[k]].push(F.quantile(p)));
    sumCols.extrapolated.push(extrapolated[i]);
    sumCols.distance.push(distance[i]);
  });
  const columns = (t: Record<string, (string | number | null)[]>): Column[] =>
    Object.entries(t).map(([name, values]) => ({
      name,
      values,
      type: file.factors.includes(name) || name === "family" || name === "params" ? ("string" as const) : undefined,
    }));
  const sumColumns = [...columns(summary), ...columns(sumCols)];
  if (options.out) {
    const out = options.out;
    const sumPath = out.replace(/(\.[a-z]+)$/i, "-summary$1");
    await writeTable(out, columns(table));
    await writeTable(sumPath, sumColumns);
    return { out, summaryOut: sumPath, distributions: dists.length, dist: file.dist, output };
  }
  return { out: null, summaryOut: null, distributions: dists.length, dist: file.dist, output, csv: tableCsv(columns(table)) };
}

/** Where a CDF plot of F is drawn: its whole support when bounded, else the 0.05% and 99.95% quantiles. */
function support(F: RunDistribution): [number, number] {
  const lo = Number.isFinite(F.quantile(0)) ? F.quantile(0) : F.quantile(0.0005);
  const hi = Number.isFinite(F.quantile(1)) ? F.quantile(1) : F.quantile(0.9995);
  return hi > lo ? [lo, hi] : [lo - 0.5 * Math.abs(lo || 1), hi + 0.5 * Math.abs(hi || 1)];
}

/** The predicted distribution of every row of --at, map by map (the existing predict codes for mismatches). */
function predictRows(file: DistributionModelsFile, rows: Row[], at: string) {
  const need = [...file.factors, ...file.inputs];
  checkRowColumns(rows, need, at);
  const keyOf = (k: Record<string, string>) => JSON.stringify(file.factors.map((f) => k[f]));
  const byKey = new Map(file.maps.map((m) => [keyOf(m.key), m]));
  const groups = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const key = keyOf(Object.fromEntries(file.factors.map((f) => [f, String(r[f])])));
    if (!byKey.has(key))
      throw new VarmapError("E_UNKNOWN_MAP", `no model for the map ${file.factors.map((f) => `${f}=${r[f]}`).join(", ")}`, {
        location: { file: at, row: i + 2 },
        remedy: `predict only maps the models file has (${file.maps.length} fitted from ${file.source})`,
      });
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(i);
  });
  const numeric = (r: Row, c: string, i: number): number => {
    const v = typeof r[c] === "number" ? (r[c] as number) : r[c] === null || r[c] === "" ? NaN : Number(r[c]);
    if (!Number.isFinite(v))
      throw new VarmapError("E_NONFINITE", `input '${c}' is ${r[c] === null ? "empty" : `'${r[c]}'`}, not a finite number`, {
        location: { file: at, row: i + 2, column: c },
        remedy: "give a number for every input",
      });
    return v;
  };
  const dists: RunDistribution[] = new Array(rows.length);
  const extrapolated = new Uint8Array(rows.length),
    distance = new Float64Array(rows.length),
    paramsInvalid = new Uint8Array(rows.length);
  for (const [key, idx] of groups) {
    const m = byKey.get(key)!;
    const d = m.inputs.length;
    const X = new Float64Array(idx.length * d);
    idx.forEach((i, k) => m.inputs.forEach((c, j) => (X[k * d + j] = numeric(rows[i], c, i))));
    for (let k = 0; k < idx.length; k++)
      m.inputs.forEach((c, j) => {
        if (m.normalization.log2[j] && !(X[k * d + j] > 0))
          throw new VarmapError("E_NONPOSITIVE_INPUT", `input ${X[k * d + j]} cannot be log2-transformed`, {
            location: { file: at, row: idx[k] + 2, column: c },
            remedy: "give positive values for the log2 inputs the models were fitted with",
          });
      });
    const pr = predictMapDistributions(file, m, X);
    idx.forEach(
      (i, k) => ((dists[i] = pr.dists[k]), (extrapolated[i] = pr.extrapolated[k]), (distance[i] = pr.distance[k]), (paramsInvalid[i] = pr.paramsInvalid[k])),
    );
  }
  return { dists, extrapolated, distance, paramsInvalid };
}

export interface CvDistributionOptions extends DistributionMethodOptions {
  /** Column roles of the runs. */
  data: LoadOptions;
  /** The methods to validate. */
  dists: DistName[];
  /** Rejection thresholds of the KS test (default two-sample). */
  ksTest?: KsTest;
  /** k-fold cross-validation over each map's configurations instead of generated divisions. */
  folds?: number;
  /** Given divisions (a splits JSON file) instead of generated ones. */
  splits?: string;
  /** Group-out divisions (issue 41): hold out each combination of these inputs/factors in turn. */
  leaveOut?: string[];
  /** With `leaveOut`: k folds of whole groups instead of one division per group. */
  groupFolds?: number;
  /** Training fractions of the generated divisions (default 0.1 … 0.9). */
  p?: number[];
  /** Generated divisions per training fraction (default 20). */
  reps?: number;
  seed?: string;
  /** True mixtures of a synthetic design (`varmap synth --truth`): adds ks_true. */
  truth?: string;
  /** The output directory (ks.csv, ks-summary.csv, ks.md, the result store). */
  out: string;
  run?: RunOptions;
}

/** `cv --target distribution`: the distribution-cv job (workers, journal, shards, merge) into `out`. */
export async function runCvDistribution(file: string, options: CvDistributionOptions): Promise<JobSummary> {
  const o = options;
  checkDistributionOptions({ dists: o.dists, weights: o.weights, moments: o.moments, levels: o.levels, fits: o.fits, needFits: true });
  const folds = o.folds;
  if (folds !== undefined) parseInteger(folds, "--folds", { min: 2, example: 10 });
  if (folds !== undefined && o.splits !== undefined)
    throw new VarmapError("E_USAGE", "--folds and --splits both choose the divisions", { remedy: "give one of them" });
  if (o.leaveOut === undefined && o.groupFolds !== undefined)
    throw new VarmapError("E_USAGE", "--group-folds needs --leave-out", { remedy: "add --leave-out COLS, or drop --group-folds" });
  const truthPath = o.truth;
  if (truthPath && !TABLE_OUTPUT.test(truthPath))
    throw new VarmapError("E_USAGE", `cannot tell the format of --truth '${truthPath}'`, {
      remedy: `give the ${TABLE_OUTPUT_EXTENSIONS} file \`varmap synth --truth\` wrote`,
    });
  const splits = o.splits !== undefined ? readSplitsFile(o.splits) : undefined;
  const ps = splits ? undefined : (o.p ?? parseFractions("0.1:0.9:0.1"));
  const reps = o.reps ?? 20;
  parsePositiveInteger(reps, "--reps", 20);
  if (!o.out)
    throw new VarmapError("E_USAGE", "cv --target distribution needs --out <dir>", { remedy: "add --out distcv/ (ks.csv, ks-summary.csv, ks.md go there)" });
  const out = o.out;
  const jobOpts = jobOptions(o.run ?? {}, out, "cv --target distribution");
  const data = await loadDataset(file, { ...o.data, stat: "sd" });
  let fits: { source: string; hash: string; rows: FitRow[] } | undefined;
  if (o.dists.includes("params")) {
    const rows = await readFits(o.fits!, [...data.table.roles.factors, ...data.table.roles.inputs]);
    fits = { source: o.fits!, hash: createHash("sha256").update(readFileSync(o.fits!)).digest("hex").slice(0, 32), rows };
  }
  let truth: { source: string; hash: string; laws: Awaited<ReturnType<typeof readTruth>> } | undefined;
  if (truthPath) {
    const laws = await readTruth(truthPath, [...data.table.roles.factors, ...data.table.roles.inputs]);
    truth = { source: truthPath, hash: createHash("sha256").update(readFileSync(truthPath)).digest("hex").slice(0, 32), laws };
  }
  const ctx = distCvSetup(data, file, {
    dists: o.dists,
    weights: o.weights,
    moments: o.moments,
    levels: o.levels,
    ksTest: o.ksTest ?? "two-sample",
    smooth: o.smooth,
    perLevel: o.perLevel,
    positions: o.positions,
    featureWeights: o.featureWeights,
    ps,
    reps,
    seed: o.seed ?? "1",
    splits,
    fits,
    truth,
    folds,
    ...(o.leaveOut ? { leaveOut: { cols: o.leaveOut, ...(o.groupFolds !== undefined ? { folds: o.groupFolds } : {}) } } : {}),
  });
  return runJob(distributionCvJob, ctx, jobOpts);
}
