// The distribution target of `fit`, `predict` and `cv` (spec E.4): option registration, validation (before any
// data is read) and the fit/predict actions. `fit`/`cv` dispatch here on `--target distribution`, `predict` on
// a distribution models file.
import { Option, type Command } from "commander";
import { jobOptionsFromFlags, dataOptionsFromFlags } from "./flags.js";
import { VarmapError } from "../errors.js";
import { loadDataset } from "../data/load.js";
import { TABLE_OUTPUT, TABLE_OUTPUT_EXTENSIONS, tableFormat, writeJsonAtomic, writeTable, tableCsv, type Column } from "../data/write.js";
import { parseFamilies } from "../mixture/fit.js";
import { flatParamRecord } from "../mixture/flat-params.js";
import { QUANTILE_LEVELS, QUANTILE_NAMES } from "../data/types.js";
import {
  checkDistributionOptions,
  fitDistributionModels,
  mixtureOutputs,
  predictMapDistributions,
  readDistributionModels,
  type DistributionModelsFile,
} from "../distribution/model.js";
import type { RunDistribution } from "../distribution/distributions.js";
import { POSITION_NAMES, SMOOTH_NAMES, type DistName, type MomentMethod, type PositionsName, type SmoothName } from "../distribution/methods.js";
import { FEATURE_WEIGHT_NAMES, type FeatureWeightsName } from "../distribution/feature-weights.js";
import { checkPerLevel, type PerLevelSpec } from "../distribution/per-level.js";
import { readTruth } from "../distribution/truth.js";
import { methodOptionsFromCli } from "./method-options.js";
import type { WeightsName } from "../distribution/weights.js";
import type { KsTest } from "../distribution/ks.js";
import { splitList } from "./options.js";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFits, type FitRow } from "../distribution/params.js";
import { readSplitsFile } from "../cv/splits.js";
import { parseFractions } from "../cv/divisions.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { distCvSetup } from "../jobs/distribution-cv.js";
import { job as distributionCvJob } from "../jobs/distribution-cv.js";

export const TARGETS = ["stat", "distribution"] as const;

/** `--target` plus the distribution flags shared by fit and cv. */
export function addDistributionOptions(cmd: Command, verb: "fit" | "cv"): Command {
  cmd.addOption(new Option("--target <what>", "what to predict: the map statistic, or the whole run distribution").choices([...TARGETS]).default("stat"));
  if (verb === "fit")
    cmd.option("--dist <method>", "with --target distribution: quantile | cdf | locscale | normal | params (experimental, needs --fits)", "quantile");
  else cmd.option("--dists <list>", "with --target distribution: methods to validate (quantile,cdf,locscale,normal[,params])", "quantile,cdf,locscale,normal");
  cmd
    .option("--weights <name>", "with --target distribution: interpolation weights delaunay | shepard | nearest", "delaunay")
    .option(
      "--moments <method>",
      "with --target distribution: location/scale predictor of locscale and normal (weights | delaunay | lsp | lr | mars)",
      "weights",
    )
    .option("--levels <K>", "with --target distribution: quantile levels j/K of the outputs (10 … 10,000)", "200")
    .option("--fits <file>", "with --target distribution and params: the mixture fits `varmap mixture --out` wrote for the same data")
    .option("--smooth <how>", "with --target distribution and cdf: none (the EDFs) | pchip (monotone PCHIP of each EDF, Lux et al. 2021)", "none")
    .option(
      "--positions <how>",
      "with --target distribution, quantile and locscale: order statistics at type7 levels (k−1)/(n−1), or weibull k/(n+1) with linear ends",
      "type7",
    )
    .option("--feature-weights <how>", "with --target distribution: none, or lr (stretch inputs by the slopes of log mean before the weights)", "none")
    .option(
      "--per-level",
      "with --target distribution and quantile: predict each level j/K as a map of its own with --method (lr, mars, lsp, rbf, …), then sort (monotone rearrangement)",
    );
  if (verb === "cv")
    cmd
      .addOption(new Option("--ks-test <kind>", "with --target distribution: rejection thresholds").choices(["two-sample", "one-sample"]).default("two-sample"))
      .option("--folds <k>", "with --target distribution: k-fold cross-validation over each map's configurations (folds keyed by seed and map)")
      .option(
        "--truth <file>",
        "with --target distribution: true mixtures of a synthetic design (`varmap synth --truth`): adds ks_true, KS against the true CDF",
      );
  return cmd;
}

export interface DistributionCliOptions {
  dists: DistName[];
  fits?: string;
  weights: WeightsName;
  moments: MomentMethod;
  levels: number;
  ksTest: KsTest;
  smooth: SmoothName;
  perLevel?: PerLevelSpec;
  positions: PositionsName;
  featureWeights: FeatureWeightsName;
}

