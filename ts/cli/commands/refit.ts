// `varmap refit <data> [column flags] --methods lr,lsp,… --out dir`: the main job, on the worker pool.
import type { Command } from "commander";
import { refitAction, registerRefitOptions, type Opts } from "../bulk.js";

export function register(program: Command): void {
  registerRefitOptions(
    program
      .command("refit")
      .description("the main job: fit every map with the chosen predictors on all cores (resumable, shardable)")
      .argument("<data>", "runs table (.csv, .tsv or .parquet), or an aggregated map table with --map"),
  ).action(async (file: string, opts: Opts) => {
    await refitAction(file, opts);
  });
}
