// Flags shared by the verbs (DESIGN.md, "The command line").
import { Option, type Command } from "commander";

/** Data selection: the same flags everywhere. */
export function addDataOptions(cmd: Command, o: { runsOnly?: boolean } = {}): Command {
  cmd
    .option("--preset <name>", "column roles of a known dataset (moana | iozone) or of a table `varmap import <tool>` wrote (fio, hyperfine, ...)")
    .option(
      "--format <tool>",
      "the data is a benchmark tool's output (a file or a directory of files): fio | hyperfine | gbench | pytest-benchmark | ior | iozone",
    )
    .option("--factors <cols>", "categorical factor columns, comma-separated")
    .option("--inputs <cols>", "numeric input columns, comma-separated")
    .option("--response <col>", "measured response column")
    .option("--run <col>", "run index column");
  // runsOnly: a verb that models each configuration's runs (mixture) has no map: no --map/--id, statistic or scaling.
  if (!o.runsOnly)
    cmd.option("--map", "the table is an already aggregated map: one row per configuration").option("--id <col>", "with --map: an id column to keep");
  cmd.option("--where <sql>", "SQL predicate selecting rows before anything else");
  if (!o.runsOnly)
    cmd
      .addOption(new Option("--stat <name>", "statistic of each configuration's runs").choices(["sd", "var", "mean", "q10", "q90", "ci90", "cv"]).default("sd"))
      .option(
        "--log-inputs <cols>",
        "inputs to log2-transform before normalizing (power-of-two axes); auto: powers of two, and inputs spanning > 2× unless a spline fits them better linear; none",
      )
      .option("--log-response [auto|none]", "model the response on a log scale; auto: when every response is positive; none: linear");
  return cmd.option("--allow-duplicate-runs", "accept repeated run indices within a configuration (e.g. restarted sessions)");
}

/** Running: output, parallelism, sharding, determinism, verbosity. */
export function addRunOptions(cmd: Command): Command {
  return cmd
    .option("--out <path>", "output file or directory")
    .option("--workers <n>", "worker threads (default: the CPUs granted to this process: SLURM_CPUS_PER_TASK, else its CPU affinity)")
    .option("--shard <i/N|auto>", "run only the i-th of N deterministic slices of the tasks; auto = i from the job array index")
    .option("--shards <N>", "the number of slices, with --shard auto (or --shard i)")
    .option("--seed <s>", "seed of the deterministic generator", "1")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no progress or notes on stderr");
}

// Defined in data/ (data/load.ts uses it too); re-exported for the commands.
export { splitList } from "../data/option-values.js";
