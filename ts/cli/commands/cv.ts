// `varmap cv <data> [column flags] --methods lr,lsp,delaunay,mars --p 0.1:0.9:0.1 --reps 200 --seed S --out dir`:
// cross-validation on the worker pool over generated divisions (or given ones: --splits FILE [--predictions
// out.csv], one row per test point and split: p,rep,index,prediction, factor columns first when the data has
// factors). Prints the mean ARE per training fraction (per map for given splits, the Table 2 averaged over maps
// for generated ones); --out keeps are.csv, table2.md, table2.csv and the resumable result store.
// The flags become CvOptions; the verb is ts/verbs/cv.ts.
import type { Command } from "commander";
import { parseFractions } from "../../cv/divisions.js";
import { describeMethods } from "../../predict/registry.js";
import { BEST_METHODS, DEFAULTS_HELP, PAPER_METHODS } from "../../verbs/defaults.js";
import { runCv, type CvOptions, type CvSummary } from "../../verbs/cv.js";
import { addDataOptions, addRunOptions } from "../options.js";
import { METHOD_FLAGS } from "../method-options.js";
import { dataOptionsFromFlags, hyperparameters, parseMethods, parseSeedText, positiveInt, runOptionsFromFlags, withDefaults, type Flags } from "../flags.js";
import { addDistributionOptions, cvDistributionAction } from "../distribution.js";
import { printJobEnd } from "./refit.js";

export function register(program: Command): void {
  addDistributionOptions(
    registerCvOptions(
      program
        .command("cv")
        .description("cross-validation (generated or given divisions) on all cores: ARE per map, method and p; the Table 2")
        .argument("<data>", "runs table (.csv, .tsv or .parquet), or a map table with --map"),
    ),
    "cv",
  ).action(async (file: string, opts: Flags) => {
    if (opts.target === "distribution") return void (await cvDistributionAction(file, opts));
    printCv(await runCv(file, cvOptionsFromFlags(opts)), opts);
  });
}

/** Options of the map verbs on the engine (cv, refit): data and run flags, --no-resume. */
export function addBulkOptions(cmd: Command): Command {
  return addRunOptions(addDataOptions(cmd)).option("--no-resume", "discard the results already in --out and start over");
}

export function registerCvOptions(cmd: Command): Command {
  addBulkOptions(cmd)
    .option("--methods <list>", `predictors, comma-separated: ${describeMethods()}; default ${BEST_METHODS} (--paper: ${PAPER_METHODS})`)
    .option("--method <name>", "one predictor (the same as --methods with one name)")
    .option("--p <range>", "training fractions of the generated divisions: start:stop:step or a list", "0.1:0.9:0.1")
    .option("--reps <n>", "generated divisions per training fraction", "200")
    .option("--splits <file>", 'given divisions instead: JSON {"n", "splits": [{"p", "rep", "train": [id…]}]} (ids = --id values, else row positions)')
    .option("--predictions <path>", "with --splits: every test point's prediction, p,rep,index,prediction (.csv, .tsv, .json or .parquet)")
    .option("--interval <level>", "also the coverage of conformal intervals of this level per method and p (coverage.csv; 5 inner folds per division)")
    .option("--leave-out <cols>", "group-out divisions instead: hold out each distinct combination of these inputs/factors in turn (are.csv per group)")
    .option("--group-folds <k>", "with --leave-out: k folds of whole groups instead of one division per group")
    .option("--paper", `the source papers' setup instead of the best defaults (${DEFAULTS_HELP})`);
  for (const f of METHOD_FLAGS) cmd.option(f.flag, f.description);
  return cmd;
}

/** cv's flags as CvOptions (usage errors before the data is read). */
export function cvOptionsFromFlags(given: Flags): CvOptions {
  const opts = withDefaults(given, "cv");
  const byDefault = given.methods === undefined && given.method === undefined && !given.paper;
  const methods = parseMethods((opts.methods ?? opts.method) as string | undefined);
  const splits = typeof opts.splits === "string" ? opts.splits : undefined;
  const p = splits ? undefined : parseFractions(String(opts.p ?? "0.1:0.9:0.1"));
  const reps = positiveInt("--reps", opts.reps, 200);
  const methodOptions = hyperparameters(opts, methods);
  const seed = parseSeedText(opts.seed);
  const leaveOut = typeof opts.leaveOut === "string" ? opts.leaveOut.split(",").map((c) => c.trim()) : undefined;
  const groupFolds = opts.groupFolds === undefined ? undefined : positiveInt("--group-folds", opts.groupFolds, 0);
  return {
    data: dataOptionsFromFlags(opts),
    ...(byDefault ? {} : { methods }),
    methodOptions,
    ...(p ? { p } : {}),
    reps,
    ...(splits !== undefined ? { splits } : {}),
    ...(typeof opts.predictions === "string" ? { predictions: opts.predictions } : {}),
    ...(opts.interval !== undefined ? { interval: Number(opts.interval) } : {}),
    ...(leaveOut ? { leaveOut } : {}),
    ...(groupFolds !== undefined ? { groupFolds } : {}),
    seed,
    ...(typeof opts.out === "string" ? { out: opts.out } : {}),
    run: runOptionsFromFlags(opts),
  };
}

/** The Table 2 (or the ARE per p of given splits), or --json (not on `stdout` false); then where the outputs are and the run's warnings. */
export function printCv(s: CvSummary, opts: Flags, stdout = true): void {
  const { text, ...json } = s;
  if (s.shard !== null) {
    if (opts.json && stdout) process.stdout.write(JSON.stringify(json, null, 2) + "\n");
    return;
  }
  if (stdout) process.stdout.write(opts.json ? JSON.stringify(json, null, 2) + "\n" : text);
  if (opts.out && !opts.quiet) process.stderr.write(`varmap: outputs in ${s.out}: ${s.files.join(", ")}\n`);
  printJobEnd(s, opts);
}
