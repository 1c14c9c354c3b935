// `varmap whatif`: seed 004's what-if search with varmap's fitted maps as the low-cost predictor (spec D). Rank
// candidate configurations (--at FILE or --grid/--fix) by predicted mean, variability, runs needed or cost, with
// constraints and Pareto fronts; or validate such rankings against measurements (--validate FILE) or held-out
// configurations (--holdout p: every method fitted on the rest).
import { basename, dirname, join } from "node:path";
import { jobOptionsFromFlags, dataOptionsFromFlags } from "../flags.js";
import { Option, type Command } from "commander";
import { VarmapError } from "../../errors.js";
import { loadDataset } from "../../data/load.js";
import { tableCsv, tableFormat, writeTable } from "../../data/write.js";
import { runJob } from "../../pool/job.js";
import { holdoutJob, job as whatifJob, VALIDATION_FILE } from "../../jobs/whatif.js";
import { METHOD_NAMES } from "../../predict/registry.js";
import { BEST_METHODS } from "../../verbs/defaults.js";
import { QUANTILE_NAMES } from "../../data/types.js";
import { addDataOptions, splitList } from "../options.js";
import { fileCandidates, gridCandidates, type Candidates } from "../../whatif/candidates.js";
import { loadModelFiles, spreadKindOf, type ModelSet } from "../../whatif/models.js";
import { parseObjective, parsePareto, type EvaluateOptions, type ResponseKind, type SpreadKind } from "../../whatif/objective.js";
import { candidateColumns, outputOrder, readExpectedAre, validationColumns } from "../../whatif/report.js";
import { expectedAreOf, rankCandidates, readTruth, summaryOf, validationRows, type ValidationRow } from "../../whatif/run.js";
import { checkPrecisionLevel, RunsNeededTable } from "../../whatif/runs.js";

type Opts = Record<string, unknown>;

export function register(program: Command): void {
  const cmd = program
    .command("whatif")
    .description("rank candidate configurations by predicted performance, variability, runs needed and cost (seed 004's what-if), or validate such rankings")
    .argument("[data]", "with --holdout: the runs table whose configurations are held out");
  addDataOptions(cmd)
    .option("--mean <models>", "models of the mean (varmap fit --stat mean)")
    .option("--spread <models>", "models of the spread: sd, var, cv or a quantile (varmap fit --stat sd)")
    .option("--runs-model <models>", "models predicting the runs needed directly (instead of the A.2.5 rule on the predicted cv)")
    .option("--at <path>", "candidates (.csv, .tsv or .parquet) with the models' factor and input columns")
    .option("--grid <spec>", 'candidates: "col=a:b:step;col=v1,v2,…" (inclusive ranges or lists; factors enumerate maps)')
    .option("--fix <spec>", "with --grid: col=value,… (one value each; factors select maps)")
    .option(
      "--objective <name>",
      "max-mean | min-mean | min-cv | min-sd | min-q<level> | max-q<level> | min-runs | min-cost (default max-mean, min-mean for --response-kind time)",
    )
    .option("--pareto <a,b>", "two criteria for the Pareto front, e.g. mean,cv or max-mean,min-runs (default mean,cv)")
    .option("--precision <eps>", "relative half-width of the mean's confidence interval that runs_needed must reach", "0.05")
    .option("--level <1-alpha>", "confidence level of that interval", "0.95")
    .addOption(
      new Option("--response-kind <kind>", "the response is a throughput (higher is better) or a time in seconds per run")
        .choices(["throughput", "time"])
        .default("throughput"),
    )
    .option("--seconds-per-run <S>", "cost of one run when the response is not a time (cost = runs × S)", "1")
    .option("--max-cost <C>", "constraint: cost ≤ C")
    .option("--max-cv <V>", "constraint: predicted cv ≤ V")
    .option("--min-mean <Y>", "constraint: predicted mean ≥ Y")
    .option("--top <n>", "write only the n best-ranked candidates")
    .option("--cv-dir <dir>", "output directory of `varmap cv` for the spread method: its ARE per map becomes expected_are")
    .option(
      "--validate <path>",
      "measured configurations (runs table with the data flags, or a map table with --map and columns mean, sd): rank them and compare",
    )
    .option("--holdout <p>", "hold out this share of each map's configurations of [data], fit every --methods on the rest, rank and compare")
    .option("--methods <list>", `with --holdout: predictors to compare (default ${BEST_METHODS}, as cv; with --log-inputs auto --log-response auto)`)
    .option("--spread-stat <stat>", "with --holdout: spread statistic to model (sd, var, cv, q05…q95)", "sd")
    .option("--seed <s>", "seed of the held-out selection", "1")
    .option("--workers <n>", "with --holdout: worker threads (default one per core; 0 = this thread); results never depend on it")
    .option("--shard <i/N>", "with --holdout: run only the i-th of N slices of the fits (combine with varmap merge)")
    .option("--no-resume", "with --holdout: discard the results a previous run left beside --out and start over")
    .option("--out <path>", "whatif.csv (also .json, .parquet); validation goes to whatif-validation.csv beside it; default: CSV on stdout")
    .option("--json", "print a machine-readable summary on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (data: string | undefined, opts: Opts) => {
      await whatifAction(data, opts);
    });
}

