// `whatif`: seed 004's what-if search with varmap's fitted maps as the low-cost predictor (spec D). Rank
// candidate configurations (at a file, or a grid) by predicted mean, variability, runs needed or cost, with
// constraints and Pareto fronts; or validate such rankings against measurements (validate) or held-out
// configurations (holdout p: every method fitted on the rest, on the engine). The CLI
// (ts/cli/commands/whatif.ts) parses the flags into WhatifOptions and prints the summary.
import { basename, dirname, join } from "node:path";
import { VarmapError } from "../errors.js";
import { loadDataset, type LoadOptions } from "../data/load.js";
import { tableCsv, tableFormat, writeTable } from "../data/write.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { holdoutJob, job as whatifJob, VALIDATION_FILE } from "../jobs/whatif.js";
import { METHOD_NAMES } from "../predict/registry.js";
import { BEST_METHODS } from "./defaults.js";
import { QUANTILE_NAMES } from "../data/types.js";
import { fileCandidates, gridCandidates, type Candidates } from "../whatif/candidates.js";
import { loadModelFiles, spreadKindOf, type ModelSet } from "../whatif/models.js";
import { parseObjective, parsePareto, type EvaluateOptions, type ResponseKind, type SpreadKind } from "../whatif/objective.js";
import { candidateColumns, outputOrder, readExpectedAre, validationColumns } from "../whatif/report.js";
import { expectedAreOf, rankCandidates, readTruth, summaryOf, validationRows, type ValidationRow } from "../whatif/run.js";
import { checkPrecisionLevel, RunsNeededTable } from "../whatif/runs.js";
import { jobOptions, type RunOptions } from "./common.js";

export interface WhatifOptions {
  /** Column roles of [data] (holdout) or of the validate file. With holdout the CLI defaults the transforms to auto. */
  data?: LoadOptions;
  /** Models of the mean (`varmap fit --stat mean`) and of the spread (sd, var, cv or a quantile). */
  mean?: string;
  spread?: string;
  /** Models predicting the runs needed directly. */
  runsModel?: string;
  /** Candidates: a table file, or a grid "col=a:b:step;col=v1,v2" with fix "col=value,…". */
  at?: string;
  grid?: string;
  fix?: string;
  objective?: string;
  pareto?: string;
  /** Relative half-width of the mean's confidence interval runs_needed must reach (default 0.05) at level (0.95). */
  precision?: number;
  level?: number;
  responseKind?: ResponseKind;
  /** Cost of one run when the response is not a time (default 1). */
  secondsPerRun?: number;
  maxCost?: number;
  maxCv?: number;
  minMean?: number;
  /** Write only the n best-ranked candidates. */
  top?: number;
  /** `varmap cv` output of the spread method: its ARE per map becomes expected_are. */
  cvDir?: string;
  /** Measured configurations to rank and compare against. */
  validate?: string;
  /** --holdout: the share of each map's configurations of [data] held out, in (0, 1). */
  holdout?: number;
  /** With holdout: hold out whole combinations of these inputs/factors (issue 41), the share of groups `holdout`. */
  leaveOut?: string[];
  /** With holdout: the predictors to compare (default cv's). */
  methods?: string[];
  /** With holdout: the spread statistic (default sd). */
  spreadStat?: string;
  /** Seed of the held-out selection (default 1). */
  seed?: string;
  /** whatif.csv (.json, .parquet); without it the candidates' CSV is in the summary (`csv`). */
  out?: string;
  /** With holdout: workers, shard, resume. */
  run?: RunOptions;
  /** No notes on stderr. */
  quiet?: boolean;
}

export interface WhatifJson {
  out: string | null;
  validation: string | null;
  objective: string;
  pareto: string[];
  precision: number;
  level: number;
  runs: Record<string, unknown>[];
  metrics: ValidationRow[] | null;
}

/** One shard of a holdout run (the job's summary), or the whole result. */
export type WhatifSummary = { shard: JobSummary } | { shard: null; json: WhatifJson; csv?: string };

