// `varmap predict models.json --at configs.csv --out predictions.csv`: the map statistic at new configurations.
// The flags become PredictOptions; the verb is ts/verbs/predict.ts (distribution models: ts/verbs/distribution.ts).
import type { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { modelsKind, runPredict } from "../../verbs/predict.js";
import { addDistributionPredictOptions, predictDistributionAction } from "../distribution.js";

export function register(program: Command): void {
  const cmd = program
    .command("predict")
    .description("predict the map statistic at new configurations with the models `varmap fit` or `varmap refit` saved")
    .argument("<models>", "models file written by `varmap fit --out`, or models.json of a `varmap refit` output (every method side by side)")
    .requiredOption("--at <path>", "configurations (.csv, .tsv or .parquet): the map's factor columns and input columns")
    .option("--out <path>", "predictions (.csv, .tsv, .json or .parquet); default: CSV on stdout")
    .option("--json", "with --out: a JSON summary on stdout (predictions and warning counts per method)")
    .option("--quiet", "no notes on stderr")
    .option(
      "--interval <level>",
      "also columns lo, hi: a prediction interval of this coverage, e.g. 0.9 (conformal from `fit --conformal-folds`; gp without it: its own)",
    );
  addDistributionPredictOptions(cmd).action(async (modelsPath: string, opts: Record<string, unknown>) => {
    if (modelsKind(modelsPath) === "distribution") return predictDistributionAction(modelsPath, opts);
    if (opts.json && !opts.out)
      throw new VarmapError("E_USAGE", "--json needs --out (without it the predictions are the CSV on stdout)", {
        remedy: "add --out predictions.csv, or drop --json",
      });
    const level = opts.interval === undefined ? undefined : Number(opts.interval);
    if (level !== undefined && !(level > 0 && level < 1))
      throw new VarmapError("E_USAGE", `--interval ${String(opts.interval)} is not a coverage level in (0, 1)`, { remedy: "e.g. --interval 0.9" });
    const s = await runPredict(modelsPath, {
      at: String(opts.at),
      ...(opts.out ? { out: String(opts.out) } : {}),
      ...(level !== undefined ? { interval: level } : {}),
    });
    if (s.csv !== undefined) process.stdout.write(s.csv);
    if (!opts.quiet) {
      if (opts.out) process.stderr.write(`varmap: ${s.predictions} prediction(s) of ${s.stat} (${Object.keys(s.methods).join(", ")}) written to ${opts.out}\n`);
      for (const m of s.messages) process.stderr.write(`varmap: ${m}\n`);
    }
    if (opts.json)
      process.stdout.write(
        JSON.stringify({ out: opts.out, predictions: s.predictions, stat: s.stat, clampsNegative: s.clampsNegative, methods: s.methods }, null, 2) + "\n",
      );
  });
}
