// The distribution target of `fit`, `predict` and `cv` (spec E.4): option registration and validation (before any
// data is read); the verbs are ts/verbs/distribution.ts. `fit`/`cv` dispatch here on `--target distribution`,
// `predict` on a distribution models file.
import { Option, type Command } from "commander";
import { dataOptionsFromFlags, parseInteger, parsePositiveInteger, runOptionsFromFlags } from "./flags.js";
import { VarmapError } from "../errors.js";
import { parseFamilies } from "../mixture/fit.js";
import { checkDistributionOptions } from "../distribution/model.js";
import { POSITION_NAMES, SMOOTH_NAMES, type DistName, type MomentMethod, type PositionsName, type SmoothName } from "../distribution/methods.js";
import { FEATURE_WEIGHT_NAMES, type FeatureWeightsName } from "../distribution/feature-weights.js";
import { checkPerLevel, type PerLevelSpec } from "../distribution/per-level.js";
import { methodOptionsFromCli } from "./method-options.js";
import type { WeightsName } from "../distribution/weights.js";
import type { KsTest } from "../distribution/ks.js";
import { splitList } from "./options.js";
import { parseFractions } from "../cv/divisions.js";
import type { JobSummary } from "../verbs/common.js";
import { runCvDistribution, runFitDistribution, runPredictDistribution, type PredictDistributionOptions } from "../verbs/distribution.js";

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

/** The options fit and cv share: how each configuration's distribution is represented and predicted. */
function methodOptions(o: DistributionCliOptions) {
  return {
    weights: o.weights,
    moments: o.moments,
    levels: o.levels,
    smooth: o.smooth,
    perLevel: o.perLevel,
    positions: o.positions,
    featureWeights: o.featureWeights,
    fits: o.fits,
  };
}

export async function fitDistributionAction(file: string, opts: Record<string, unknown>): Promise<void> {
  const o = distributionOptionsFromCli(opts);
  const s = await runFitDistribution(file, {
    data: dataOptionsFromFlags(opts),
    dist: o.dists[0],
    ...methodOptions(o),
    ...(opts.out ? { out: String(opts.out) } : {}),
    quiet: !!opts.quiet,
  });
  if (s.out) {
    if (!opts.quiet)
      process.stderr.write(`varmap: ${s.models.maps.length} distribution model(s) (${s.models.dist}, ${s.models.weights} weights) written to ${s.out}\n`);
  } else process.stdout.write(JSON.stringify(s.models) + "\n");
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

/** Predicted distributions at the rows of `--at`: quantiles / CDF / mixture table, plus `<out>-summary`. */
export async function predictDistributionAction(modelsPath: string, opts: Record<string, unknown>): Promise<void> {
  const gridPoints = parseInteger(opts.gridPoints, "--grid-points", { min: 2, max: 100_000, default: 200 });
  const levels = opts.levels === undefined ? undefined : Number(opts.levels);
  const families = parseFamilies(opts.families as string | undefined);
  const kmax = parseInteger(opts.kmax, "--kmax", { min: 1, max: 5, default: 3 });
  const s = await runPredictDistribution(modelsPath, {
    at: String(opts.at),
    output: String(opts.output ?? "quantiles") as PredictDistributionOptions["output"],
    gridPoints,
    ...(levels !== undefined ? { levels } : {}),
    families,
    kmax,
    ...(opts.out ? { out: String(opts.out) } : {}),
  });
  if (s.out) {
    if (!opts.quiet)
      process.stderr.write(
        `varmap: ${s.distributions} predicted distribution(s) (${s.dist}, ${s.output}) written to ${s.out}; mean, sd, q05 … q95 to ${s.summaryOut}\n`,
      );
  } else process.stdout.write(s.csv ?? "");
}

/**
 * `cv --target distribution`: validates the options, runs the distribution-cv job (workers, journal, --shard,
 * merge) into --out and prints ks.md (or a JSON summary).
 */
export async function cvDistributionAction(file: string, opts: Record<string, unknown>): Promise<JobSummary> {
  const o = distributionOptionsFromCli(opts);
  const folds = opts.folds === undefined ? undefined : parseInteger(opts.folds, "--folds", { min: 2, example: 10 });
  const splits = typeof opts.splits === "string" ? opts.splits : undefined;
  const p = splits !== undefined ? undefined : parseFractions(String(opts.p ?? "0.1:0.9:0.1"));
  const reps = parsePositiveInteger(opts.reps, "--reps", 20);
  const s = await runCvDistribution(file, {
    data: dataOptionsFromFlags(opts),
    dists: o.dists,
    ...methodOptions(o),
    ksTest: o.ksTest,
    ...(folds !== undefined ? { folds } : {}),
    ...(splits !== undefined ? { splits } : {}),
    ...(typeof opts.leaveOut === "string" ? { leaveOut: opts.leaveOut.split(",").map((c) => c.trim()) } : {}),
    ...(opts.groupFolds !== undefined ? { groupFolds: parseInteger(opts.groupFolds, "--group-folds", { min: 2, example: 5 }) } : {}),
    ...(p ? { p } : {}),
    reps,
    seed: String(opts.seed ?? "1"),
    ...(typeof opts.truth === "string" ? { truth: opts.truth } : {}),
    out: typeof opts.out === "string" ? opts.out : "",
    run: runOptionsFromFlags(opts),
  });
  if (opts.json) process.stdout.write(JSON.stringify({ ...s, summary: s.summary ? { ...s.summary, markdown: undefined } : undefined }, null, 2) + "\n");
  else if (s.shard === null) process.stdout.write(String(s.summary?.markdown ?? ""));
  if (!opts.quiet) process.stderr.write(`varmap: outputs in ${s.out}: ${s.files.join(", ")}\n`);
  return s;
}