function check(v: number | undefined, flag: string, ok: (x: number) => boolean, remedy: string): number | undefined {
  if (v !== undefined && !(Number.isFinite(v) && ok(v))) throw new VarmapError("E_USAGE", `${flag} ${String(v)} is not valid`, { remedy });
  return v;
}

export async function runWhatif(data: string | undefined, o: WhatifOptions): Promise<WhatifSummary> {
  // Every option is checked before anything is read or written.
  const holdout = check(o.holdout, "--holdout", (x) => x > 0 && x < 1, "give the share to hold out, in (0, 1), e.g. --holdout 0.2");
  const validate = o.validate;
  const precision = check(o.precision ?? 0.05, "--precision", () => true, "e.g. --precision 0.05")!;
  const level = check(o.level ?? 0.95, "--level", () => true, "e.g. --level 0.95")!;
  checkPrecisionLevel(precision, level);
  const responseKind = o.responseKind ?? "throughput";
  const secondsPerRun = check(o.secondsPerRun ?? 1, "--seconds-per-run", (x) => x > 0, "give the seconds one run takes, e.g. --seconds-per-run 30")!;
  const maxCost = check(o.maxCost, "--max-cost", (x) => x >= 0, "give a non-negative cost");
  const maxCv = check(o.maxCv, "--max-cv", (x) => x >= 0, "give a cv such as 0.1");
  const minMean = check(o.minMean, "--min-mean", () => true, "give a number");
  const top = check(o.top, "--top", (x) => Number.isInteger(x) && x >= 1, "give a positive integer");
  const seed = o.seed ?? "1";
  const out = o.out;
  const usage = (msg: string, remedy: string) => new VarmapError("E_USAGE", msg, { remedy });
  if (o.leaveOut !== undefined && holdout === undefined)
    throw usage("--leave-out applies to --holdout", "add --holdout 0.3 to hold out that share of the combinations of the columns");
  if (o.leaveOut !== undefined && (o.leaveOut.length === 0 || new Set(o.leaveOut).size !== o.leaveOut.length))
    throw new VarmapError("E_LEAVE_OUT", `--leave-out '${o.leaveOut.join(",")}' names no column or one twice`, {
      remedy: "name each column whose combinations to hold out once, e.g. --leave-out fsize_kb,rsize_kb",
    });
  if (holdout !== undefined && validate)
    throw usage("--holdout and --validate both given", "validate against held-out configurations or against a measured file, not both");
  if ((holdout !== undefined || validate) && !out) throw usage("validation needs --out", "give --out whatif.csv (whatif-validation.csv is written beside it)");
  if (out) tableFormat(out, "--out");

  let spreadKind: SpreadKind;
  let set: ModelSet | undefined;
  let methods: string[] = [];
  if (holdout !== undefined) {
    if (!data) throw usage("--holdout needs the runs table as an argument", "varmap whatif runs.csv --preset moana --holdout 0.5 --seed 1 --out whatif.csv");
    for (const f of ["mean", "spread", "runsModel", "at", "grid", "fix", "cvDir"] as const)
      if (o[f] !== undefined)
        throw usage(
          `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply with --holdout`,
          "--holdout fits its own models on the training configurations of [data]",
        );
    // The defaults of fit and cv (issue 44: --holdout left out gp and worked on a linear scale, unsaid).
    methods = o.methods === undefined ? BEST_METHODS.split(",") : [...o.methods];
    const bad = methods.find((m) => !METHOD_NAMES.includes(m));
    if (bad || methods.length === 0) throw usage(`--methods names '${bad ?? ""}'`, `use some of ${METHOD_NAMES.join(", ")}`);
    spreadKind = spreadKindOf(o.spreadStat ?? "sd", "--spread-stat");
    if (!["sd", "var", "cv", ...QUANTILE_NAMES].includes(spreadKind))
      throw usage(`--spread-stat ${spreadKind} is not computed from runs`, `use sd, var, cv or one of ${QUANTILE_NAMES.join(", ")}`);
  } else {
    if (data) throw usage(`unexpected argument '${data}'`, "give the data only with --holdout; candidates come from --at, --grid or --validate");
    if (!o.mean || !o.spread)
      throw usage("--mean and --spread are required", "give the models files of the mean and of the spread (varmap fit --stat mean / --stat sd)");
    const sources = [o.at !== undefined, o.grid !== undefined, validate !== undefined].filter(Boolean).length;
    if (sources !== 1) throw usage("give the candidates once: --at FILE, --grid SPEC or --validate FILE", 'e.g. --grid "threads=1,2,4" --fix mode=fread');
    if (o.fix !== undefined && o.grid === undefined) throw usage("--fix needs --grid", "add --grid, or put the values in the --at file");
    if (o.methods !== undefined) throw usage("--methods applies to --holdout", "the methods are those of the models files");
    if (o.run?.shard !== undefined) throw usage("--shard applies to --holdout", "rank candidates in one run");
    set = loadModelFiles(o.mean, o.spread, o.runsModel);
    spreadKind = set.spreadKind;
  }
  const objective = parseObjective(o.objective === undefined ? (responseKind === "time" ? "min-mean" : "max-mean") : o.objective, spreadKind);
  const pareto = parsePareto(o.pareto === undefined ? `mean,${spreadKind.startsWith("q") ? spreadKind : "cv"}` : o.pareto, objective, responseKind, spreadKind);
  if (maxCv !== undefined && spreadKind.startsWith("q"))
    throw usage("--max-cv needs a cv, but the spread models predict a quantile", "fit the spread models with --stat sd");
  const evalOpts: EvaluateOptions = { spreadKind, precision, level, responseKind, secondsPerRun, objective, pareto, maxCost, maxCv, minMean };
  const load = o.data ?? {};
  const note = (s: string) => o.quiet || process.stderr.write(`varmap: ${s}\n`);

  const summaries: Record<string, unknown>[] = [];
  let csv: string | undefined;
  let validation: ValidationRow[] | undefined;
  let validationPath: string | undefined;
  if (holdout !== undefined) {
    // On the job engine: one task per map and method, in worker threads, resumable, shardable.
    const dir = dirname(out!);
    const jobOpts = jobOptions({ ...o.run, quiet: !!o.quiet }, dir, "whatif");
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
      ...(o.leaveOut ? { leaveOut: o.leaveOut } : {}),
    });
    if (ctx.plan.leaveOut) ctx.plan.leaveOut.heldOut.forEach((h, mi) => note(`--leave-out: map ${mi + 1} holds out ${h.join(" | ")}`));
    if (load.logResponse === "auto") note(`--log-response auto: the mean and the spread are modelled on a ${ctx.plan.response} scale`);
    // Say where the defaults differ from fit's (issue 44): fit's default method is gp, --holdout compares cv's set.
    if (o.methods === undefined) note(`--holdout compares ${methods.join(", ")} (cv's default methods; --methods chooses others)`);
    const s = await runJob(whatifJob, ctx, jobOpts);
    if (s.shard !== null) return { shard: s };
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
    else candidates = o.at !== undefined ? await fileCandidates(set!, o.at) : gridCandidates(set!, String(o.grid), o.fix);
    const expected = o.cvDir === undefined ? undefined : expectedAreOf(set!, candidates, await readExpectedAre(o.cvDir, set!, set!.spreadMethod));
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
    else csv = tableCsv(columns);
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
  return {
    shard: null,
    json: {
      out: out ?? null,
      validation: validationPath ?? null,
      objective: `${objective.direction}-${objective.name}`,
      pareto: pareto.map((c) => `${c.direction}-${c.name}`),
      precision,
      level,
      runs: summaries,
      metrics: validation ?? null,
    },
    ...(csv !== undefined ? { csv } : {}),
  };
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toPrecision(4) : "NA";
}
