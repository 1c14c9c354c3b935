// `varmap synth`: the flags become SynthOptions; the verb is ts/verbs/synth.ts.
import { Option, type Command } from "commander";
import type { DesignName } from "../../data/synth.js";
import { runSynth } from "../../verbs/synth.js";
import { VarmapError } from "../../errors.js";

export function register(program: Command): void {
  program
    .command("synth")
    .description("full-scale synthetic datasets (MOANA and mixture designs)")
    .addOption(
      new Option(
        "--design <name>",
        "moana: 117 maps × 810 configurations × 40 runs; mixture: 22,734 configurations × 150 runs; interference: seed-003 probe/signal runs with known degradations",
      )
        .choices(["moana", "mixture", "interference"])
        .makeOptionMandatory(),
    )
    .option("--seed <s>", "seed of the deterministic generator", "1")
    .option("--maps <k>", "only the first K maps (small datasets for demos and tests)")
    .option("--out <path>", "output file: .csv, .tsv or .parquet")
    .option(
      "--truth <path>",
      "moana/mixture: also write every configuration's true mixture (one row per component; .csv, .tsv, .json or .parquet) for `cv --target distribution --truth`",
    )
    .option("--workers <n>", "worker threads (default: one per core); the output does not depend on it")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no progress on stderr")
    .action(
      async (opts: {
        design: DesignName | "interference";
        seed: string;
        maps?: string;
        out?: string;
        truth?: string;
        workers?: string;
        json?: boolean;
        quiet?: boolean;
      }) => {
        if (opts.out && opts.workers !== undefined && !(Number.isInteger(Number(opts.workers)) && Number(opts.workers) >= 1))
          throw new VarmapError("E_USAGE", `--workers must be a positive integer (got ${opts.workers})`, { remedy: "e.g. --workers 2" });
        const s = await runSynth({
          design: opts.design,
          out: opts.out ?? "",
          seed: opts.seed,
          ...(opts.maps === undefined ? {} : { maps: Number(opts.maps) }),
          ...(opts.truth === undefined ? {} : { truth: opts.truth }),
          ...(opts.workers === undefined ? {} : { workers: Number(opts.workers) }),
          quiet: opts.quiet,
        });
        if (opts.json) process.stdout.write(JSON.stringify(s) + "\n");
      },
    );
}
