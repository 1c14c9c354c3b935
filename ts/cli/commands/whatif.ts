// `varmap whatif`: seed 004's what-if search with varmap's fitted maps as the low-cost predictor (spec D). Rank
// candidate configurations (--at FILE or --grid/--fix) by predicted mean, variability, runs needed or cost, with
// constraints and Pareto fronts; or validate such rankings against measurements (--validate FILE) or held-out
// configurations (--holdout p: every method fitted on the rest). The flags become WhatifOptions; the verb is
// ts/verbs/whatif.ts.
import { dataOptionsFromFlags, runOptionsFromFlags } from "../flags.js";
import { Option, type Command } from "commander";
import { VarmapError } from "../../errors.js";
import { BEST_METHODS } from "../../verbs/defaults.js";
import { runWhatif } from "../../verbs/whatif.js";
import type { ResponseKind } from "../../whatif/objective.js";
import { addDataOptions, splitList } from "../options.js";

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
    .option("--leave-out <cols>", "with --holdout: hold out whole combinations of these inputs/factors (that share of them), not single configurations")
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
  // The flags' text in the messages: each number is checked here first (runWhatif checks the typed values again).
  const holdout = num(opts, "holdout", "--holdout", (x) => x > 0 && x < 1, "give the share to hold out, in (0, 1), e.g. --holdout 0.2");
  const precision = num(opts, "precision", "--precision", () => true, "e.g. --precision 0.05");
  const level = num(opts, "level", "--level", () => true, "e.g. --level 0.95");
  const secondsPerRun = num(opts, "secondsPerRun", "--seconds-per-run", (x) => x > 0, "give the seconds one run takes, e.g. --seconds-per-run 30");
  const maxCost = num(opts, "maxCost", "--max-cost", (x) => x >= 0, "give a non-negative cost");
  const maxCv = num(opts, "maxCv", "--max-cv", (x) => x >= 0, "give a cv such as 0.1");
  const minMean = num(opts, "minMean", "--min-mean", () => true, "give a number");
  const top = num(opts, "top", "--top", (x) => Number.isInteger(x) && x >= 1, "give a positive integer");
  if (opts.json && !opts.out)
    throw new VarmapError("E_USAGE", "--json needs --out", { remedy: "the candidate table and the JSON summary cannot share stdout: give --out whatif.csv" });
  // --holdout: the defaults of fit and cv (issue 44: --holdout left out gp and worked on a linear scale, unsaid).
  if (holdout !== undefined) {
    if (opts.logInputs === undefined) opts.logInputs = "auto";
    if (opts.logResponse === undefined) opts.logResponse = "auto";
  }
  const str = (k: string) => (opts[k] === undefined ? undefined : String(opts[k]));
  const s = await runWhatif(data, {
    data: dataOptionsFromFlags(opts),
    mean: str("mean"),
    spread: str("spread"),
    runsModel: str("runsModel"),
    at: str("at"),
    grid: str("grid"),
    fix: str("fix"),
    objective: str("objective"),
    pareto: str("pareto"),
    precision,
    level,
    responseKind: String(opts.responseKind) as ResponseKind,
    secondsPerRun,
    maxCost,
    maxCv,
    minMean,
    top,
    cvDir: str("cvDir"),
    validate: str("validate"),
    holdout,
    ...(opts.leaveOut !== undefined ? { leaveOut: splitList(String(opts.leaveOut)) } : {}),
    methods: opts.methods === undefined ? undefined : splitList(String(opts.methods)),
    spreadStat: str("spreadStat"),
    seed: String(opts.seed),
    out: str("out"),
    // Without --holdout a --shard is only reported (runWhatif refuses it where the flag checks always did): not parsed.
    run: holdout !== undefined ? runOptionsFromFlags(opts) : opts.shard !== undefined ? { shard: { index: 1, count: 1 } } : undefined,
    quiet: !!opts.quiet,
  });
  if (s.shard !== null) {
    if (opts.json) process.stdout.write(JSON.stringify(s.shard) + "\n");
    return;
  }
  if (s.csv !== undefined) process.stdout.write(s.csv);
  if (opts.json) process.stdout.write(JSON.stringify(s.json, jsonNumbers) + "\n");
}

function jsonNumbers(_k: string, v: unknown): unknown {
  return typeof v === "number" && !Number.isFinite(v) ? null : v;
}
