// `quantiles`: every configuration's median and tail percentiles (p50, p90, p99 … of its runs) with distribution-free
// confidence intervals, and how many runs close them: a p99 from 40 runs has no upper bound at 95 %. A job on the
// engine (ts/jobs/quantiles.ts: workers, resume, shards, merge). The CLI (ts/cli/commands/quantiles.ts) parses the
// flags into QuantilesOptions and prints the summary.
import { loadDataset, type LoadOptions } from "../data/load.js";
import { parsePositiveInteger } from "../data/option-values.js";
import { TABLE_OUTPUT } from "../data/write.js";
import { VarmapError } from "../errors.js";
import { job, QUANTILES_CHUNK, quantilesSetup } from "../jobs/quantiles.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { sharedCopy } from "../pool/threads.js";
import { jobOptions, type RunOptions } from "./common.js";

export const DEFAULT_PROBS = [0.5, 0.9, 0.99];

export interface QuantilesOptions {
  /** Column roles of the runs table (no inputs needed). */
  data: LoadOptions;
  /** The job directory (quantiles.csv is written inside it). */
  out: string;
  /** Probabilities in (0, 1), each once (default 0.5, 0.9, 0.99). */
  probs?: number[];
  /** Confidence level of the intervals (default 0.95). */
  level?: number;
  /** Configurations per task (default 1000). */
  chunk?: number;
  run?: RunOptions;
}

export interface QuantilesSummary extends JobSummary {
  verb: "quantiles";
  /** What a user reads: per probability, the configurations whose interval closes and the runs that close it. */
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
  if (!options.out || TABLE_OUTPUT.test(options.out))
    throw new VarmapError("E_USAGE", `--out must be a job directory${options.out ? `, not the table '${options.out}'` : ""}`, {
      remedy: "pass --out DIR (quantiles.csv is written inside it; --workers, --shard and merge work on it)",
    });
  const jobOpts = jobOptions(options.run ?? {}, options.out, "quantiles");
  const data = await loadDataset(file, { ...options.data, stat: "mean", allowNoInputs: true });
  const s = await runJob(job, quantilesSetup(data.table, probs, level, chunk, sharedCopy), jobOpts);
  const rows = (s.summary?.quantiles ?? []) as { column: string; closed: number; runsNeeded: number }[];
  const text = rows.length
    ? rows
        .map(
          (q) =>
            `${q.column}: ${q.closed} of ${s.summary?.configurations} configuration(s) with a closed ${level * 100} % interval (it needs ${q.runsNeeded} runs)`,
        )
        .join("\n") + "\n"
    : `shard ${s.shard} done in ${options.out}\n`;
  if (!options.run?.quiet) for (const line of text.trimEnd().split("\n")) process.stderr.write(`varmap: ${line}\n`);
  return { verb: "quantiles", ...s, text };
}