/** Parses and checks the distribution flags (E_USAGE before any data is read). */
export function distributionOptionsFromCli(opts: Record<string, unknown>): DistributionCliOptions {
  const levels = Number(opts.levels ?? 200);
  const dists = opts.dist !== undefined ? [String(opts.dist)] : splitList(String(opts.dists ?? "quantile"));
  const fits = typeof opts.fits === "string" ? opts.fits : undefined;
  const o = { dists, weights: String(opts.weights ?? "delaunay"), moments: String(opts.moments ?? "weights"), levels, fits, needFits: true };
  checkDistributionOptions(o);
  const smooth = String(opts.smooth ?? "none");
  if (!(SMOOTH_NAMES as readonly string[]).includes(smooth))
    throw new VarmapError("E_USAGE", `unknown --smooth '${smooth}'`, { remedy: `use ${SMOOTH_NAMES.join(" or ")}` });
  if (smooth !== "none" && !dists.includes("cdf"))
    throw new VarmapError("E_USAGE", "--smooth applies to the cdf method", { remedy: "add cdf to the methods, or drop --smooth" });
  const positions = String(opts.positions ?? "type7");
  if (!(POSITION_NAMES as readonly string[]).includes(positions))
    throw new VarmapError("E_USAGE", `unknown --positions '${positions}'`, { remedy: `use ${POSITION_NAMES.join(" or ")}` });
  const featureWeights = String(opts.featureWeights ?? "none");
  if (!(FEATURE_WEIGHT_NAMES as readonly string[]).includes(featureWeights))
    throw new VarmapError("E_USAGE", `unknown --feature-weights '${featureWeights}'`, { remedy: `use ${FEATURE_WEIGHT_NAMES.join(" or ")}` });
  let perLevel: PerLevelSpec | undefined;
  if (opts.perLevel) {
    if (!dists.includes("quantile"))
      throw new VarmapError("E_USAGE", "--per-level applies to the quantile method", { remedy: "use --dist quantile (fit) or list quantile in --dists (cv)" });
    const method = String(opts.method ?? "lsp");
    perLevel = opts.logResponse ? { method, response: "log" } : { method };
    checkPerLevel(perLevel);
    const options = methodOptionsFromCli(opts, method);
    if (Object.keys(options).length) perLevel.options = options;
  }
  if (opts.map)
    throw new VarmapError("E_USAGE", "--target distribution needs the runs of every configuration, not a --map table", {
      remedy: "give the runs table (one row per run) without --map",
    });
  return {
    ...o,
    fits,
    dists: dists as DistributionCliOptions["dists"],
    weights: o.weights as WeightsName,
    moments: o.moments as MomentMethod,
    ksTest: (opts.ksTest as KsTest) ?? "two-sample",
    smooth: smooth as SmoothName,
    perLevel,
    positions: positions as PositionsName,
    featureWeights: featureWeights as FeatureWeightsName,
  };
}

