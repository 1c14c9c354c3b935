// `gev`: a GEV fit per configuration (seed 002; spec B.3) with standard errors, return levels, the nested Gumbel
// fit and its likelihood-ratio test, goodness of fit and (optionally) plot diagnostics; one table file fitted in
// this thread, or a job directory on the engine (ts/jobs/gev.ts: resume, shards, merge). The CLI
// (ts/cli/commands/gev.ts) parses the flags into GevOptions and prints the summary.
import { resolve } from "node:path";
import { getBackend } from "../backend/index.js";
import { describeConfig, loadDataset, type LoadOptions } from "../data/load.js";
import { TABLE_OUTPUT, TABLE_OUTPUT_EXTENSIONS, writeTable } from "../data/write.js";
import { VarmapError } from "../errors.js";
import { parseInteger, parsePositiveInteger } from "../data/option-values.js";
import { DEFAULT_GEV_OPTIONS, fitGevConfigs, strictCheck, type GevRunOptions } from "../evt/configs.js";
import { configKeys, gevDiagColumns, gevTableColumns } from "../evt/table.js";
import { gevPlan, job as gevJob } from "../jobs/gev.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { sharedCopy } from "../pool/threads.js";
import { jobOptions, type RunOptions } from "./common.js";

/** An out ending in a table extension is one file (fitted in this thread); anything else is a job directory. */
export const TABLE_FILE = TABLE_OUTPUT;

export interface GevOptions {
  /** Column roles of the runs table (the statistic is the mean; no inputs needed). */
  data: LoadOptions;
  /** gev.csv-style table file (fitted in this thread), or a job directory. */
  out: string;
  /** Fit settings (tail, block, periods, level, profile, information, gumbelDetail, minRuns); default DEFAULT_GEV_OPTIONS. */
  fit?: Partial<Omit<GevRunOptions, "diagnostics">>;
  /** Plot data: a table path beside a file out; true in a job directory (diagnostics.csv there). */
  diagnostics?: boolean | string;
  /** A configuration without a valid fit is an error. */
  strict?: boolean;
  /** Job directory: configurations per task (default 1000). */
  chunk?: number;
  run?: RunOptions;
}

/** A job directory's summary, or a table file's: configurations, row flags, the files. */
export type GevSummary = { verb: "gev" } & (JobSummary | { configurations: number; flags: Record<string, number>; out: string; diagnostics: string | null });

/** The fit settings, checked (the library's way in: the CLI parses the flags first, with the same messages). */
export function checkGevFit(o: GevRunOptions): GevRunOptions {
  parsePositiveInteger(o.block, "--block", 1);
  if (o.periods.length === 0 || o.periods.some((T) => !Number.isFinite(T) || T <= 1))
    throw new VarmapError("E_USAGE", `--return-periods must be numbers > 1, got '${o.periods.join(",")}'`, { remedy: "e.g. --return-periods 10,100,1000" });
  if (!(o.level > 0 && o.level < 1)) throw new VarmapError("E_USAGE", `--level must be in (0, 1), got '${String(o.level)}'`);
  parseInteger(o.minRuns, "--min-runs", { min: 3, why: "the MLE needs 3 distinct values" });
  return o;
}

