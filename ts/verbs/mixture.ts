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
import { runJob } from "../pool/job.js";
import { readRecords, RESULTS } from "../pool/store.js";
import { formatTables, summarizeFits, type MixtureSummary as MixtureTables } from "../mixture/tables.js";
import { FAMILIES, type FamilyName } from "../mixture/families.js";
import { mixtureStdErrors } from "../mixture/stderr.js";
import { flatParamColumns, paramNameColumns } from "../mixture/flat-params.js";
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
import { jobOptions, type RunOptions } from "./common.js";

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
  /** The fits table (.csv, .tsv, .json or .parquet). */
  out?: string;
  /** The job's journal directory (default: <out>.job, removed when done). */
  jobDir?: string;
  /** Workers, resume and quiet (mixture does not shard yet). */
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
  /** The tables as `varmap mixture` prints them. */
  text: string;
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
  if (out) tableFormat(out);
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
  const ctx = mixtureContext(packedRuns, offsets, ids, { families, kmax, restarts, seed, starts, priorStrength });
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
    await writeTable(out, fitColumns(fit, keep, t, stdErrorsOfBest(fit, packedRuns, offsets), selection, criterion));
    note?.(`wrote ${fit.rows.length} fits to ${out}`);
  }
  if (!given) rmSync(dir, { recursive: true, force: true });
  const summary = summarizeFits(fit, families, kmax);
  return { fits: summary, text: formatTables(summary) };
}

/** One row per (configuration, family, k): key columns, then the fit. */
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

/**
 * Standard errors of the chosen model of every configuration (rows with best = true), in the layout of `params`
 * ({w, <a name>, <b name>}, NaN as null); null on the other rows.
 */
function stdErrorsOfBest(fit: MixtureFitResult, runs: Float64Array, offsets: Int32Array): (Record<string, (number | null)[]> | null)[] {
  return fit.rows.map((r) => {
    if (!r.best || !Number.isFinite(r.loglik)) return null;
    const se = mixtureStdErrors(r.mixture, runs.subarray(offsets[r.config], offsets[r.config + 1]));
    const [an, bn] = FAMILIES[r.family].paramNames;
    const fin = (v: number[]) => v.map((x) => (Number.isFinite(x) ? x : null));
    return { w: fin(se.w), [an]: fin(se.a), [bn]: fin(se.b) };
  });
}

function fitColumns(
  fit: MixtureFitResult,
  keep: number[],
  t: KeyTable,
  stdErrors: (Record<string, (number | null)[]> | null)[],
  selection?: Selection,
  criterion?: Criterion,
): Column[] {
  const rows = fit.rows;
  const d = t.roles.inputs.length;
  const cols: Column[] = [];
  t.roles.factors.forEach((name, f) => cols.push({ name, values: rows.map((r) => t.factorValues[f][keep[r.config]]), type: "string" }));
  t.roles.inputs.forEach((name, j) => cols.push({ name, values: rows.map((r) => t.inputs[keep[r.config] * d + j]) }));
  cols.push({ name: "n", values: Int32Array.from(rows, (r) => r.n), type: "int" });
  cols.push({ name: "family", values: rows.map((r) => r.family), type: "string" });
  cols.push({ name: "k", values: Int32Array.from(rows, (r) => r.k), type: "int" });
  cols.push({ name: "loglik", values: rows.map((r) => (Number.isFinite(r.loglik) ? r.loglik : null)) });
  cols.push({ name: "bic", values: rows.map((r) => (Number.isFinite(r.bic) ? r.bic : null)) });
  cols.push({ name: "iterations", values: Int32Array.from(rows, (r) => r.iterations), type: "int" });
  cols.push({ name: "converged", values: rows.map((r) => String(r.converged)), type: "string" });
  cols.push({ name: "floor_bound", values: rows.map((r) => String(r.floorBound)), type: "string" });
  cols.push({ name: "params", values: rows.map((r) => JSON.stringify(r.params)), type: "string" });
  cols.push({ name: "se", values: stdErrors.map((se) => (se ? JSON.stringify(se) : null)), type: "string" });
  // The same parameters and standard errors as typed columns (issue 44 item 4): no JSON parser needed.
  const K = rows.reduce((m, r) => Math.max(m, r.k), 1);
  cols.push(...paramNameColumns(rows.map((r) => r.family)));
  cols.push(
    ...flatParamColumns(
      rows.map((r) => ({ family: r.family, params: r.params })),
      K,
    ),
  );
  cols.push(
    ...flatParamColumns(
      rows.map((r, i) => (stdErrors[i] ? { family: r.family, params: stdErrors[i]! } : null)),
      K,
      "se_",
    ),
  );
  if (selection) {
    // Only with non-default selection flags, so the default table keeps its columns.
    // Named selection_<criterion>: with --criterion bic a second `bic` column made the table unloadable by name
    // (pandas, R and DuckDB rename or refuse duplicates; issue 44). It holds the criterion the guard ranked by.
    cols.push({ name: `selection_${criterion ?? "score"}`, values: Array.from(selection.score, (v) => (Number.isFinite(v) ? v : null)) });
    cols.push({ name: "guard", values: selection.verdict, type: "string" });
  }
  cols.push({ name: "best", values: rows.map((r) => String(r.best)), type: "string" });
  return cols;
}
