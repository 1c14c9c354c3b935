// `varmap convergence <runs> …`: the flags become ConvergenceOptions; the verb is ts/verbs/convergence.ts.
import type { Command } from "commander";
import { addDataOptions } from "../options.js";
import { TABLE_OUTPUT } from "../../data/write.js";
import { VarmapError } from "../../errors.js";
import type { CiKind, ConvergenceOptions as CurveOptions, SubsetMode } from "../../convergence/convergence.js";
import { METHOD_NAMES } from "../../predict/registry.js";
import { runConvergence, type ConvergenceOptions, type ConvergencePredictOptions } from "../../verbs/convergence.js";
import { parseInteger } from "../flags.js";
import { choice, level, numberList, positiveNumber } from "../../verbs/samplesize-options.js";
import { dataOptionsFromFlags, parseShardOptions, parseWorkers, type Flags } from "../flags.js";

export function register(program: Command): void {
  const cmd = program
    .command("convergence")
    .description("CI of the sd or mean against the number of runs: 75%/90% convergence points (seed 000 §6), measured and predicted")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet), one row per run");
  addDataOptions(cmd)
    .option("--ci <kind>", "sd (chi-square interval of σ, the paper's) | mean (Student t)", "sd")
    .option("--level <l>", "confidence level of the interval", "0.9")
    .option("--from <m0>", "smallest number of runs m0", "10")
    .option("--to <N>", "largest number of runs (default: each configuration's run count)")
    .option("--levels <list>", "convergence levels", "0.75,0.9")
    .option("--subsets <mode>", "average (B random subsets per m) | nested (first m of one seeded permutation) | order (first m in run order)", "average")
    .option("--reps-subsets <B>", "random subsets per m with --subsets average", "200")
    .option("--predict <method>", `predict the curves of held-out configurations: ${METHOD_NAMES.join(", ")}`)
    .option("--p <p>", "training fraction of each division", "0.9")
    .option("--reps <R>", "random divisions", "1")
    .option("--predict-curve <mode>", "per-m (a model per m) | plug-in (ŝ at N times the width factor)", "per-m")
    .option("--precision <eps>", "target relative CI half-width for nneeded_precision", "0.05")
    .option("--out <path>", "convergence table (.csv, .tsv, .json or .parquet)")
    .option("--curves <file>", "long table: key, m, w, lower, upper, c, w_pred, c_pred, err")
    .option("--seed <s>", "seed of subsets and divisions", "1")
    .option("--workers <n>", "worker threads with an --out directory (default: one per core)")
    .option("--shard <i/N>", "with an --out directory: run only the i-th of N slices of the configurations (combine with `varmap merge`)")
    .option("--no-resume", "with an --out directory: discard the results already there and start over")
    .option("--json", "print a summary as JSON on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Flags) => {
      const s = await runConvergence(file, convergenceOptionsFromFlags(opts));
      if (opts.json) process.stdout.write(JSON.stringify(s.json, null, 2) + "\n");
    });
}

/** convergence's flags as ConvergenceOptions (every value checked before the data is read). */
export function convergenceOptionsFromFlags(opts: Flags): ConvergenceOptions {
  const o: CurveOptions = {
    kind: choice(opts.ci, "--ci", ["sd", "mean"] as const) as CiKind,
    level: level(opts.level, "--level"),
    m0: parseInteger(opts.from, "--from", { min: 2, max: 1_000_000 }),
    to: opts.to === undefined ? undefined : parseInteger(opts.to, "--to", { min: 4, max: 1_000_000 }),
    levels: numberList(opts.levels, "--levels", (v) => v > 0 && v <= 1, "give levels in (0, 1], e.g. --levels 0.75,0.9"),
    mode: choice(opts.subsets, "--subsets", ["average", "nested", "order"] as const) as SubsetMode,
    reps: parseInteger(opts.repsSubsets, "--reps-subsets", { min: 1, max: 1_000_000 }),
    seed: parseInteger(opts.seed, "--seed", { min: 0, max: Number.MAX_SAFE_INTEGER }),
    precision: positiveNumber(opts.precision, "--precision", "give a relative half-width such as --precision 0.05"),
  };
  if (o.to !== undefined && o.to < o.m0 + 2)
    throw new VarmapError("E_USAGE", `--to ${o.to} is below --from ${o.m0} + 2`, { remedy: "give --to at least --from + 2" });
  let pred: ConvergencePredictOptions | undefined;
  if (opts.predict !== undefined) {
    const method = String(opts.predict);
    if (!METHOD_NAMES.includes(method)) throw new VarmapError("E_METHOD", `unknown method '${method}'`, { remedy: `use one of ${METHOD_NAMES.join(", ")}` });
    const p = Number(opts.p);
    if (!(p > 0 && p < 1)) throw new VarmapError("E_USAGE", `--p '${String(opts.p)}' is not in (0, 1)`, { remedy: "give a training fraction such as --p 0.9" });
    pred = {
      method,
      p,
      reps: parseInteger(opts.reps, "--reps", { min: 1, max: 100_000 }),
      mode: choice(opts.predictCurve, "--predict-curve", ["per-m", "plug-in"] as const),
    };
  }
  return {
    data: dataOptionsFromFlags(opts),
    curve: o,
    ...(pred ? { predict: pred } : {}),
    ...(opts.out !== undefined ? { out: String(opts.out) } : {}),
    ...(opts.curves !== undefined ? { curves: String(opts.curves) } : {}),
    json: !!opts.json,
    run: runFlags(opts),
  };
}

/** --workers and --shard count with a job directory only (a table --out runs in this thread). */
function runFlags(opts: Flags): ConvergenceOptions["run"] {
  const jobDir = opts.out !== undefined && !TABLE_OUTPUT.test(String(opts.out));
  if (opts.shard !== undefined && !jobDir)
    throw new VarmapError("E_USAGE", "--shard needs an --out directory", { remedy: "give --out DIR (no .csv extension)" });
  return {
    ...(jobDir && opts.workers !== undefined ? { workers: parseWorkers(opts.workers as string) } : {}),
    ...(jobDir && opts.shard !== undefined ? { shard: parseShardOptions(opts.shard as string, undefined) } : {}),
    resume: opts.resume !== false,
    quiet: !!opts.quiet,
  };
}
