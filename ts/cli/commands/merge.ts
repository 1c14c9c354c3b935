// `varmap merge dir1 dir2 … --out dir`: combines the outputs of `--shard i/N` runs into exactly what one
// unsharded run writes. The flags become MergeOptions; the verb is ts/verbs/merge.ts.
import type { Command } from "commander";
import { runMerge } from "../../verbs/merge.js";

export function register(program: Command): void {
  program
    .command("merge")
    .description("combine the output directories of --shard i/N runs into one")
    .argument("<dirs...>", "the shards' --out directories")
    .option("--out <dir>", "where the merged outputs go")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (dirs: string[], opts: { out?: string; json?: boolean; quiet?: boolean }) => {
      const r = await runMerge(dirs, { out: opts.out ?? "" });
      if (opts.json) process.stdout.write(JSON.stringify(r, null, 2) + "\n");
      else if (!opts.quiet) process.stderr.write(`varmap: merged ${r.shards} shard(s), ${r.tasks} tasks, into ${r.out}: ${r.files.join(", ")}\n`);
    });
}
