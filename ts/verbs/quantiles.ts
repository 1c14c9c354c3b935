// `quantiles`: every configuration's median and tail percentiles (p50, p90, p99 … of its runs) with distribution-free
// confidence intervals, and how many runs close them: a p99 from 40 runs has no upper bound at 95 %. One table file
// computed in this thread, or a job directory on the engine (ts/jobs/quantiles.ts: workers, resume, shards, merge).
// The CLI (ts/cli/commands/quantiles.ts) parses the flags into QuantilesOptions and prints the summary.
import { loadDataset, type LoadOptions } from "../data/load.js";
import { parsePositiveInteger } from "../data/option-values.js";
import { TABLE_OUTPUT, writeTable } from "../data/write.js";
import { VarmapError } from "../errors.js";
import { job, QUANTILES_CHUNK, quantilesSetup, quantilesTable } from "../jobs/quantiles.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { sharedCopy } from "../pool/threads.js";
import { jobOptions, type RunOptions } from "./common.js";

export const DEFAULT_PROBS = [0.5, 0.9, 0.99];

export interface QuantilesOptions {
  /** Column roles of the runs table (no inputs needed). */
  data: LoadOptions;
  /** A table file (.csv, .tsv, .json, .parquet: computed in this thread), or a job directory (quantiles.csv inside). */
  out: string;
  /** Probabilities in (0, 1), each once (default 0.5, 0.9, 0.99). */
  probs?: number[];
  /** Confidence level of the intervals (default 0.95). */
  level?: number;
  /** Job directory: configurations per task (default 1000). */
  chunk?: number;
  run?: RunOptions;
}

export interface QuantilesSummary extends Partial<JobSummary> {
  verb: "quantiles";
  out: string;
  /** Configurations in the table (0 for a shard: the merge writes the table). */
  configurations: number;
  /** Per probability: its column prefix, the configurations whose interval closes on both sides, the runs that close it. */
  quantiles: { p: number; column: string; closed: number; runsNeeded: number }[];
  /** What a user reads: the same, one line per probability. */
  text: string;
}

export async function runQuantiles(file: string, options: QuantilesOptions): Promise<QuantilesSummary> {
  const probs = options.probs ?? DEFAULT_PROBS;
  if (!probs.length || probs.some((p) => !(p > 0 && p < 1)))
    throw new VarmapError("E_USAGE", `--probs must be probabilities in (0, 1), got '${probs.join(",")}'`, { remedy: "e.g. --probs 0.5,0.9,0.99" });
  if (new Set(probs).size !== probs.length)
    throw new VarmapError("E_USAGE", `--probs lists a probability twice: ${probs.join(",")}`, { remedy: "list each once" });
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new VarmapError("E_USAGE", `--level must be in (0, 1), got '${String(level)}'`, { remedy: "e.g. --level 0.95" });
  const chunk = parsePositiveInteger(options.chunk ?? QUANTILES_CHUNK, "--chunk", QUANTILES_CHUNK);
  const out = options.out;
  if (!out)
    throw new VarmapError("E_USAGE", "--out is required", { remedy: "pass --out quantiles.csv (one file), or --out DIR (a job: --workers, --shard, merge)" });
  const run = options.run ?? {};
  const direct = TABLE_OUTPUT.test(out);
  if (direct && (run.shard !== undefined || run.workers !== undefined))
    throw new VarmapError("E_USAGE", "--shard and --workers need a job directory as --out", { remedy: "pass --out DIR (quantiles.csv is written inside it)" });
  const jobOpts = direct ? undefined : jobOptions(run, out, "quantiles");
  const data = await loadDataset(file, { ...options.data, stat: "mean", allowNoInputs: true });
  let s: Partial<JobSummary>;
  if (jobOpts) s = await runJob(job, quantilesSetup(data.table, probs, level, chunk, sharedCopy), jobOpts);
  else {
    // One table file: the job's tasks in this thread, the table in the format --out names.
    const ctx = quantilesSetup(data.table, probs, level, chunk, (a) => a);
    const table = quantilesTable(ctx.plan, new Map(job.tasks(ctx.plan).map((t) => [t.id, job.run(ctx, t)])));
    await writeTable(out, table.columns);
    s = { summary: table.summary };
  }
  const quantiles = (s.summary?.quantiles ?? []) as QuantilesSummary["quantiles"];
  const configurations = Number(s.summary?.configurations ?? 0);
  const text = s.summary
    ? quantiles
        .map((q) => `${q.column}: ${q.closed} of ${configurations} configuration(s) with a closed ${level * 100} % interval (it needs ${q.runsNeeded} runs)`)
        .join("\n") + "\n"
    : `shard ${s.shard} done in ${out}\n`;
  if (!run.quiet) for (const line of text.trimEnd().split("\n")) process.stderr.write(`varmap: ${line}\n`);
  return { verb: "quantiles", ...s, out, configurations, quantiles, text };
}
