// `refit`: the main job — every map fitted with every chosen predictor on the engine (ts/jobs/refit.ts), and each
// configuration's runs with mixtures; models.json, summary.md/.csv, distributions.csv in the job directory. The CLI
// (ts/cli/commands/refit.ts) parses the flags into RefitOptions and prints the summary.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import { parseInteger } from "../data/option-values.js";
import { loadDataset, type LoadOptions } from "../data/load.js";
import { splitList } from "../data/option-values.js";
import { packMaps } from "../data/shared-maps.js";
import { sharedCopy } from "../pool/threads.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { refitPlan, job as refitJob, type RefitMixturePlan } from "../jobs/refit.js";
import { parseFamilies, parseKmax, parsePriorStrength, parseStarts } from "../mixture/fit.js";
import { DEFAULT_SETUP, parseGuard, type GuardSetting } from "../mixture/select.js";
import type { MixtureStarts } from "../backend/kernels/mixture.js";
import { BEST_METHODS, lightenDefaultMethods } from "./defaults.js";
import { checkMethods, jobOptions, type RunOptions } from "./common.js";

/** The mixtures refit fits to every configuration's runs (defaults: issue 17's setup, ts/mixture/select.ts). */
export interface RefitMixtureOptions {
  /** Families (default loglogistic). */
  families?: string[];
  /** Components 1..kmax (default 5). */
  kmax?: number;
  /** Start strategy (default full). */
  starts?: MixtureStarts;
  /** Seed of the k-means++ starts (an integer, default 1). */
  seed?: number;
  /** MAP EM prior strength in pseudo-runs (default 4; 0 = maximum likelihood). */
  priorStrength?: number;
  /** Degeneracy guard at selection (default on). */
  guard?: GuardSetting;
}

export interface RefitOptions {
  /** Column roles, statistic and transforms of the data (ts/data/load.ts). */
  data: LoadOptions;
  /** The job directory. */
  out: string;
  /** Predictors; default: the best set (without gp and rbf above 1,000 maps). */
  methods?: string[];
  /** Hyperparameters per method. */
  methodOptions?: Record<string, Record<string, unknown>>;
  /** Mixtures of every configuration's runs; false: none (also none for an aggregated map table). */
  mixtures?: RefitMixtureOptions | false;
  /** Also calibrate conformal prediction intervals by k-fold cross-validation (k >= 2). */
  conformalFolds?: number;
  /** Also calibrate combinations of these inputs/factors never measured, on leave-group-out folds (implies 10 folds). */
  conformalGroups?: string[];
  run?: RunOptions;
}

export interface RefitSummary extends JobSummary {
  /** summary.md and the list of outputs as `varmap refit` prints them; "" for a shard. */
  text: string;
}

export async function runRefit(file: string, options: RefitOptions): Promise<RefitSummary> {
  const run = options.run ?? {};
  const requested = checkMethods(options.methods ?? splitList(BEST_METHODS));
  const methodOptions = options.methodOptions ?? {};
  if (!options.out) throw new VarmapError("E_USAGE", "refit needs --out <dir>", { remedy: "e.g. varmap refit data.csv --preset moana --out refit-out" });
  // Mixtures need each configuration's runs: not available from an aggregated --map table.
  // Every mixture option is validated, even when no mixtures will be fitted (mixtures: false, a map table).
  const mix = options.mixtures || {};
  const allFamilies = parseFamilies((mix.families ?? DEFAULT_SETUP.families).join(","));
  const families = options.mixtures === false || options.data.map ? [] : allFamilies;
  const kmax = parseKmax(mix.kmax);
  const starts = parseStarts(mix.starts);
  const seed = mix.seed ?? 1;
  const priorStrength = parsePriorStrength(mix.priorStrength, DEFAULT_SETUP.priorStrength);
  parseGuard(mix.guard);
  const guard = (mix.guard ?? DEFAULT_SETUP.guard) as GuardSetting;
  const conformalGroups = options.conformalGroups;
  const conformalFolds = options.conformalFolds ?? (conformalGroups ? 10 : undefined);
  if (conformalFolds !== undefined) parseInteger(conformalFolds, "--conformal-folds", { min: 2, example: 10 });
  const ds = await loadDataset(file, {
    ...options.data,
    ...(families.length ? { requirePositive: true, positiveReason: "mixtures of positive families" } : {}),
  });
  if (!ds.maps.length)
    throw new VarmapError("E_EMPTY", `${file} yields no variability maps`, { location: { file }, remedy: "check --where and the column flags" });
  const maps = packMaps(ds.maps);
  // One fit per map: the default set keeps each costly method up to its HEAVY_DEFAULT_FITS maps.
  const lightened = lightenDefaultMethods(options.methods === undefined, requested, ds.maps.length);
  const methods = lightened.methods;
  if (lightened.note && !run.quiet) process.stderr.write(`varmap: note: ${lightened.note}\n`);
  let runs: { runs: Float64Array; offsets: Int32Array; keys: string[][] } | undefined;
  let mixtures: RefitMixturePlan | undefined;
  if (families.length) {
    const t = ds.table;
    const d = t.roles.inputs.length;
    runs = { runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: [] };
    for (let c = 0; c < t.count; c++)
      runs.keys.push([...t.factorValues.map((f) => f[c]), ...Array.from(t.inputs.subarray(c * d, (c + 1) * d), (v) => String(v))]);
    mixtures = {
      families,
      kmax,
      seed,
      ...(starts === "full" ? {} : { starts }),
      ...(priorStrength ? { priorStrength } : {}),
      ...(guard !== "off" ? { guard } : {}),
      configs: t.count,
      columns: [...t.roles.factors, ...t.roles.inputs],
    };
  }
  const plan = refitPlan(maps, {
    methods,
    methodOptions,
    response: (ds.resolved?.logResponse ?? options.data.logResponse) ? "log" : "linear",
    stat: ds.maps[0]?.stat,
    mixtures,
    conformalFolds,
    ...(conformalGroups ? { conformalGroups } : {}),
    autoTransforms: { inputs: options.data.logInputs?.[0] === "auto", response: options.data.logResponse === "auto" },
  });
  const s = await runJob(refitJob, { maps, plan, runs }, jobOptions(run, options.out, "refit"));
  const files = refitJob.files(plan).join(", ");
  const text = s.shard === null ? readFileSync(join(options.out, "summary.md"), "utf8") + `\nOutputs in ${options.out}: ${files}\n` : "";
  return { ...s, text };
}
