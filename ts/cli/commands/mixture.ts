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
import { parseFamilies, parseStarts, type MixtureFitResult } from "../../mixture/fit.js";
import { assembleFits, job as mixtureJob, mixtureContext } from "../../jobs/mixture.js";
import { jobOptionsFromCli, runJob } from "../../pool/job.js";
import { readRecords, RESULTS } from "../../pool/store.js";
import { formatTables, summarizeFits } from "../../mixture/tables.js";

export function register(program: Command): void {
  const cmd = program
    .command("mixture")
    .description("mixture models of every configuration's runs (6 families × k = 1..kmax, EM), BIC selection, the seed-001 tables")
    .argument("<data>", "runs table (.csv or .parquet), one row per run");
  addDataOptions(cmd)
    .option("--families <list>", "all, or a comma-separated subset of normal,gamma,weibull,lognormal,loglogistic,frechet", "all")
    .option("--kmax <k>", "fit k = 1..kmax components", "5")
    .option("--restarts <r>", "partition starts (quantile + k-means++) per model, besides the deterministic spike/core/greedy starts", "5")
    .option("--seed <s>", "seed of the deterministic generator (k-means++ starts)", "1")
    .option("--starts <s>", "full: every start runs its short EM; raced: trailing starts are given up at iterations 10 and 15 (about 15% faster, a few fits end at lower optima); partitions: quantile and k-means++ starts only", "full")
    .option("--workers <n>", "worker threads (default: one per core; 0 or 1 = this thread); the fits do not depend on it")
    .option("--out <path>", "fits table: .csv, .json or .parquet (one row per configuration, family and k)")
    .option("--job-dir <dir>", "where the resumable journal of the fits is kept while they run (default: <out>.job beside --out, removed when done)")
    .option("--no-resume", "discard a journal left in the job directory by an interrupted run and start over")
    .option("--json", "print the tables as JSON on stdout")
    .option("--quiet", "no progress or notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      const families = parseFamilies(opts.families as string);
      const kmax = intOption(opts.kmax, "--kmax", 1, 16);
      const restarts = intOption(opts.restarts, "--restarts", 1, 1000);
      const seed = intOption(opts.seed, "--seed", 0, Number.MAX_SAFE_INTEGER);
      const starts = parseStarts(opts.starts);
      const out = opts.out as string | undefined;
      if (out) tableFormat(out);
      const given = opts.jobDir as string | undefined;
      const jobDir = given ?? (out ? `${out}.job` : undefined);
      const jobOpts = jobOptionsFromCli({ workers: opts.workers as string | undefined, resume: opts.resume as boolean, quiet: !!opts.quiet }, jobDir ?? "", "mixture");
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
      note?.(`fitting ${families.length} families × k = 1..${kmax} to ${keep.length} configurations`);
      // The fits run as a job whose journal survives a kill: the same command resumes where it stopped.
      const ctx = mixtureContext(Float64Array.from(runs), offsets, Int32Array.from(keep), { families, kmax, restarts, seed, starts });
      const dir = jobDir ?? mkdtempSync(join(tmpdir(), "varmap-mixture-"));
      let fit: MixtureFitResult;
      try {
        await runJob(mixtureJob, ctx, { ...jobOpts, out: dir });
        fit = assembleFits(ctx.plan, new Map(readRecords(join(dir, RESULTS)).map((r) => [r.id, r.result])));
      } catch (e) {
        if (!jobDir) rmSync(dir, { recursive: true, force: true });
        throw e;
      }
      if (out) {
        await writeTable(out, fitColumns(fit, keep, t));
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
  if (!Number.isInteger(x) || x < lo || x > hi)
    throw new VarmapError("E_USAGE", `${name} must be an integer from ${lo} to ${hi}, got '${String(v)}'`);
  return x;
}

/** One row per (configuration, family, k): key columns, then the fit. */
function fitColumns(fit: MixtureFitResult, keep: number[], t: { roles: { factors: string[]; inputs: string[] }; factorValues: string[][]; inputs: Float64Array }): Column[] {
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
  cols.push({ name: "best", values: rows.map((r) => String(r.best)), type: "string" });
  return cols;
}
