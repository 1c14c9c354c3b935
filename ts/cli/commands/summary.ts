// `varmap summary <models.json> [--data FILE <data flags>] [--json]`: what a models file holds, in the style of
// R's summary(): per map its method, inputs and their scaling, the fitted terms (coefficients, MARS terms with
// GCV and R², LSP neighbourhoods), and — given the data the models were fitted on — the in-sample R², RMSE and
// mean absolute relative error. The flags become SummaryOptions; the verb is ts/verbs/summary.ts.
import type { Command } from "commander";
import { dataOptionsFromFlags } from "../flags.js";
import { addDataOptions } from "../options.js";
import { runSummary } from "../../verbs/summary.js";

export function register(program: Command): void {
  const cmd = program
    .command("summary")
    .description("R-style summary of a models file (fit or refit): per map the method, inputs and scaling, terms, and in-sample fit")
    .argument("<models>", "models file of `varmap fit --out`, or models.json of a `varmap refit` output");
  addDataOptions(cmd.option("--data <file>", "the data the models were fitted on (with the same column flags): adds in-sample R², RMSE and mean ARE"))
    .option("--json", "print the summary as JSON")
    .action(async (path: string, opts: Record<string, unknown>) => {
      const s = await runSummary(path, typeof opts.data === "string" ? { data: { file: opts.data, load: dataOptionsFromFlags(opts) } } : {});
      if (opts.json) process.stdout.write(JSON.stringify(s.maps, null, 2) + "\n");
      else process.stdout.write(s.text);
    });
}