export async function runGev(file: string, options: GevOptions): Promise<GevSummary> {
  const run = options.run ?? {};
  const o = checkGevFit({ ...DEFAULT_GEV_OPTIONS, ...options.fit, diagnostics: options.diagnostics !== undefined && options.diagnostics !== false });
  const out = options.out;
  if (!out)
    throw new VarmapError("E_USAGE", "--out is required", {
      remedy: "pass --out gev.csv (one file), or --out DIR (a resumable job: --workers, --shard, merge)",
    });
  const direct = TABLE_FILE.test(out);
  const diagPath = typeof options.diagnostics === "string" ? options.diagnostics : undefined;
  if (direct && options.diagnostics === true)
    throw new VarmapError("E_USAGE", "--diagnostics needs a path when --out is a file", { remedy: "e.g. --diagnostics diag.csv" });
  if (direct && diagPath && !TABLE_FILE.test(diagPath))
    throw new VarmapError("E_USAGE", `cannot tell the format of --diagnostics '${diagPath}'`, { remedy: `end it in ${TABLE_OUTPUT_EXTENSIONS}` });
  if (direct && diagPath && resolve(diagPath) === resolve(out))
    throw new VarmapError("E_USAGE", `--out and --diagnostics name the same file '${out}': one would overwrite the other`, {
      remedy: "give --diagnostics another file, e.g. --diagnostics diag.csv",
    });
  if (!direct && diagPath) throw new VarmapError("E_USAGE", "with a job directory --out, --diagnostics takes no path (it writes diagnostics.csv there)");
  if (direct && (run.shard !== undefined || run.workers !== undefined))
    throw new VarmapError("E_USAGE", "--shard and --workers need a job directory as --out", { remedy: "pass --out DIR (gev.csv is written inside it)" });
  const chunk = options.chunk ?? 1000;
  parsePositiveInteger(chunk, "--chunk", 1000);
  const jobOpts = direct ? undefined : jobOptions(run, out, "gev");
  const note = run.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
  const data = await loadDataset(file, { ...options.data, stat: "mean", allowNoInputs: true });
  const t = data.table;
  if (o.block > 1) {
    for (let c = 0; c < t.count; c++) {
      const blocks = Math.floor((t.offsets[c + 1] - t.offsets[c]) / o.block);
      if (blocks < 10)
        throw new VarmapError("E_USAGE", `--block ${o.block} leaves ${blocks} block(s) of ${t.offsets[c + 1] - t.offsets[c]} runs (at least 10 are needed)`, {
          location: { file, configuration: describeConfig(t, c) },
          remedy: "use a smaller --block, or select configurations with more runs (--where)",
        });
    }
  }
  note?.(`fitting a GEV to ${t.count} configuration(s)${o.block > 1 ? ` (maxima of blocks of ${o.block})` : ""}, tail ${o.tail}`);
  const keys = configKeys(t);
  if (jobOpts) {
    // The job engine: chunks of configurations per task, journal/resume, --shard, `varmap merge`.
    const ctx = { runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: keys.values };
    const plan = gevPlan(ctx, keys.names, o, Boolean(options.strict), chunk);
    const s = await runJob(gevJob, { ...ctx, plan }, jobOpts);
    note?.(s.shard === null ? `wrote ${gevJob.files(plan).join(", ")} in ${out}` : `shard ${s.shard} done in ${out}`);
    if (s.summary) warnFlags(s.summary.flags as Record<string, number>, note);
    return { verb: "gev", ...s };
  }
  const results = fitGevConfigs(getBackend(), t.runs, t.offsets, 0, t.count, o);
  if (options.strict) strictCheck(results, (c) => describeConfig(t, c), file);
  const counts: Record<string, number> = {};
  for (const r of results) counts[r.flag || "ok"] = (counts[r.flag || "ok"] ?? 0) + 1;
  if (diagPath) await writeTable(diagPath, gevDiagColumns(keys.names, keys.values, results));
  await writeTable(out, gevTableColumns(keys.names, keys.values, results, o));
  note?.(`wrote ${results.length} row(s) to ${out}${diagPath ? ` and diagnostics to ${diagPath}` : ""}`);
  warnFlags(counts, note);
  return { verb: "gev", configurations: results.length, flags: counts, out, diagnostics: diagPath ?? null };
}

/** The row flags on stderr: how many configurations have no valid fit and why. */
function warnFlags(counts: Record<string, number>, note: ((m: string) => void) | undefined): void {
  note?.(
    `rows: ${Object.entries(counts)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")}`,
  );
  if (counts.irregular)
    note?.(`warning: ${counts.irregular} configuration(s) with shape <= -0.5: the estimates exist but their SEs are not valid (Smith 1985)`);
}
