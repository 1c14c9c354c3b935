// `varmap gev <runs>`: a GEV fit per configuration (seed 002; spec B.3) with standard errors, return levels,
// the nested Gumbel fit and its likelihood-ratio test, goodness of fit and (optionally) plot diagnostics.
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import { getBackend } from "../../backend/index.js";
import { addDataOptions, addRunOptions, splitList } from "../options.js";
import { describeConfig, loadDataset, optionsFromCli } from "../../data/load.js";
import { TABLE_OUTPUT, TABLE_OUTPUT_EXTENSIONS, writeTable } from "../../data/write.js";
import { VarmapError } from "../../errors.js";
import { DEFAULT_GEV_OPTIONS, fitGevConfigs, strictCheck, type GevRunOptions } from "../../evt/configs.js";
import { configKeys, gevDiagColumns, gevTableColumns } from "../../evt/table.js";
import { gevPlan, job as gevJob } from "../../jobs/gev.js";
import { jobOptionsFromCli, runJob } from "../../pool/job.js";
import { sharedCopy } from "../../pool/threads.js";

/** An --out ending in a table extension is one file (fitted in this thread); anything else is a job directory. */
const TABLE_FILE = TABLE_OUTPUT;

export function register(program: Command): void {
  const cmd = program
    .command("gev")
    .description("GEV fit of every configuration's runs: location, scale, shape with SEs, return levels, Gumbel LR test, KS/AD")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet), one row per run");
  addRunOptions(addDataOptions(cmd))
    .option("--no-resume", "with a job directory: discard the results already in --out and start over")
    .addOption(
      new Option("--tail <side>", "upper: maxima (times); lower: minima (fit −x, e.g. throughput limited by the slowest node)")
        .choices(["upper", "lower"])
        .default("upper"),
    )
    .option("--block <B>", "fit the maxima of consecutive blocks of B runs in run order", "1")
    .option("--gumbel", "also report the Gumbel fit's SEs and return levels (gumbel_se_*, gumbel_rl<T>)")
    .option("--return-periods <list>", "return periods T > 1, comma-separated", "10,100,1000")
    .option("--level <p>", "confidence level of the intervals", "0.95")
    .option("--profile", "profile-likelihood intervals for the shape and the return levels (instead of Wald)")
    .addOption(
      new Option("--information <kind>", "standard errors from the observed or the expected information").choices(["observed", "expected"]).default("observed"),
    )
    .option("--chunk <n>", "with a job directory: configurations per task", "1000")
    .option("--min-runs <n>", "configurations with fewer runs (blocks) get the row flag too_few_runs", "10")
    .option("--strict", "a configuration without a valid fit is an error (E_TOO_FEW_RUNS, E_GEV_DEGENERATE, E_GEV_UNBOUNDED, E_GEV_NOT_CONVERGED)")
    .option(
      "--diagnostics [path]",
      "plot data (pp, qq, rl_point, rl_curve, density), long format: a file beside a file --out; in a job directory, diagnostics.csv",
    )
    .action(async (file: string, opts: Record<string, unknown>) => {
      const o = parseGevOptions(opts);
      const out = opts.out as string | undefined;
      if (!out)
        throw new VarmapError("E_USAGE", "--out is required", {
          remedy: "pass --out gev.csv (one file), or --out DIR (a resumable job: --workers, --shard, merge)",
        });
      const direct = TABLE_FILE.test(out);
      const diagPath = typeof opts.diagnostics === "string" ? opts.diagnostics : undefined;
      if (direct && opts.diagnostics === true)
        throw new VarmapError("E_USAGE", "--diagnostics needs a path when --out is a file", { remedy: "e.g. --diagnostics diag.csv" });
      if (direct && diagPath && !TABLE_FILE.test(diagPath))
        throw new VarmapError("E_USAGE", `cannot tell the format of --diagnostics '${diagPath}'`, { remedy: `end it in ${TABLE_OUTPUT_EXTENSIONS}` });
      if (direct && diagPath && resolve(diagPath) === resolve(out))
        throw new VarmapError("E_USAGE", `--out and --diagnostics name the same file '${out}': one would overwrite the other`, {
          remedy: "give --diagnostics another file, e.g. --diagnostics diag.csv",
        });
      if (!direct && diagPath) throw new VarmapError("E_USAGE", "with a job directory --out, --diagnostics takes no path (it writes diagnostics.csv there)");
      if (direct && (opts.shard !== undefined || opts.workers !== undefined))
        throw new VarmapError("E_USAGE", "--shard and --workers need a job directory as --out", { remedy: "pass --out DIR (gev.csv is written inside it)" });
      const chunk = Number(opts.chunk ?? 1000);
      if (!Number.isInteger(chunk) || chunk < 1) throw new VarmapError("E_USAGE", `--chunk must be a positive integer, got '${String(opts.chunk)}'`);
      const jobOpts = direct ? undefined : jobOptionsFromCli(opts as { shard?: string; workers?: string; resume?: boolean; quiet?: boolean }, out, "gev");
      const note = opts.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);
      const data = await loadDataset(file, { ...optionsFromCli(opts), stat: "mean", allowNoInputs: true });
      const t = data.table;
      if (o.block > 1) {
        for (let c = 0; c < t.count; c++) {
          const blocks = Math.floor((t.offsets[c + 1] - t.offsets[c]) / o.block);
          if (blocks < 10)
            throw new VarmapError(
              "E_USAGE",
              `--block ${o.block} leaves ${blocks} block(s) of ${t.offsets[c + 1] - t.offsets[c]} runs (at least 10 are needed)`,
              {
                location: { file, configuration: describeConfig(t, c) },
                remedy: "use a smaller --block, or select configurations with more runs (--where)",
              },
            );
        }
      }
      note?.(`fitting a GEV to ${t.count} configuration(s)${o.block > 1 ? ` (maxima of blocks of ${o.block})` : ""}, tail ${o.tail}`);
      const keys = configKeys(t);
      if (jobOpts) {
        // The job engine: chunks of configurations per task, journal/resume, --shard, `varmap merge`.
        const ctx = { runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: keys.values };
        const plan = gevPlan(ctx, keys.names, o, Boolean(opts.strict), chunk);
        const s = await runJob(gevJob, { ...ctx, plan }, jobOpts);
        note?.(s.shard === null ? `wrote ${gevJob.files(plan).join(", ")} in ${out}` : `shard ${s.shard} done in ${out}`);
        if (s.summary) warnFlags(s.summary.flags as Record<string, number>, note);
        if (opts.json) process.stdout.write(JSON.stringify({ verb: "gev", ...s }, null, 2) + "\n");
        return;
      }
      const results = fitGevConfigs(getBackend(), t.runs, t.offsets, 0, t.count, o);
      if (opts.strict) strictCheck(results, (c) => describeConfig(t, c), file);
      const counts: Record<string, number> = {};
      for (const r of results) counts[r.flag || "ok"] = (counts[r.flag || "ok"] ?? 0) + 1;
      if (diagPath) await writeTable(diagPath, gevDiagColumns(keys.names, keys.values, results));
      await writeTable(out, gevTableColumns(keys.names, keys.values, results, o));
      note?.(`wrote ${results.length} row(s) to ${out}${diagPath ? ` and diagnostics to ${diagPath}` : ""}`);
      warnFlags(counts, note);
      if (opts.json)
        process.stdout.write(
          JSON.stringify({ verb: "gev", configurations: results.length, flags: counts, out, diagnostics: diagPath ?? null }, null, 2) + "\n",
        );
    });
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

