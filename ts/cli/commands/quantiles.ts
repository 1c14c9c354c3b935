// `varmap quantiles <runs> --out DIR`: the flags become QuantilesOptions; the verb is ts/verbs/quantiles.ts.
import type { Command } from "commander";
import { level, quantileLevels } from "../../verbs/samplesize-options.js";
import { runQuantiles } from "../../verbs/quantiles.js";
import { TABLE_OUTPUT } from "../../data/write.js";
import { addDataOptions, addRunOptions } from "../options.js";
import { dataOptionsFromFlags, parsePositiveInteger, runOptionsFromFlags, type Flags } from "../flags.js";

export function register(program: Command): void {
  const cmd = program
    .command("quantiles")
    .description("every configuration's median and tail percentiles with distribution-free confidence intervals, and the runs that close them")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet), one row per run");
  addRunOptions(addDataOptions(cmd, { runsOnly: true }))
    .option("--no-resume", "discard the results already in --out and start over")
    .option("--probs <list>", "probabilities of the quantiles, comma-separated (columns q50, q90, q99, q99_9 …)", "0.5,0.9,0.99")
    .option("--level <p>", "confidence level of the intervals (an interval needs enough runs: 368 for p99 at 0.95)", "0.95")
    .option("--chunk <n>", "configurations per task", "1000")
    .action(async (file: string, opts: Flags) => {
      const s = await runQuantiles(file, {
        data: dataOptionsFromFlags(opts),
        out: String(opts.out ?? ""),
        probs: quantileLevels(opts.probs, "--probs"),
        level: level(opts.level, "--level"),
        chunk: parsePositiveInteger(opts.chunk, "--chunk", 1000),
        run: runFlags(opts),
      });
      if (opts.json) process.stdout.write(JSON.stringify(s, null, 2) + "\n");
    });
}

/** A table file --out takes neither --shard nor --workers (the verb says so when given); a job directory parses them. */
function runFlags(opts: Flags) {
  if (!TABLE_OUTPUT.test(String(opts.out ?? ""))) return runOptionsFromFlags(opts);
  const given = opts.shard !== undefined || opts.workers !== undefined;
  return { quiet: !!opts.quiet, resume: opts.resume !== false, ...(given ? { workers: 0 } : {}) };
}
