// `varmap samplesize <runs> …` / `varmap samplesize --mixture JSON …`: the flags become SamplesizeOptions; the
// verb is ts/verbs/samplesize.ts.
import type { Command } from "commander";
import { addDataOptions, splitList } from "../options.js";
import { VarmapError } from "../../errors.js";
import { parseFamilies, parseStarts } from "../../mixture/fit.js";
import { parseModelChoice, type SampleSizeOptions } from "../../mixture/samplesize-config.js";
import type { CenterKind, InformationKind } from "../../mixture/samplesize.js";
import { runSamplesize, type SamplesizeOptions } from "../../verbs/samplesize.js";
import { parseInteger } from "../flags.js";
import { choice, level, positiveNumber, quantileLevels, runCounts, thresholds } from "../../verbs/samplesize-options.js";
import { dataOptionsFromFlags, parseShardOptions, parseWorkers, type Flags } from "../flags.js";

export function register(program: Command): void {
  const cmd = program
    .command("samplesize")
    .description("runs needed: Γ_q(n) of each configuration's mixture by the delta method (seed 001), and for the mean, sd and var")
    .argument("[runs]", "runs table (.csv, .tsv or .parquet), one row per run (omit with --mixture)");
  addDataOptions(cmd)
    .option("--mixture <json>", 'a model given by hand: {"family":"normal","w":[…],"a":[…],"b":[…]}; prints the table to stdout')
    .option("--fits <file>", "reuse fits: the table of `varmap mixture --out` or refit's distributions.csv")
    .option("--families <list>", "families to fit: all or a comma-separated subset", "all")
    .option("--kmax <k>", "fit k = 1..kmax components", "5")
    .option("--restarts <r>", "partition starts per model (as `mixture`)", "5")
    .option("--starts <s>", "full | raced | partitions (as `mixture`)", "full")
    .option(
      "--model <m>",
      "best-unfloored (best BIC among fits whose tie floor does not bind; the default without --fits) | best (with --fits, the default: the fit the table marks best) | FAMILY:K",
    )
    .option("--q <levels>", "quantile levels", "0.1,0.9")
    .option("--threshold <taus>", "targets for |Γ_q(n)| (relative standard error of the quantile)", "0.5,0.1")
    .option("--n <range>", "run counts of the curves: a:b or a list", "1:900")
    .option("--method <m>", "delta | order-statistic | bootstrap", "delta")
    .option("--reps <R>", "bootstrap refits", "400")
    .option("--density <d>", "order-statistic density: model | kde", "model")
    .option("--information <i>", "expected (quadrature) | empirical (outer product of scores over the runs)", "expected")
    .option("--center <c>", "none (SE/x_q, the default) | mean (SE/(x_q − mean): the paper's standardized scale)", "none")
    .option("--stats <list>", "statistics: q plus any of mean, sd, var", "q,mean,sd,var")
    .option("--precision <eps>", "target for the moments: relative CI half-width of the mean, relative SE of sd and var", "0.05")
    .option("--level <l>", "confidence level of the mean's CI", "0.95")
    .option("--moments <m>", "kurtosis for the sd and var run counts: sample (type-1 moments of the runs) | model (the fitted mixture)", "sample")
    .option("--pilot <M>", "fit on the first M runs of each configuration only; also report what all runs give")
    .option("--strict", "a singular information matrix is an error (E_SINGULAR_INFORMATION), not a row flag")
    .option("--details", "with --mixture: print the Fisher matrix and gradients (θ = π_1..π_{k−1}, a_1..a_k, b_1..b_k) to stderr")
    .option("--curves <file>", "long table of Γ_q(n): key, q, n, gamma_q")
    .option("--out <path>", "samplesize table (.csv, .tsv, .json or .parquet)")
    .option("--workers <n>", "worker threads (default: one per core)")
    .option("--shard <i/N>", "with an --out directory: run only the i-th of N slices of the configurations (combine with `varmap merge`)")
    .option("--no-resume", "with an --out directory: discard the results already there and start over")
    .option("--seed <s>", "seed (k-means++ starts, bootstrap draws)", "1")
    .option("--json", "print a summary as JSON on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string | undefined, opts: Flags) => {
      const s = await runSamplesize(file, samplesizeOptionsFromFlags(opts));
      if (opts.json) process.stdout.write(JSON.stringify(s.json, null, 2) + "\n");
      else process.stdout.write(s.text);
    });
}

