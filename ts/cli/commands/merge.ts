// `varmap merge dir1 dir2 … --out dir`: combines the outputs of `--shard i/N` runs into exactly what one
// unsharded run writes.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { mergeShards } from "../../pool/merge.js";
import { jobFor } from "../../jobs/index.js";

export function register(program: Command): void {
  program
    .command("merge")
    .description("combine the output directories of --shard i/N runs into one")
    .argument("<dirs...>", "the shards' --out directories")
    .option("--out <dir>", "where the merged outputs go")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no notes on stderr")
    .action((dirs: string[], opts: { out?: string; json?: boolean; quiet?: boolean }) => {
      if (!opts.out) throw new VarmapError("E_USAGE", "merge needs --out <dir>", { remedy: "varmap merge out-1 out-2 out-3 --out merged" });
      const r = mergeShards(dirs, opts.out, jobFor);
      if (opts.json) process.stdout.write(JSON.stringify({ out: opts.out, ...r }, null, 2) + "\n");
      else if (!opts.quiet) process.stderr.write(`varmap: merged ${r.shards} shard(s), ${r.tasks} tasks, into ${opts.out}: ${r.files.join(", ")}\n`);
    });
}
