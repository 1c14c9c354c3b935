// `varmap demo [--full]`: the main job on a generated dataset, the README's first command. The flags become
// DemoOptions; the verb is ts/verbs/demo.ts. Here: the refit's warnings, the Table 2 on stdout, where everything is.
import { join } from "node:path";
import type { Command } from "commander";
import { runDemo } from "../../verbs/demo.js";
import { parseWorkers } from "../flags.js";
import { printCv } from "./cv.js";
import { printJobEnd } from "./refit.js";

export { availableMethods, demoMethodsLine, DEMO_FULL, DEMO_SMALL } from "../../verbs/demo.js";

export function register(program: Command): void {
  program
    .command("demo")
    .description("the main job on a generated dataset: synth, refit and cross-validate (about a minute on 2 cores)")
    .option("--full", "the full 117-map design with 200 divisions per fraction (long: the whole Table 2 workload)")
    .option("--out <dir>", "where the dataset and results go", "varmap-demo")
    .option("--workers <n>", "worker threads (default: one per core)")
    .option("--seed <s>", "seed of the dataset and of the divisions", "1")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no progress or notes on stderr")
    .action(async (opts: { full?: boolean; out: string; workers?: string; seed: string; json?: boolean; quiet?: boolean }) => {
      const summary = await runDemo({
        out: opts.out,
        full: !!opts.full,
        seed: opts.seed,
        workers: parseWorkers(opts.workers),
        quiet: !!opts.quiet,
        onRefit: (s) => printJobEnd(s, opts),
        // cv prints the Table 2 (Markdown) on stdout unless --json.
        onCv: (s) => printCv(s, { out: s.out, quiet: opts.quiet }, !opts.json),
      });
      const { data, refit: refitOut, cv: cvOut, report, methods, seconds } = summary;
      if (opts.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
      else
        process.stdout.write(
          [
            "",
            `Done in ${seconds.toFixed(1)} s. Outputs:`,
            `  dataset          ${data}`,
            ...(methods.length
              ? [
                  `  fitted models    ${join(refitOut!, "models.json")} (summary: ${join(refitOut!, "summary.md")})`,
                  `  distributions    ${join(refitOut!, "distributions.csv")} (each configuration's best mixture)`,
                ]
              : []),
            `  ARE per map      ${join(cvOut, "are.csv")}`,
            `  Table 2          ${join(cvOut, "table2.md")} and table2.csv`,
            `  report           ${report} (open it in a browser)`,
            "",
          ].join("\n"),
        );
    });
}
