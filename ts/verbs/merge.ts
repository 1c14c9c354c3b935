// `merge`: combines the output directories of `--shard i/N` runs into exactly what one unsharded run writes. The
// CLI (ts/cli/commands/merge.ts) parses the flags into MergeOptions and prints the summary.
import { VarmapError } from "../errors.js";
import { mergeShards } from "../pool/merge.js";
import { loadJob } from "../jobs/index.js";

export interface MergeOptions {
  /** Where the merged outputs go. */
  out: string;
}

export interface MergeSummary {
  out: string;
  /** Tasks in the merged result store. */
  tasks: number;
  /** Shard directories combined. */
  shards: number;
  /** Files written into `out`. */
  files: string[];
  /** The job's own summary (as one unsharded run returns it). */
  summary: Record<string, unknown>;
}

export async function runMerge(dirs: readonly string[], options: MergeOptions): Promise<MergeSummary> {
  if (!options.out) throw new VarmapError("E_USAGE", "merge needs --out <dir>", { remedy: "varmap merge out-1 out-2 out-3 --out merged" });
  return { out: options.out, ...(await mergeShards(dirs, options.out, loadJob)) };
}