interface Parsed {
  ss: SampleSizeOptions;
  ns: number[];
  pilot?: number;
}

function parseOptions(opts: Flags): Parsed {
  const qs = quantileLevels(opts.q);
  const taus = thresholds(opts.threshold);
  const ns = runCounts(opts.n);
  const stats = splitList(String(opts.stats));
  for (const s of stats)
    if (!["q", "mean", "sd", "var"].includes(s))
      throw new VarmapError("E_USAGE", `--stats: unknown statistic '${s}'`, { remedy: "use q,mean,sd,var or a subset" });
  const ss: SampleSizeOptions = {
    qs,
    taus,
    method: choice(opts.method, "--method", ["delta", "order-statistic", "bootstrap"] as const),
    information: choice(opts.information, "--information", ["expected", "empirical"] as const) as InformationKind,
    center: choice(opts.center, "--center", ["none", "mean"] as const) as CenterKind,
    density: choice(opts.density, "--density", ["model", "kde"] as const),
    reps: parseInteger(opts.reps, "--reps", { min: 2, max: 1_000_000 }),
    seed: parseInteger(opts.seed, "--seed", { min: 0, max: Number.MAX_SAFE_INTEGER }),
    stats,
    precision: positiveNumber(opts.precision, "--precision", "give a relative precision such as --precision 0.05"),
    level: level(opts.level, "--level"),
    // With --fits, the model the fits table chose (its `best` column, e.g. `varmap mixture`'s guarded selection).
    model: parseModelChoice((opts.model as string | undefined) ?? (opts.fits !== undefined ? "best" : "best-unfloored")),
    moments: choice(opts.moments ?? "sample", "--moments", ["sample", "model"] as const),
  };
  const pilot = opts.pilot === undefined ? undefined : parseInteger(opts.pilot, "--pilot", { min: 2, max: 1_000_000 });
  return { ss, ns, pilot };
}

/** samplesize's flags as SamplesizeOptions, checked in the order the verb always checked them. */
export function samplesizeOptionsFromFlags(opts: Flags): SamplesizeOptions {
  const p = parseOptions(opts);
  const mixtureMode = opts.mixture !== undefined;
  return {
    data: dataOptionsFromFlags(opts),
    settings: p.ss,
    ns: p.ns,
    ...(p.pilot !== undefined ? { pilot: p.pilot } : {}),
    ...(mixtureMode ? { mixture: String(opts.mixture) } : {}),
    ...(typeof opts.fits === "string" ? { fits: opts.fits } : {}),
    ...(mixtureMode
      ? {}
      : {
          families: parseFamilies(opts.families as string),
          kmax: parseInteger(opts.kmax, "--kmax", { min: 1, max: 16 }),
          restarts: parseInteger(opts.restarts, "--restarts", { min: 1, max: 1000 }),
          starts: parseStarts(opts.starts),
        }),
    strict: !!opts.strict,
    details: !!opts.details,
    ...(opts.curves !== undefined ? { curves: String(opts.curves) } : {}),
    ...(opts.out !== undefined ? { out: String(opts.out) } : {}),
    json: !!opts.json,
    run: {
      ...(opts.workers !== undefined ? { workers: parseWorkers(opts.workers as string) } : {}),
      ...(opts.shard !== undefined ? { shard: parseShardOptions(opts.shard as string, undefined) } : {}),
      resume: opts.resume !== false,
      quiet: !!opts.quiet,
    },
  };
}
