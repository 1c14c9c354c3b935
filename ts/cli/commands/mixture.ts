// `varmap mixture <data>`: mixtures of six families (k = 1..kmax) fitted by EM to every configuration's runs,
// BIC selection, and the summaries of seed 001 Tables 3, 4 and 5.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { addDataOptions } from "../options.js";
import { loadDataset, optionsFromCli } from "../../data/load.js";
import { tableFormat, writeTable, type Column } from "../../data/write.js";
import { VarmapError } from "../../errors.js";
import { parseFamilies, parsePriorStrength, parseStarts, type MixtureFitResult } from "../../mixture/fit.js";
import { assembleFits, job as mixtureJob, mixtureContext } from "../../jobs/mixture.js";
import { jobOptionsFromCli, runJob } from "../../pool/job.js";
import { readRecords, RESULTS } from "../../pool/store.js";
import { formatTables, summarizeFits } from "../../mixture/tables.js";
import { FAMILIES, FAMILY_NAMES } from "../../mixture/families.js";
import { mixtureStdErrors } from "../../mixture/stderr.js";
import { DEFAULT_SETUP, parseCriterion, parseGuard, parseSplit, type Criterion } from "../../mixture/select.js";
import {
  formatValidation,
  isCatastrophic,
  selectModels,
  summarizeValidation,
  validateMixtures,
  type Selection,
  type ValidationResult,
} from "../../jobs/mixture-validate.js";
import { parseWorkers } from "../../pool/pool.js";

/**
 * Defaults of the fitting and selection flags (issue 17, DEFAULT_SETUP): loglogistic components, BIC among
 * guard-eligible fits, MAP EM with prior strength 4. The papers' setup: --families all --guard off --prior-strength 0.
 */
export const DEFAULT_FAMILIES = DEFAULT_SETUP.families.join(",");
export const DEFAULT_CRITERION: Criterion = DEFAULT_SETUP.criterion;
export const DEFAULT_GUARD_FLAG = DEFAULT_SETUP.guard;
/** Strength of the MAP prior on component scales (0 = maximum likelihood EM, the papers' setup). */
export const DEFAULT_PRIOR_STRENGTH = DEFAULT_SETUP.priorStrength;

