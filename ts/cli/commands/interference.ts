// `varmap interference <runs>`: the flags become InterferenceOptions; the verb is ts/verbs/interference.ts.
import { Option, type Command } from "commander";
import { VarmapError } from "../../errors.js";
import { DEFAULT_OPTIONS, type Aggregate, type Metric } from "../../interference/types.js";
import { SYNTH_ROLES } from "../../interference/synth.js";
import { runInterference, type InterferenceOptions } from "../../verbs/interference.js";
import { splitList } from "../options.js";
import { runOptionsFromFlags, type Flags } from "../flags.js";

export function register(program: Command): void {
  program
    .command("interference")
    .description("degradation of each probe by each signal against standalone runs; matrix, app classes, break-even, time slices (seed 003)")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet): one row per application instance per execution")
    .addOption(
      new Option("--preset <name>", "column roles of `varmap synth --design interference` runs (the flags below override them)").choices(["interference"]),
    )
    .option("--experiment <col>", "execution id: rows sharing it ran concurrently (1 row = standalone, 2 = a pair)")
    .option("--app <col>", "pattern or application name of the instance")
    .option("--instance <col>", "instance id, to tell the two sides of a self-pair apart (default: row order)")
    .option("--factors <cols>", "per-instance settings (file system, chunk size, processes, …), comma-separated")
    .option("--run <col>", "repetition index column")
    .option("--response <col>", "the instance's bandwidth (--metric throughput) or completion time (--metric time)")
    .addOption(new Option("--metric <m>", "what --response measures").choices(["throughput", "time"]))
    .addOption(
      new Option("--aggregate <how>", "repetitions: best (the paper's best of five), or median/mean with bootstrap CIs")
        .choices(["best", "median", "mean"])
        .default("best"),
    )
    .option("--noise <col>", "server bytes / application bytes of the execution; executions above 1 + --noise-max are dropped")
    .option("--noise-max <x>", "noise filter threshold", "0.10")
    .option("--slices <file>", "LWM² time slices: experiment, app[, instance], slice, bytes|ops[, server_bytes]")
    .option("--slice-seconds <s>", "length of one time slice", "4")
    .option("--sweep <col>", "numeric factor along which to find break-even points (writes --breakeven)")
    .option("--dominance-gap <points>", "δ: dominance needs one side degraded this many points more", "20")
    .option("--negligible <pct>", "ν: both degradations below this is negligible interference", "10")
    .option("--class-threshold <pct>", "aggressive / sensitive at mean caused / suffered degradation ≥ this", "50")
    .option("--bootstrap <B>", "bootstrap resamples for --aggregate median|mean", "2000")
    .option("--mixture-min-runs <n>", "fit mixtures to pairs and standalones with at least n repetitions (0 = never)", "10")
    .option("--mixture-kmax <k>", "mixture components k = 1..kmax", "2")
    .option("--where <sql>", "SQL predicate selecting rows of the runs table")
    .option("--out <path>", "pair table (.csv); the job journal and the other tables go beside it")
    .option("--matrix <path>", "probe × signal degradation matrix")
    .option("--apps <path>", "per-app sensitivity, aggressiveness and class")
    .option("--breakeven <path>", "with --sweep: break-even points (default: breakeven.csv next to --out)")
    .option("--seed <s>", "seed of the bootstrap streams (keyed by seed and pair)", "1")
    .option("--workers <n>", "worker threads (default: one per core; 0 = this thread); the results do not depend on it")
    .option("--shard <i/N>", "compute only the i-th of N slices of the pair rows (then varmap merge the directories)")
    .option("--no-resume", "discard the job journal a previous run left beside --out and start over")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, o: Flags) => {
      const s = await runInterference(file, interferenceOptionsFromFlags(o));
      if (o.json) process.stdout.write(JSON.stringify(s.shard ? s.job : s.summary) + "\n");
    });
}

/** interference's flags as InterferenceOptions (the numbers checked here, with their flags in the messages). */
export function interferenceOptionsFromFlags(flags: Flags): InterferenceOptions {
  // --preset interference: the synthetic design's roles, each overridden by its own flag.
  const preset: Flags = flags.preset === "interference" ? { ...SYNTH_ROLES, factors: SYNTH_ROLES.factors.join(",") } : {};
  const o: Flags = { ...preset, ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) };
  const str = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : undefined);
  const num = (k: string, flag: string, ok: (x: number) => boolean, what: string) => {
    const x = Number(str(k));
    if (!(str(k)?.trim() && Number.isFinite(x) && ok(x)))
      throw new VarmapError("E_USAGE", `${flag} must be ${what} (got '${str(k)}')`, {
        remedy: `e.g. ${flag} ${String(DEFAULT_OPTIONS[k as keyof typeof DEFAULT_OPTIONS] ?? 1)}`,
      });
    return x;
  };
  const numbers = () => ({
    noiseMax: num("noiseMax", "--noise-max", (x) => x >= 0, "a number ≥ 0"),
    sliceSeconds: num("sliceSeconds", "--slice-seconds", (x) => x > 0, "a positive number of seconds"),
    dominanceGap: num("dominanceGap", "--dominance-gap", (x) => x >= 0, "a number of points ≥ 0"),
    negligible: num("negligible", "--negligible", (x) => x >= 0, "a percentage ≥ 0"),
    classThreshold: num("classThreshold", "--class-threshold", () => true, "a percentage"),
    bootstrap: num("bootstrap", "--bootstrap", (x) => Number.isInteger(x) && x >= 2 && x <= 1e7, "an integer from 2 to 10^7"),
    mixtureMinRuns: num("mixtureMinRuns", "--mixture-min-runs", (x) => Number.isInteger(x) && x >= 0, "an integer ≥ 0"),
    mixtureKmax: num("mixtureKmax", "--mixture-kmax", (x) => Number.isInteger(x) && x >= 1 && x <= 5, "an integer from 1 to 5"),
  });
  const options: InterferenceOptions = {
    columns: {
      experiment: str("experiment"),
      app: str("app"),
      instance: str("instance"),
      factors: splitList(str("factors")),
      run: str("run"),
      response: str("response"),
      noise: str("noise"),
      where: str("where"),
    },
    metric: str("metric") as Metric | undefined,
    slices: str("slices"),
    sweep: str("sweep"),
    out: str("out") ?? "",
    matrix: str("matrix"),
    apps: str("apps"),
    breakeven: str("breakeven"),
  };
  return {
    ...options,
    analysis: {
      aggregate: (str("aggregate") ?? "best") as Aggregate,
      seed: /^-?\d+$/.test(String(o.seed)) ? Number(o.seed) : String(o.seed),
      ...numbers(),
    },
    run: runOptionsFromFlags(o),
  };
}
