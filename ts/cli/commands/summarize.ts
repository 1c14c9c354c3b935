// `varmap summarize <file>`: the flags become SummarizeOptions; the verb is ts/verbs/summarize.ts.
import type { Command } from "commander";
import { dataOptionsFromFlags, type Flags } from "../flags.js";
import { addDataOptions } from "../options.js";
import { runSummarize } from "../../verbs/summarize.js";

export function register(program: Command): void {
  const cmd = program
    .command("summarize")
    .description("configurations and maps with their statistics")
    .argument("<file>", "runs table (.csv, .tsv or .parquet), one row per run (or per configuration with --map)");
  addDataOptions(cmd)
    .option("--out <path>", "write the configuration table to .csv, .tsv, .json or .parquet instead of stdout")
    .option("--json", "print a machine-readable summary of the maps on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Flags) => {
      const out = opts.out as string | undefined;
      const { text, ...s } = await runSummarize(file, { data: dataOptionsFromFlags(opts), ...(out ? { out } : {}), quiet: !!opts.quiet });
      if (opts.json) {
        process.stdout.write(JSON.stringify(s, null, 2) + "\n");
        return;
      }
      process.stdout.write(text);
      if (out && !opts.quiet) process.stderr.write(`varmap: wrote ${s.configurations} configurations to ${out}\n`);
    });
}