export async function fitDistributionAction(file: string, opts: Record<string, unknown>): Promise<void> {
  const o = distributionOptionsFromCli(opts);
  const load = dataOptionsFromFlags(opts);
  const data = await loadDataset(file, { ...load, stat: "sd" });
  const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: note: ${m}\n`);
  const fits = o.dists[0] === "params" ? await readFits(o.fits!, [...data.table.roles.factors, ...data.table.roles.inputs]) : undefined;
  const out = fitDistributionModels(
    data,
    file,
    {
      dist: o.dists[0],
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
  if (opts.out) {
    await writeJsonAtomic(String(opts.out), out);
    if (!opts.quiet) process.stderr.write(`varmap: ${out.maps.length} distribution model(s) (${out.dist}, ${out.weights} weights) written to ${opts.out}\n`);
  } else process.stdout.write(JSON.stringify(out) + "\n");
}

/** `predict` flags for distribution models. */
export function addDistributionPredictOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option("--output <what>", "distribution models: quantiles | cdf | mixture").choices(["quantiles", "cdf", "mixture"]).default("quantiles"))
    .option("--grid-points <n>", "distribution models, --output cdf: points of the x grid per configuration", "200")
    .option("--levels <K>", "distribution models: quantile levels j/K (default: the models file's)")
    .option("--families <list>", "distribution models, --output mixture: families (default all)")
    .option("--kmax <k>", "distribution models, --output mixture: largest number of components", "3");
}

type Row = Record<string, unknown>;

/** Predicted distributions at the rows of `--at`: quantiles / CDF / mixture table, plus `<out>-summary`. */
export async function predictDistributionAction(modelsPath: string, opts: Record<string, unknown>, readRows: (path: string) => Promise<Row[]>): Promise<void> {
  const output = String(opts.output ?? "quantiles");
  const gridPoints = Number(opts.gridPoints ?? 200);
  if (!(Number.isInteger(gridPoints) && gridPoints >= 2 && gridPoints <= 100_000))
    throw new VarmapError("E_USAGE", `--grid-points ${opts.gridPoints} is out of range`, { remedy: "give a whole number from 2 to 100,000" });
  const file = readDistributionModels(modelsPath);
  const levels = opts.levels === undefined ? file.levels : Number(opts.levels);
  checkDistributionOptions({ dists: [file.dist], weights: file.weights, moments: file.moments, levels, needFits: false });
  const families = parseFamilies(opts.families as string | undefined);
  const kmax = Number(opts.kmax ?? 3);
  if (!(Number.isInteger(kmax) && kmax >= 1 && kmax <= 5)) throw new VarmapError("E_USAGE", `--kmax ${opts.kmax} is out of range`, { remedy: "give 1 … 5" });
  if (opts.out) tableFormat(String(opts.out), "--out");

  const at = String(opts.at);
  const rows = await readRows(at);
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
    const fits = mixtureOutputs(dists, levels, { families, kmax, seed: 1 });
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
  if (opts.out) {
    const out = String(opts.out);
    const sumPath = out.replace(/(\.[a-z]+)$/i, "-summary$1");
    await writeTable(out, columns(table));
    await writeTable(sumPath, sumColumns);
    if (!opts.quiet)
      process.stderr.write(
        `varmap: ${dists.length} predicted distribution(s) (${file.dist}, ${output}) written to ${out}; mean, sd, q05 … q95 to ${sumPath}\n`,
      );
  } else process.stdout.write(tableCsv(columns(table)));
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
  const have = new Set(rows.length ? Object.keys(rows[0]) : need);
  const missing = need.find((c) => !have.has(c));
  if (missing)
    throw new VarmapError("E_COLUMN", `column '${missing}' is missing`, {
      location: { file: at, column: missing },
      remedy: `give the columns ${need.join(", ")}`,
    });
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

/**
 * `cv --target distribution`: validates the options, loads the runs, runs the distribution-cv job (workers,
 * journal, --shard, merge) into --out and prints ks.md (or a JSON summary).
 */
export async function cvDistributionAction(file: string, opts: Record<string, unknown>): Promise<JobSummary> {
  const o = distributionOptionsFromCli(opts);
  const folds = opts.folds === undefined ? undefined : Number(opts.folds);
  if (folds !== undefined && !(Number.isInteger(folds) && folds >= 2))
    throw new VarmapError("E_USAGE", `--folds '${opts.folds}' is not a whole number >= 2`, { remedy: "e.g. --folds 10" });
  if (folds !== undefined && typeof opts.splits === "string")
    throw new VarmapError("E_USAGE", "--folds and --splits both choose the divisions", { remedy: "give one of them" });
  const truthPath = typeof opts.truth === "string" ? opts.truth : undefined;
  if (truthPath && !TABLE_OUTPUT.test(truthPath))
    throw new VarmapError("E_USAGE", `cannot tell the format of --truth '${truthPath}'`, {
      remedy: `give the ${TABLE_OUTPUT_EXTENSIONS} file \`varmap synth --truth\` wrote`,
    });
  const splits = typeof opts.splits === "string" ? readSplitsFile(opts.splits) : undefined;
  const ps = splits ? undefined : parseFractions(String(opts.p ?? "0.1:0.9:0.1"));
  const reps = Number(opts.reps ?? 20);
  if (!Number.isInteger(reps) || reps < 1) throw new VarmapError("E_USAGE", `--reps '${opts.reps}' is not a positive integer`, { remedy: "e.g. --reps 20" });
  if (!opts.out)
    throw new VarmapError("E_USAGE", "cv --target distribution needs --out <dir>", { remedy: "add --out distcv/ (ks.csv, ks-summary.csv, ks.md go there)" });
  const out = String(opts.out);
  const jobOpts = jobOptionsFromFlags(opts as { shard?: string; workers?: string; resume?: boolean; quiet?: boolean }, out, "cv --target distribution");
  const data = await loadDataset(file, { ...dataOptionsFromFlags(opts), stat: "sd" });
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
  const ctx = distCvSetup(data, file, { ...o, ps, reps, seed: String(opts.seed ?? "1"), splits, fits, truth, folds });
  const s = await runJob(distributionCvJob, ctx, jobOpts);
  if (opts.json) process.stdout.write(JSON.stringify({ ...s, summary: s.summary ? { ...s.summary, markdown: undefined } : undefined }, null, 2) + "\n");
  else if (s.shard === null) process.stdout.write(String(s.summary?.markdown ?? ""));
  if (!opts.quiet) process.stderr.write(`varmap: outputs in ${out}: ${s.files.join(", ")}\n`);
  return s;
}
