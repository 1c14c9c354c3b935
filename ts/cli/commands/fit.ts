// `varmap fit <data> … --method lsp|lr --out models.json`: the flags become FitOptions; the verb is ts/verbs/fit.ts
// (`--target distribution`: ts/cli/distribution.ts).
import type { Command } from "commander";
import { addDataOptions } from "../options.js";
import { addMethodOptions, methodOptionsFromCli } from "../method-options.js";
import { addDistributionOptions, fitDistributionAction } from "../distribution.js";
import { BEST_METHOD, DEFAULTS_HELP, PAPER_METHOD } from "../../verbs/defaults.js";
import { runFit } from "../../verbs/fit.js";
import { CONFORMAL_FOLDS } from "../../predict/conformal.js";
import { dataOptionsFromFlags, withDefaults } from "../flags.js";
import { parseInteger } from "../flags.js";

export function register(program: Command): void {
  const cmd = program
    .command("fit")
    .description("fit one predictor per map and save the models as JSON")
    .argument("<data>", "runs table (.csv, .tsv or .parquet), or a map table with --map");
  addDistributionOptions(addMethodOptions(addDataOptions(cmd), undefined, `predictor (default ${BEST_METHOD}; --paper: ${PAPER_METHOD})`), "fit")
    .option("--paper", `the source papers' setup instead of the best defaults (${DEFAULTS_HELP})`)
    .option("--out <path>", "models file (.json); default: stdout")
    .option("--quiet", "no notes on stderr")
    .option("--conformal-folds <k>", "also calibrate conformal prediction intervals by k-fold cross-validation per map (for predict --interval)")
    .option(
      "--conformal-groups <cols>",
      "also calibrate queries whose combination of these inputs was never measured, on leave-group-out folds (predict's novel column; implies --conformal-folds 10)",
    )
    .action(async (file: string, given: Record<string, unknown>) => {
      if (given.target === "distribution") return fitDistributionAction(file, given);
      const opts = withDefaults(given, "fit");
      const method = String(opts.method);
      const methodOptions = methodOptionsFromCli(opts, method);
      const groupCols = typeof opts.conformalGroups === "string" ? opts.conformalGroups.split(",").map((c) => c.trim()) : undefined;
      const folds =
        opts.conformalFolds === undefined
          ? groupCols
            ? CONFORMAL_FOLDS
            : undefined
          : parseInteger(opts.conformalFolds, "--conformal-folds", { min: 2, example: 10 });
      const out = opts.out === undefined ? undefined : String(opts.out);
      const s = await runFit(file, {
        data: dataOptionsFromFlags(opts),
        method,
        methodOptions,
        ...(folds !== undefined ? { conformalFolds: folds } : {}),
        ...(groupCols ? { conformalGroups: groupCols } : {}),
        ...(out ? { out } : {}),
        quiet: !!opts.quiet,
      });
      if (!out) process.stdout.write(JSON.stringify(s.models) + "\n");
    });
}
