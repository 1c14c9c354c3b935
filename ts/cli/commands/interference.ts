// `varmap interference <runs>`: throughput degradation (or runtime dilation) of each probe against each signal,
// the probe × signal matrix, per-app sensitivity/aggressiveness and classes, break-even points along a swept
// factor, and time-slice analysis (seed 003; spec C).
import { Option, type Command } from "commander";
import { jobOptionsFromFlags } from "../flags.js";
import { dirname, join, relative, resolve } from "node:path";
import { VarmapError } from "../../errors.js";
import { prepareInterference } from "../../interference/analyze.js";
import { readRuns, readSlices } from "../../interference/read.js";
import { interferenceContext, job } from "../../jobs/interference.js";
import { runJob } from "../../pool/job.js";
import { DEFAULT_OPTIONS, type Aggregate, type InterferenceOptions, type Metric } from "../../interference/types.js";
import { splitList } from "../options.js";

export function register(program: Command): void {
  program
    .command("interference")
    .description("degradation of each probe by each signal against standalone runs; matrix, app classes, break-even, time slices (seed 003)")
    .argument("<runs>", "runs table (.csv, .tsv or .parquet): one row per application instance per execution")
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
    .action(async (file: string, o: Record<string, string | boolean | undefined>) => {
      const str = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : undefined);
      const num = (k: string, flag: string, ok: (x: number) => boolean, what: string) => {
        const x = Number(str(k));
        if (!(str(k)?.trim() && Number.isFinite(x) && ok(x)))
          throw new VarmapError("E_USAGE", `${flag} must be ${what} (got '${str(k)}')`, {
            remedy: `e.g. ${flag} ${String(DEFAULT_OPTIONS[k as keyof typeof DEFAULT_OPTIONS] ?? 1)}`,
          });
        return x;
      };
      // Every option is validated before anything is read or written.
      for (const [k, flag] of [
        ["experiment", "--experiment"],
        ["app", "--app"],
      ] as const)
        if (!str(k))
          throw new VarmapError("E_USAGE", `interference needs ${flag} COL`, {
            remedy: "name the execution-id column with --experiment and the app column with --app",
          });
      if (!str("metric"))
        throw new VarmapError("E_USAGE", "interference needs --metric throughput|time", {
          remedy: "say whether --response is a bandwidth (throughput: higher is better) or a completion time (time: lower is better)",
        });
      if (!str("response") && !str("slices"))
        throw new VarmapError("E_USAGE", "interference needs --response COL (or --slices FILE)", {
          remedy: "name the bandwidth or time column with --response",
        });
      const out = str("out");
      if (!out) throw new VarmapError("E_USAGE", "interference needs --out PATH for the pair table", { remedy: "e.g. --out pairs.csv" });
      const factors = splitList(str("factors"));
      const sweep = str("sweep");
      if (sweep !== undefined && !factors.includes(sweep))
        throw new VarmapError("E_USAGE", `--sweep ${sweep} is not one of the --factors (${factors.join(", ") || "none"})`, {
          remedy: "list the swept column in --factors too",
        });
      const breakevenPath = sweep === undefined ? undefined : (str("breakeven") ?? join(dirname(out), "breakeven.csv"));
      const outputs = [out, str("matrix"), str("apps"), breakevenPath].filter((p): p is string => p !== undefined);
      for (const p of outputs)
        if (!/\.csv$/i.test(p))
          throw new VarmapError("E_USAGE", `interference writes CSV tables: '${p}' does not end in .csv`, {
            remedy: "give --out, --matrix, --apps and --breakeven paths ending in .csv",
          });
      for (const [flag, p] of [
        ["--matrix", str("matrix")],
        ["--apps", str("apps")],
        ["--breakeven", breakevenPath],
      ] as const)
        if (p !== undefined && resolve(dirname(p)) !== resolve(dirname(out)))
          throw new VarmapError("E_USAGE", `${flag} ${p} is not in the directory of --out ${out}`, {
            remedy: `the tables and the job journal live together: put them beside --out, e.g. ${join(dirname(out), `${flag.slice(2)}.csv`)}`,
          });
      const dup = outputs.find((p, i) => outputs.findIndex((q) => resolve(q) === resolve(p)) !== i);
      if (dup)
        throw new VarmapError("E_USAGE", `two outputs would be written to ${dup}`, { remedy: "give --out, --matrix, --apps and --breakeven different paths" });
      const seed = /^-?\d+$/.test(String(o.seed)) ? Number(o.seed) : String(o.seed);
      // The job journal (manifest.json, results.jsonl) lives beside --out; the other tables are placed relative to it.
      const dir = dirname(out);
      const jobOpts = jobOptionsFromFlags(o as { shard?: string; workers?: string; resume?: boolean; quiet?: boolean }, dir, "interference");
      const note = o.quiet ? undefined : (m: string) => process.stderr.write(`varmap: note: ${m}\n`);
      const opts: InterferenceOptions = {
        ...DEFAULT_OPTIONS,
        metric: str("metric") as Metric,
        aggregate: (str("aggregate") ?? "best") as Aggregate,
        factorNames: factors,
        noiseMax: num("noiseMax", "--noise-max", (x) => x >= 0, "a number ≥ 0"),
        sliceSeconds: num("sliceSeconds", "--slice-seconds", (x) => x > 0, "a positive number of seconds"),
        dominanceGap: num("dominanceGap", "--dominance-gap", (x) => x >= 0, "a number of points ≥ 0"),
        negligible: num("negligible", "--negligible", (x) => x >= 0, "a percentage ≥ 0"),
        classThreshold: num("classThreshold", "--class-threshold", () => true, "a percentage"),
        bootstrap: num("bootstrap", "--bootstrap", (x) => Number.isInteger(x) && x >= 2 && x <= 1e7, "an integer from 2 to 10^7"),
        mixtureMinRuns: num("mixtureMinRuns", "--mixture-min-runs", (x) => Number.isInteger(x) && x >= 0, "an integer ≥ 0"),
        mixtureKmax: num("mixtureKmax", "--mixture-kmax", (x) => Number.isInteger(x) && x >= 1 && x <= 5, "an integer from 1 to 5"),
        sweep,
        seed,
        note,
        file,
        slicesFile: str("slices"),
      };
      if (str("slices") && opts.metric !== "throughput")
        throw new VarmapError("E_USAGE", "time slices give throughput: --slices needs --metric throughput", {
          remedy: "use --metric throughput with --slices",
        });

      const runs = await readRuns(file, {
        experiment: str("experiment")!,
        app: str("app")!,
        instance: str("instance"),
        factors,
        run: str("run"),
        response: str("response"),
        noise: str("noise"),
        where: str("where"),
      });
      const slices = str("slices")
        ? await readSlices(str("slices")!, { experiment: str("experiment")!, app: str("app")!, instance: str("instance") })
        : undefined;
      const t0 = performance.now();
      const prep = prepareInterference(runs, opts, slices);
      const rel = (p: string | undefined) => (p === undefined ? undefined : relative(dir, p));
      const ctx = interferenceContext(prep, opts, { pairs: rel(out)!, matrix: rel(str("matrix")), apps: rel(str("apps")), breakeven: rel(breakevenPath) });
      const s = await runJob(job, ctx, jobOpts);
      const seconds = (performance.now() - t0) / 1000;
      if (s.shard !== null) {
        note?.(`shard ${s.shard}: ${s.ran} task(s) computed into ${dir}; combine the shards with varmap merge`);
        if (o.json) process.stdout.write(JSON.stringify(s) + "\n");
        return;
      }
      const sum = prep.meta.summary;
      note?.(`${prep.pairs.length} pair rows (${sum.pairExecutions} pair and ${sum.standaloneExecutions} standalone executions) → ${outputs.join(", ")}`);
      if (o.json) process.stdout.write(JSON.stringify({ ...sum, ...s.summary, metric: opts.metric, aggregate: opts.aggregate, outputs, seconds }) + "\n");
    });
}