export function register(program: Command): void {
  const cmd = program
    .command("mixture")
    .description(
      "mixture models of every configuration's runs (k = 1..kmax, MAP EM), guarded BIC selection, the seed-001 tables; the papers' setup: --families all --guard off --prior-strength 0",
    )
    .argument("<data>", "runs table (.csv, .tsv or .parquet), one row per run");
  addDataOptions(cmd, { runsOnly: true })
    .option(
      "--families <list>",
      `all, or a comma-separated subset of ${FAMILY_NAMES.join(",")} (default loglogistic: heavy tails generalize to held-back runs; all = the papers' six)`,
      DEFAULT_FAMILIES,
    )
    .option("--kmax <k>", "fit k = 1..kmax components", "5")
    .option("--restarts <r>", "partition starts (quantile + k-means++) per model, besides the deterministic spike/core/greedy starts", "5")
    .option("--seed <s>", "seed of the deterministic generator (k-means++ starts)", "1")
    .option(
      "--starts <s>",
      "full: every start runs its short EM; raced: trailing starts are given up at iterations 10 and 15 (about 15% faster, a few fits end at lower optima); partitions: quantile and k-means++ starts only",
      "full",
    )
    .option("--workers <n>", "worker threads (default: one per core; 0 or 1 = this thread); the fits do not depend on it")
    .option(
      "--out <path>",
      "fits table: .csv, .tsv, .json or .parquet (one row per configuration, family and k; column se: standard errors of the chosen model's params from the observed information)",
    )
    .option("--job-dir <dir>", "where the resumable journal of the fits is kept while they run (default: <out>.job beside --out, removed when done)")
    .option("--no-resume", "discard a journal left in the job directory by an interrupted run and start over")
    .option(
      "--criterion <c>",
      "model selection: bic, icl (BIC + 2 × entropy of the responsibilities), aic, or cv (mean held-back log-likelihood per run over --folds random folds of runs)",
      DEFAULT_CRITERION,
    )
    .option(
      "--guard <on|strict|off>",
      "degeneracy guard at selection: on = a component needs ≥ 6 expected runs (3 per parameter) and a scale ≥ max(2 × resolution, 1% of the runs' sd); strict = ≥ 10 runs and 10% of the sd; off = every model eligible (the papers' setup)",
      DEFAULT_GUARD_FLAG,
    )
    .option(
      "--prior-strength <s>",
      "MAP EM: a weak prior on each component's scale (x for normal, log x for the log families; not gamma) worth s pseudo-runs spread by the runs' variance / k² (as mclust's priorControl); 0 = maximum likelihood (the papers' setup)",
      String(DEFAULT_PRIOR_STRENGTH),
    )
    .option("--folds <K>", "folds of runs for --criterion cv and for --validate --split random", "5")
    .option(
      "--validate",
      "fit on training runs, score the held-back runs: per configuration the chosen model, single normal and single lognormal, a catastrophic flag; summary on stdout",
    )
    .option("--split <s>", "--validate split: odd-even (2 folds by run parity), halves (first/second half), random (--folds folds)", "odd-even")
    .option("--validate-out <path>", "with --validate: the per-configuration table (.csv, .tsv, .json or .parquet)")
    .option("--json", "print the tables as JSON on stdout")
    .option("--quiet", "no progress or notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      const families = parseFamilies(opts.families as string);
      let kmax = intOption(opts.kmax, "--kmax", 1, 16);
      const restarts = intOption(opts.restarts, "--restarts", 1, 1000);
      const seed = intOption(opts.seed, "--seed", 0, Number.MAX_SAFE_INTEGER);
      const starts = parseStarts(opts.starts);
      const criterion = parseCriterion(opts.criterion);
      const guard = parseGuard(opts.guard);
      const guardName = String(opts.guard).trim().toLowerCase();
      const prior = parsePriorStrength(opts.priorStrength, DEFAULT_PRIOR_STRENGTH);
      const priorStrength = prior > 0 ? prior : undefined; // 0: plain ML EM, the job plan as before
      const folds = intOption(opts.folds, "--folds", 2, 50);
      const split = parseSplit(opts.split);
      const validate = !!opts.validate;
      const validateOut = opts.validateOut as string | undefined;
      if (validateOut && !validate) throw new VarmapError("E_USAGE", "--validate-out needs --validate", { remedy: "add --validate or drop --validate-out" });
      if (validateOut) tableFormat(validateOut);
      // BIC over every fit (the kernel's best flags) needs no selection pass; any other rule marks its own best.
      const customSelection = criterion !== "bic" || guard.on;
      const workers = parseWorkers(opts.workers as string | undefined);
      const out = opts.out as string | undefined;
      if (out) tableFormat(out);
      const given = opts.jobDir as string | undefined;
      const jobDir = given ?? (out ? `${out}.job` : undefined);
      const jobOpts = jobOptionsFromCli(
        { workers: opts.workers as string | undefined, resume: opts.resume as boolean, quiet: !!opts.quiet },
        jobDir ?? "",
        "mixture",
      );
      const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
      const data = await loadDataset(file, {
        ...optionsFromCli(opts),
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
        if (opts.json)
          process.stdout.write(
            JSON.stringify({ split, folds: v.folds, criterion, guard: guardName, priorStrength: prior, summary: summarizeValidation(v) }, null, 2) + "\n",
          );
        else process.stdout.write(formatValidation(v));
        return;
      }
      note?.(`fitting ${families.length} families × k = 1..${kmax} to ${keep.length} configurations`);
      // The fits run as a job whose journal survives a kill: the same command resumes where it stopped.
      const ctx = mixtureContext(packedRuns, offsets, ids, { families, kmax, restarts, seed, starts, priorStrength });
      const dir = jobDir ?? mkdtempSync(join(tmpdir(), "varmap-mixture-"));
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
      if (opts.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
      else process.stdout.write(formatTables(summary));
    });
}

function intOption(v: unknown, name: string, lo: number, hi: number): number {
  const x = Number(v);
  if (!Number.isInteger(x) || x < lo || x > hi) throw new VarmapError("E_USAGE", `${name} must be an integer from ${lo} to ${hi}, got '${String(v)}'`);
  return x;
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
 * Standard errors of the chosen model of every configuration (rows with best = true), as JSON in the layout of
 * `params` ({w, <a name>, <b name>}, NaN written as null); null on the other rows.
 */
function stdErrorsOfBest(fit: MixtureFitResult, runs: Float64Array, offsets: Int32Array): (string | null)[] {
  return fit.rows.map((r) => {
    if (!r.best || !Number.isFinite(r.loglik)) return null;
    const se = mixtureStdErrors(r.mixture, runs.subarray(offsets[r.config], offsets[r.config + 1]));
    const [an, bn] = FAMILIES[r.family].paramNames;
    const fin = (v: number[]) => v.map((x) => (Number.isFinite(x) ? x : null));
    return JSON.stringify({ w: fin(se.w), [an]: fin(se.a), [bn]: fin(se.b) });
  });
}

function fitColumns(fit: MixtureFitResult, keep: number[], t: KeyTable, stdErrors: (string | null)[], selection?: Selection, criterion?: Criterion): Column[] {
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
  cols.push({ name: "se", values: stdErrors, type: "string" });
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
