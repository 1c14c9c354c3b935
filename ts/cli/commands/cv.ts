// `varmap cv <data> [column flags] --methods lr,lsp,delaunay,mars --p 0.1:0.9:0.1 --reps 200 --seed S --out dir`:
// cross-validation on the worker pool over generated divisions (or given ones: --splits FILE [--predictions
// out.csv], one row per test point and split: p,rep,index,prediction, factor columns first when the data has
// factors). Prints the mean ARE per training fraction (per map for given splits, the Table 2 averaged over maps
// for generated ones); --out keeps are.csv, table2.md, table2.csv and the resumable result store.
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { cvAction, registerCvOptions, type Opts } from "../bulk.js";
import { addDistributionOptions, cvDistributionAction } from "../distribution.js";

export function register(program: Command): void {
  addDistributionOptions(
    registerCvOptions(
      program
        .command("cv")
        .description("cross-validation (generated or given divisions) on all cores: ARE per map, method and p; the Table 2")
        .argument("<data>", "runs table (.csv, .tsv or .parquet), or a map table with --map"),
    ),
    "cv",
  ).action(async (file: string, opts: Opts) => {
    if (opts.target === "distribution") {
      if (opts.leaveOut !== undefined)
        throw new VarmapError("E_USAGE", "--leave-out is not available with --target distribution yet", {
          remedy: "run the group-out validation of the statistic's map (drop --target distribution), or random divisions of the distribution",
        });
      return void (await cvDistributionAction(file, opts));
    }
    await cvAction(file, opts);
  });
}