function num(opts: Opts, key: string, flag: string, check: (x: number) => boolean, remedy: string): number | undefined {
  const v = opts[key];
  if (v === undefined) return undefined;
  const x = Number(v);
  if (String(v).trim() === "" || !Number.isFinite(x) || !check(x)) throw new VarmapError("E_USAGE", `${flag} ${String(v)} is not valid`, { remedy });
  return x;
}

async function whatifAction(data: string | undefined, opts: Opts): Promise<void> {
  // Every option is checked before anything is read or written.
  const holdout = num(opts, "holdout", "--holdout", (x) => x > 0 && x < 1, "give the share to hold out, in (0, 1), e.g. --holdout 0.2");
  const validate = opts.validate === undefined ? undefined : String(opts.validate);
  const precision = num(opts, "precision", "--precision", () => true, "e.g. --precision 0.05")!;
  const level = num(opts, "level", "--level", () => true, "e.g. --level 0.95")!;
  checkPrecisionLevel(precision, level);
  const responseKind = String(opts.responseKind) as ResponseKind;
  const secondsPerRun = num(opts, "secondsPerRun", "--seconds-per-run", (x) => x > 0, "give the seconds one run takes, e.g. --seconds-per-run 30")!;
  const maxCost = num(opts, "maxCost", "--max-cost", (x) => x >= 0, "give a non-negative cost");
  const maxCv = num(opts, "maxCv", "--max-cv", (x) => x >= 0, "give a cv such as 0.1");
  const minMean = num(opts, "minMean", "--min-mean", () => true, "give a number");
  const top = num(opts, "top", "--top", (x) => Number.isInteger(x) && x >= 1, "give a positive integer");
  const seed = String(opts.seed);
  const out = opts.out === undefined ? undefined : String(opts.out);
  const usage = (msg: string, remedy: string) => new VarmapError("E_USAGE", msg, { remedy });
  if (holdout !== undefined && validate)
    throw usage("--holdout and --validate both given", "validate against held-out configurations or against a measured file, not both");
  if ((holdout !== undefined || validate) && !out) throw usage("validation needs --out", "give --out whatif.csv (whatif-validation.csv is written beside it)");
  if (out) tableFormat(out, "--out");
  if (opts.json && !out) throw usage("--json needs --out", "the candidate table and the JSON summary cannot share stdout: give --out whatif.csv");

  let spreadKind: SpreadKind;
  let set: ModelSet | undefined;
  let methods: string[] = [];
  if (holdout !== undefined) {
    if (!data) throw usage("--holdout needs the runs table as an argument", "varmap whatif runs.csv --preset moana --holdout 0.5 --seed 1 --out whatif.csv");
    for (const f of ["mean", "spread", "runsModel", "at", "grid", "fix", "cvDir"] as const)
      if (opts[f] !== undefined)
        throw usage(
          `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply with --holdout`,
          "--holdout fits its own models on the training configurations of [data]",
        );
    // The defaults of fit and cv (issue 44: --holdout left out gp and worked on a linear scale, unsaid).
    methods = opts.methods === undefined ? BEST_METHODS.split(",") : splitList(String(opts.methods));
    if (opts.logInputs === undefined) opts.logInputs = "auto";
    if (opts.logResponse === undefined) opts.logResponse = "auto";
    const bad = methods.find((m) => !METHOD_NAMES.includes(m));
    if (bad || methods.length === 0) throw usage(`--methods names '${bad ?? ""}'`, `use some of ${METHOD_NAMES.join(", ")}`);
    spreadKind = spreadKindOf(String(opts.spreadStat), "--spread-stat");
    if (!["sd", "var", "cv", ...QUANTILE_NAMES].includes(spreadKind))
      throw usage(`--spread-stat ${spreadKind} is not computed from runs`, `use sd, var, cv or one of ${QUANTILE_NAMES.join(", ")}`);
  } else {
    if (data) throw usage(`unexpected argument '${data}'`, "give the data only with --holdout; candidates come from --at, --grid or --validate");
    if (!opts.mean || !opts.spread)
      throw usage("--mean and --spread are required", "give the models files of the mean and of the spread (varmap fit --stat mean / --stat sd)");
    const sources = [opts.at !== undefined, opts.grid !== undefined, validate !== undefined].filter(Boolean).length;
    if (sources !== 1) throw usage("give the candidates once: --at FILE, --grid SPEC or --validate FILE", 'e.g. --grid "threads=1,2,4" --fix mode=fread');
    if (opts.fix !== undefined && opts.grid === undefined) throw usage("--fix needs --grid", "add --grid, or put the values in the --at file");
    if (opts.methods !== undefined) throw usage("--methods applies to --holdout", "the methods are those of the models files");
    if (opts.shard !== undefined) throw usage("--shard applies to --holdout", "rank candidates in one run");
    set = loadModelFiles(String(opts.mean), String(opts.spread), opts.runsModel === undefined ? undefined : String(opts.runsModel));
    spreadKind = set.spreadKind;
  }
  const objective = parseObjective(opts.objective === undefined ? (responseKind === "time" ? "min-mean" : "max-mean") : String(opts.objective), spreadKind);
  const pareto = parsePareto(
    opts.pareto === undefined ? `mean,${spreadKind.startsWith("q") ? spreadKind : "cv"}` : String(opts.pareto),
    objective,
    responseKind,
    spreadKind,
  );
  if (maxCv !== undefined && spreadKind.startsWith("q"))
    throw usage("--max-cv needs a cv, but the spread models predict a quantile", "fit the spread models with --stat sd");
  const evalOpts: EvaluateOptions = { spreadKind, precision, level, responseKind, secondsPerRun, objective, pareto, maxCost, maxCv, minMean };
  const load = dataOptionsFromFlags(opts);
  const note = (s: string) => opts.quiet || process.stderr.write(`varmap: ${s}\n`);

  const summaries: Record<string, unknown>[] = [];
  let validation: ValidationRow[] | undefined;
  let validationPath: string | undefined;
  if (holdout !== undefined) {
    // On the job engine: one task per map and method, in worker threads, resumable, shardable.
    const dir = dirname(out!);
    const jobOpts = jobOptionsFromFlags(opts as { shard?: string; workers?: string; resume?: boolean; quiet?: boolean }, dir, "whatif");
    if (!/\.csv$/i.test(out!)) throw usage(`--holdout writes CSV: '${out}' does not end in .csv`, "give --out whatif.csv");
    const dataset = await loadDataset(data!, { ...load, stat: "sd" });
    // --log-response auto is resolved on the mean and spread maps the job models (not read as plain --log-response),
    // and --log-inputs auto on the data (the columns the loader picked), as fit, cv and refit resolve them.
    const ctx = holdoutJob(dataset, {
      methods,
      response: load.logResponse === "auto" ? "auto" : load.logResponse ? "log" : "linear",
      fraction: holdout,
      seed,
      spreadKind,
      evaluate: evalOpts,
      table: basename(out!),
      top,
      logInputs: dataset.resolved?.logInputs ?? load.logInputs,
      source: data!,
    });
    if (load.logResponse === "auto") note(`--log-response auto: the mean and the spread are modelled on a ${ctx.plan.response} scale`);
    // Say where the defaults differ from fit's (issue 44): fit's default method is gp, --holdout compares cv's set.
    if (opts.methods === undefined) note(`--holdout compares ${methods.join(", ")} (cv's default methods; --methods chooses others)`);
    const s = await runJob(whatifJob, ctx, jobOpts);
    if (s.shard !== null) {
      if (opts.json) process.stdout.write(JSON.stringify(s) + "\n");
      return;
    }
    const sum = s.summary as {
      runs: Record<string, unknown>[];
      metrics: ValidationRow[];
      failed: { map: string; method: string; error: string; message: string }[];
    };
    summaries.push(...sum.runs);
    validation = sum.metrics;
    validationPath = join(dir, VALIDATION_FILE);
    for (const f of sum.failed)
      note(`${f.method} could not be fitted to map ${f.map} (${f.error}): its held-out configurations are invalid predictions. ${f.message}`);
  } else {
    const runsTable = new RunsNeededTable(precision, level);
    let candidates: Candidates;
    let truth: Awaited<ReturnType<typeof readTruth>>["truth"] | undefined;
    if (validate) ({ candidates, truth } = await readTruth(set!, validate, load));
    else
      candidates =
        opts.at !== undefined
          ? await fileCandidates(set!, String(opts.at))
          : gridCandidates(set!, String(opts.grid), opts.fix === undefined ? undefined : String(opts.fix));
    const expected = opts.cvDir === undefined ? undefined : expectedAreOf(set!, candidates, await readExpectedAre(String(opts.cvDir), set!, set!.spreadMethod));
    const ranked = rankCandidates(set!, candidates, evalOpts, runsTable);
    if (truth) {
      const method = set!.meanMethod === set!.spreadMethod ? set!.meanMethod : `${set!.meanMethod}+${set!.spreadMethod}`;
      validation = validationRows(set!, ranked, truth, evalOpts, method, runsTable);
    }
    const columns = candidateColumns(set!, candidates, ranked.predicted, ranked.evaluation, outputOrder(ranked.evaluation, top), {
      spreadKind,
      expectedAre: expected,
    });
    summaries.push(summaryOf(ranked));
    if (out) await writeTable(out, columns);
    else process.stdout.write(tableCsv(columns));
    if (validation) {
      validationPath = join(dirname(out!), VALIDATION_FILE);
      await writeTable(validationPath, validationColumns(validation));
    }
  }

  for (const s of summaries) {
    const head = s.method ? `${s.method}: ` : "";
    note(
      `${head}${s.candidates} candidate(s), ${s.ranked} ranked, ${s.invalid_prediction} invalid prediction(s), ${s.infeasible} infeasible, ${s.extrapolated} extrapolated, Pareto front ${s.pareto_front}`,
    );
  }
  if (validation)
    for (const v of validation)
      note(
        `${v.method} ${v.map}: top-1 ${v.top1}, regret ${fmt(v.regret)}, Spearman ${fmt(v.spearman)}, top-10 ${fmt(v.top10)}, Pareto recall ${fmt(v.paretoRecall)}`,
      );
  if (out) note(`wrote ${out}${validationPath ? ` and ${validationPath}` : ""}`);
  if (opts.json)
    process.stdout.write(
      JSON.stringify(
        {
          out: out ?? null,
          validation: validationPath ?? null,
          objective: `${objective.direction}-${objective.name}`,
          pareto: pareto.map((c) => `${c.direction}-${c.name}`),
          precision,
          level,
          runs: summaries,
          metrics: validation ?? null,
        },
        jsonNumbers,
      ) + "\n",
    );
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toPrecision(4) : "NA";
}

function jsonNumbers(_k: string, v: unknown): unknown {
  return typeof v === "number" && !Number.isFinite(v) ? null : v;
}
