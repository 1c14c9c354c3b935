// `mixture`: mixtures of six families (k = 1..kmax) fitted by EM to every configuration's runs, BIC (or another
// criterion, guarded) selection, and the summaries of seed 001 Tables 3, 4 and 5; or --validate on held-back runs.
// The fits run as a resumable job on the engine (ts/jobs/mixture.ts). The CLI (ts/cli/commands/mixture.ts) parses
// the flags into MixtureOptions and prints the summary.
import { ownedTempDir } from "../data/atomic.js";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadDataset, type LoadOptions } from "../data/load.js";
import { tableFormat, writeTable, type Column } from "../data/write.js";
import { VarmapError } from "../errors.js";
import { parseInteger } from "../data/option-values.js";
import { parseFamilies, parsePriorStrength, parseStarts, type MixtureFitResult } from "../mixture/fit.js";
import { assembleFits, job as mixtureJob, mixtureContext } from "../jobs/mixture.js";
import { fitColumns, stdErrorsOfBest } from "../jobs/mixture-table.js";
import { runJob } from "../pool/job.js";
import { readRecords, RESULTS } from "../pool/store.js";
import { formatTables, summarizeFits, type MixtureSummary as MixtureTables } from "../mixture/tables.js";
import type { FamilyName } from "../mixture/families.js";
import { DEFAULT_SETUP, parseCriterion, parseGuard, parseSplit, type Criterion, type GuardSetting, type SplitScheme } from "../mixture/select.js";
import {
  formatValidation,
  isCatastrophic,
  selectModels,
  summarizeValidation,
  validateMixtures,
  type Selection,
  type ValidationResult,
} from "../jobs/mixture-validate.js";
import { parseWorkers } from "../pool/pool.js";
import type { MixtureStarts } from "../backend/kernels/mixture.js";
import { jobOptions, type JobSummary, type RunOptions } from "./common.js";

/**
 * Defaults of the fitting and selection options (issue 17, DEFAULT_SETUP): loglogistic components, BIC among
 * guard-eligible fits, MAP EM with prior strength 4. The papers' setup: families all, guard off, prior strength 0.
 */
export const DEFAULT_FAMILIES = DEFAULT_SETUP.families.join(",");
export const DEFAULT_CRITERION: Criterion = DEFAULT_SETUP.criterion;
export const DEFAULT_GUARD_FLAG = DEFAULT_SETUP.guard;
/** Strength of the MAP prior on component scales (0 = maximum likelihood EM, the papers' setup). */
export const DEFAULT_PRIOR_STRENGTH = DEFAULT_SETUP.priorStrength;

export interface MixtureOptions {
  /** Column roles of the runs table (no map, statistic or transforms). */
  data: LoadOptions;
  /** Families (default loglogistic; the papers: all six). */
  families?: FamilyName[];
  /** k = 1..kmax components (1..16, default 5). */
  kmax?: number;
  /** Partition starts per model besides the deterministic ones (default 5). */
  restarts?: number;
  /** Seed of the k-means++ starts (an integer, default 1). */
  seed?: number;
  starts?: MixtureStarts;
  /** Model selection (default bic). */
  criterion?: Criterion;
  /** Degeneracy guard at selection (default on). */
  guard?: GuardSetting;
  /** MAP prior strength in pseudo-runs (default 4; 0 = maximum likelihood). */
  priorStrength?: number;
  /** Folds of runs for criterion cv and split random (2..50, default 5). */
  folds?: number;
  /** Validation split (default odd-even). */
  split?: SplitScheme;
  /** Fit on training runs and score the held-back runs instead. */
  validate?: boolean;
  /** With validate: the per-configuration table. */
  validateOut?: string;
  /** The fits table (.csv, .tsv, .json or .parquet); with run.shard: the job directory (fits.csv in it). */
  out?: string;
  /** The job's journal directory (default: <out>.job, removed when done). */
  jobDir?: string;
  /** Workers, one shard of the tasks (then out is a directory, combined by `varmap merge`), resume and quiet. */
  run?: RunOptions;
}

export interface MixtureSummary {
  /** The seed-001 tables of the fits (absent with validate). */
  fits?: MixtureTables;
  /** The validation summary (with validate). */
  validation?: {
    split: SplitScheme;
    folds: number;
    criterion: Criterion;
    guard: string;
    priorStrength: number;
    summary: ReturnType<typeof summarizeValidation>;
  };
  /** The tables as `varmap mixture` prints them ("" for a shard). */
  text: string;
  /** With run.shard: the job's run (its directory, tasks, "i/N" or null for a whole job). */
  job?: JobSummary;
}