/** Validates every gev option before anything is read or written. */
export function parseGevOptions(opts: Record<string, unknown>): GevRunOptions {
  const block = Number(opts.block ?? 1);
  if (!Number.isInteger(block) || block < 1) throw new VarmapError("E_USAGE", `--block must be a positive integer, got '${String(opts.block)}'`);
  const periods = splitList(String(opts.returnPeriods ?? "10,100,1000")).map(Number);
  if (periods.length === 0 || periods.some((T) => !Number.isFinite(T) || T <= 1))
    throw new VarmapError("E_USAGE", `--return-periods must be numbers > 1, got '${String(opts.returnPeriods)}'`, {
      remedy: "e.g. --return-periods 10,100,1000",
    });
  const level = Number(opts.level ?? 0.95);
  if (!(level > 0 && level < 1)) throw new VarmapError("E_USAGE", `--level must be in (0, 1), got '${String(opts.level)}'`);
  const minRuns = Number(opts.minRuns ?? 10);
  if (!Number.isInteger(minRuns) || minRuns < 3)
    throw new VarmapError("E_USAGE", `--min-runs must be an integer >= 3 (the MLE needs 3 distinct values), got '${String(opts.minRuns)}'`);
  return {
    ...DEFAULT_GEV_OPTIONS,
    tail: opts.tail === "lower" ? "lower" : "upper",
    block,
    periods,
    level,
    profile: Boolean(opts.profile),
    information: opts.information === "expected" ? "expected" : "observed",
    gumbelDetail: Boolean(opts.gumbel),
    minRuns,
    diagnostics: opts.diagnostics !== undefined && opts.diagnostics !== false,
  };
}