export async function runMixture(file: string, options: MixtureOptions): Promise<MixtureSummary> {
  const run = options.run ?? {};
  const families = options.families ? parseFamilies(options.families.join(",")) : [...DEFAULT_SETUP.families];
  let kmax = parseInteger(options.kmax ?? 5, "--kmax", { min: 1, max: 16 });
  const restarts = parseInteger(options.restarts ?? 5, "--restarts", { min: 1, max: 1000 });
  const seed = parseInteger(options.seed ?? 1, "--seed", { min: 0, max: Number.MAX_SAFE_INTEGER });
  const starts = parseStarts(options.starts);
  const criterion = parseCriterion(options.criterion);
  const guard = parseGuard(options.guard);
  const guardName = String(options.guard ?? DEFAULT_GUARD_FLAG)
    .trim()
    .toLowerCase();
  const prior = parsePriorStrength(options.priorStrength, DEFAULT_PRIOR_STRENGTH);
  const priorStrength = prior > 0 ? prior : undefined; // 0: plain ML EM, the job plan as before
  const folds = parseInteger(options.folds ?? 5, "--folds", { min: 2, max: 50 });
  const split = parseSplit(options.split);
  const validate = !!options.validate;
  const validateOut = options.validateOut;
  if (validateOut && !validate) throw new VarmapError("E_USAGE", "--validate-out needs --validate", { remedy: "add --validate or drop --validate-out" });
  if (validateOut) tableFormat(validateOut);
  // BIC over every fit (the kernel's best flags) needs no selection pass; any other rule marks its own best.
  const customSelection = criterion !== "bic" || guard.on;
  const workers = run.workers ?? parseWorkers(undefined);
  const out = options.out;
  // With --shard the run is a job like cv's: --out is its directory (fits.csv in it; `varmap merge` combines shards).
  const sharded = run.shard !== undefined;
  if (sharded && (validate || !out || options.jobDir))
    throw new VarmapError(
      "E_USAGE",
      validate ? "--validate cannot be sharded" : options.jobDir ? "--shard takes the job directory from --out, not --job-dir" : "--shard needs --out <dir>",
      {
        remedy: "varmap mixture data.csv --shard 1/3 --out shard-1 (then varmap merge shard-1 shard-2 shard-3 --out merged: merged/fits.csv)",
      },
    );
  if (out && !sharded) tableFormat(out);
  const given = options.jobDir;
  const jobDir = given ?? (out ? `${out}.job` : undefined);
  const jobOpts = jobOptions({ workers, resume: run.resume, quiet: run.quiet }, jobDir ?? "", "mixture");
  const note = run.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
  const data = await loadDataset(file, {
    ...options.data,
    requirePositive: true,
    positiveReason: "mixtures of positive families (runs are divided by their mean)",
    note,
  });
  const t = data.table;
  const n = (c: number) => t.offsets[c + 1] - t.offsets[c];
  const keep: number[] = [];
  for (let c = 0; c < t.count; c++) if (n(c) >= 2) keep.push(c);
  if (keep.length < t.count) note?.(`${t.count - keep.length} configuration(s) with fewer than 2 runs skipped`);
  if (keep.length === 0) throw new VarmapError("E_NO_DATA", "no configuration has 2 or more runs", { location: { file } });
  const offsets = new Int32Array(keep.length + 1);
  const runs: number[] = [];
  keep.forEach((c, i) => {
    for (let r = t.offsets[c]; r < t.offsets[c + 1]; r++) runs.push(t.runs[r]);
    offsets[i + 1] = runs.length;
  });
  // --kmax above the runs of a configuration (issue 14, item 12): a mixture of more components than runs only
  // repeats a smaller one (BIC never prefers it). Above every configuration's runs, k is capped at the most
  // runs any configuration has; above some, they are named. Both are notes, never silent.
  let mostRuns = 0,
    fewer = 0;
  for (let i = 0; i < keep.length; i++) {
    const m = offsets[i + 1] - offsets[i];
    mostRuns = Math.max(mostRuns, m);
    if (m < kmax) fewer++;
  }
  if (kmax > mostRuns) {
    note?.(`--kmax ${kmax} exceeds the runs of every configuration (at most ${mostRuns}): k is capped at ${mostRuns}`);
    kmax = mostRuns;
  } else if (fewer > 0)
    note?.(`${fewer} configuration(s) have fewer runs than --kmax ${kmax}: their fits with k above their runs repeat a smaller k (BIC never selects them)`);
  const packedRuns = Float64Array.from(runs),
    ids = Int32Array.from(keep);
  const selectOpts = { criterion, guard, folds, seed, workers, fit: { families, kmax, restarts, seed, starts, priorStrength } };
  if (validate) {
    const minRuns = split === "random" ? 2 * folds : 4;
    const small = keep.filter((_, i) => offsets[i + 1] - offsets[i] < minRuns);
    if (small.length)
      throw new VarmapError("E_TOO_FEW_RUNS", `${small.length} configuration(s) have fewer than ${minRuns} runs, too few to validate with split ${split}`, {
        location: { file },
        remedy: "filter them out with --where, or use fewer --folds",
      });
    note?.(`validating ${criterion} (guard ${guardName}, prior strength ${prior}) on held-back runs, split ${split}, ${keep.length} configurations`);
    const v = await validateMixtures(packedRuns, offsets, ids, split, folds, [{ name: "chosen", criterion, guard }], selectOpts);
    if (validateOut) {
      await writeTable(validateOut, validationColumns(v, keep, t));
      note?.(`wrote ${keep.length} validations to ${validateOut}`);
    }
    return {
      validation: { split, folds: v.folds, criterion, guard: guardName, priorStrength: prior, summary: summarizeValidation(v) },
      text: formatValidation(v),
    };
  }
  note?.(`fitting ${families.length} families × k = 1..${kmax} to ${keep.length} configurations`);
  // The fits run as a job whose journal survives a kill: the same command resumes where it stopped.
  const fitOpts = { families, kmax, restarts, seed, starts, priorStrength };
  if (sharded) {
    const d = t.roles.inputs.length;
    const inputs = new Float64Array(keep.length * d);
    keep.forEach((c, i) => inputs.set(t.inputs.subarray(c * d, (c + 1) * d), i * d));
    const spec = { criterion, guard: guardName as GuardSetting, folds, factors: t.roles.factors, inputs: t.roles.inputs };
    const factors = keep.map((c) => t.factorValues.map((f) => f[c]));
    const ctx = mixtureContext(packedRuns, offsets, ids, fitOpts, { spec, factors, inputs });
    const s = await runJob(mixtureJob, ctx, { ...jobOptions(run, out!, "mixture") });
    if (s.shard !== null) return { job: s, text: "" };
    const fit = assembleFits(ctx.plan, new Map(readRecords(join(out!, RESULTS)).map((r) => [r.id, r.result])));
    const summary = summarizeFits(fit, families, kmax);
    return { fits: summary, text: formatTables(summary), job: s };
  }
  const ctx = mixtureContext(packedRuns, offsets, ids, fitOpts);
  const dir = jobDir ?? ownedTempDir("mixture");
  let fit: MixtureFitResult;
  try {
    await runJob(mixtureJob, ctx, { ...jobOpts, out: dir });
    fit = assembleFits(ctx.plan, new Map(readRecords(join(dir, RESULTS)).map((r) => [r.id, r.result])));
  } catch (e) {
    if (!jobDir) rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  let selection: Selection | undefined;
  if (customSelection) {
    // The best flags follow the chosen criterion among guard-eligible models (cv: K more batched fits).
    selection = await selectModels(packedRuns, offsets, ids, fit, selectOpts);
    fit.rows.forEach((r) => (r.best = false));
    for (const i of selection.chosen) if (i >= 0) fit.rows[i].best = true;
    note?.(
      `selected by ${criterion}, guard ${guardName}: the guard changed the choice in ${selection.guardBinds} of ${keep.length} configurations (${selection.ineligible} of ${fit.rows.length} fits ineligible)`,
    );
  }
  if (out) {
    const d = t.roles.inputs.length;
    const keys = {
      factors: t.roles.factors,
      inputs: t.roles.inputs,
      factor: (f: number, c: number) => t.factorValues[f][keep[c]],
      input: (j: number, c: number) => t.inputs[keep[c] * d + j],
    };
    await writeTable(out, fitColumns(fit, keys, stdErrorsOfBest(fit, packedRuns, offsets), selection, criterion));
    note?.(`wrote ${fit.rows.length} fits to ${out}`);
  }
  if (!given) rmSync(dir, { recursive: true, force: true });
  const summary = summarizeFits(fit, families, kmax);
  return { fits: summary, text: formatTables(summary) };
}

type KeyTable = { roles: { factors: string[]; inputs: string[] }; factorValues: string[][]; inputs: Float64Array };

/** One row per configuration: key columns, the chosen models per fold, held-back log L per run, catastrophic. */
function validationColumns(v: ValidationResult, keep: number[], t: KeyTable): Column[] {
  const d = t.roles.inputs.length;
  const cols: Column[] = [];
  t.roles.factors.forEach((name, f) => cols.push({ name, values: keep.map((c) => t.factorValues[f][c]), type: "string" }));
  t.roles.inputs.forEach((name, j) => cols.push({ name, values: keep.map((c) => t.inputs[c * d + j]) }));
  const fin = (x: number) => (Number.isFinite(x) ? x : null);
  cols.push({ name: "n", values: Int32Array.from(v.configs, (c) => c.n), type: "int" });
  cols.push({ name: "chosen", values: v.configs.map((c) => c.chosen.chosen.join(";")), type: "string" });
  cols.push({ name: "train_loglik_per_run", values: v.configs.map((c) => fin(c.trainPerRun.chosen)) });
  cols.push({ name: "heldout_loglik_per_run", values: v.configs.map((c) => fin(c.heldOut.chosen)) });
  cols.push({ name: "heldout_normal1", values: v.configs.map((c) => fin(c.heldOut.normal1)) });
  cols.push({ name: "heldout_lognormal1", values: v.configs.map((c) => fin(c.heldOut.lognormal1)) });
  cols.push({ name: "catastrophic", values: v.configs.map((c) => String(isCatastrophic(c, "chosen"))), type: "string" });
  return cols;
}
