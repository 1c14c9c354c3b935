// `varmap plan`: flags → PlanOptions, runPlan (ts/verbs/plan.ts), the summary on stderr (or --json on stdout).
import { Option, type Command } from "commander";
import { VarmapError } from "../../errors.js";
import { dataOptionsFromFlags } from "../flags.js";
import { splitList } from "../../data/option-values.js";
import { tableCsv } from "../../data/write.js";
import type { StatName } from "../../data/types.js";
import { DEFAULT_PLAN_OPTIONS as D, runPlan, type PlanOptions } from "../../verbs/plan.js";
import { uncertaintySourceNames } from "../../plan/uncertainty.js";
import { resultReaderKinds } from "../../plan/results.js";

type Opts = Record<string, unknown>;

export function register(program: Command): void {
  program
    .command("plan")
    .description("experiment design: the next batch of runs (which configurations, how many runs, why), a replayed campaign, or a campaign run here")
    .option("--grid <spec>", 'the configuration space: "col=a:b:step;col=v1,v2,…" (factors: non-numeric values or --factors)')
    .option("--at <path>", "the configuration space: candidate configurations (.csv or .parquet), one per row")
    .option("--runs <path>", "runs measured so far (a runs table); with --exec the campaign's runs file (CSV, created when absent)")
    .option("--preset <name>", "column roles: moana | iozone")
    .option("--factors <cols>", "factor columns, comma-separated")
    .option("--inputs <cols>", "numeric input columns, comma-separated")
    .option("--response <col>", "response column of the runs file (default: the preset's, else result)")
    .option("--run <col>", "run index column (default: the preset's, else run)")
    .option("--where <sql>", "with --replay: SQL predicate selecting rows")
    .option("--log-inputs <cols>", "inputs to log2 before normalizing (default: power-of-two inputs spanning more than 8×; none)")
    .addOption(
      new Option("--target <stat>", "statistic of each configuration the map is of")
        .choices(["sd", "var", "mean", "cv", "q10", "q90", "ci90"])
        .default(D.target),
    )
    .option("--precision <eps>", "stop a configuration when its statistic's CI has this relative half-width (e.g. 0.1)")
    .option("--level <1-alpha>", "confidence level of that interval", String(D.level))
    .addOption(
      new Option("--against <ref>", "precision of the statistic at --max-runs runs (cap: finite-population corrected) or of its true value")
        .choices(["cap", "true"])
        .default(D.against),
    )
    .option("--map-error <e>", "stop when the predicted map error (mean relative error over the space) is at most e")
    .option("--budget-runs <n>", "total runs the campaign may spend (measured runs included)")
    .option("--budget-seconds <s>", "total seconds, with --seconds-per-run")
    .option("--seconds-per-run <s>", "seconds one run takes")
    .option("--time-column <col>", "with --budget-seconds: the --runs file's column of seconds each run took (a configuration's cost per run)")
    .option("--batch-runs <n>", "runs per batch (default: 10 % of the configurations × --min-runs)")
    .option("--min-runs <n>", "runs a new configuration gets, and the fewest a configuration stops at", String(D.minRuns))
    .option("--max-runs <n>", "most runs a configuration gets", String(D.maxRuns))
    .option("--method <name>", "predictor of the map", D.method)
    .addOption(new Option("--uncertainty <source>", "where the model's uncertainty comes from").choices(uncertaintySourceNames()).default(D.uncertainty))
    .addOption(
      new Option("--gain <kind>", "a new configuration's gain: its predictive variance (uncertainty) or that less its runs' sampling variance (net)")
        .choices(["uncertainty", "net"])
        .default(D.gain),
    )
    .option("--fill-first <p>", "plan space-filling batches until this share of the configurations is measured", String(D.fillFirst))
    .option("--seed <s>", "seed of the designs and replays", D.seed)
    .option("--replay <runs>", "simulate a campaign on this complete runs table and write learning curves (adaptive, random, space-filling)")
    .option("--reps <n>", "with --replay: replays to average", String(D.reps))
    .option("--replay-fraction <p>", "with --replay: stop each replay at this share of the dataset's runs", String(D.replayFraction))
    .option("--exec <template>", "run the campaign here: the command of one run, with {column}, {run} and {seed} placeholders")
    .option(
      "--result <reader>",
      `with --exec: how to read a run's number (${resultReaderKinds()
        .map((r) => (r.kind === "json" ? "json:PATH" : r.kind))
        .join(", ")})`,
      D.result,
    )
    .option("--dry-run", "with --exec: print the next batch's commands, run nothing")
    .option(
      "--slurm-dir <dir>",
      "with --exec: write each batch as a Slurm job array (one task per configuration) in DIR; submit it, then run the same command again to continue",
    )
    .option("--out <path>", "the batch (or, with --replay, the learning curves): .csv, .tsv, .json or .parquet; default CSV on stdout")
    .option("--json", "print the summary as JSON on stdout")
    .option("--quiet", "no progress on stderr")
    .action(async (opts: Opts) => {
      await planAction(opts);
    });
}

function number(opts: Opts, key: string, flag: string, integer = false): number | undefined {
  const v = opts[key];
  if (v === undefined) return undefined;
  const x = Number(v);
  if (String(v).trim() === "" || !Number.isFinite(x) || (integer && !Number.isInteger(x)))
    throw new VarmapError("E_USAGE", `${flag} ${String(v)} is not ${integer ? "an integer" : "a number"}`, {
      remedy: `give ${flag} a ${integer ? "whole " : ""}number`,
    });
  return x;
}

async function planAction(opts: Opts): Promise<void> {
  const note = (s: string) => opts.quiet || process.stderr.write(`varmap: ${s}\n`);
  const load = dataOptionsFromFlags({ ...opts, logInputs: undefined });
  const logInputs = typeof opts.logInputs === "string" ? (opts.logInputs === "none" ? [] : splitList(opts.logInputs)) : undefined;
  const str = (k: string) => (opts[k] === undefined ? undefined : String(opts[k]));
  const options: PlanOptions = {
    grid: str("grid"),
    at: str("at"),
    runs: str("runs"),
    load,
    target: String(opts.target) as StatName,
    precision: number(opts, "precision", "--precision"),
    level: number(opts, "level", "--level")!,
    against: String(opts.against) as PlanOptions["against"],
    mapError: number(opts, "mapError", "--map-error"),
    budgetRuns: number(opts, "budgetRuns", "--budget-runs", true),
    budgetSeconds: number(opts, "budgetSeconds", "--budget-seconds"),
    secondsPerRun: number(opts, "secondsPerRun", "--seconds-per-run"),
    timeColumn: str("timeColumn"),
    batchRuns: number(opts, "batchRuns", "--batch-runs", true),
    minRuns: number(opts, "minRuns", "--min-runs", true)!,
    maxRuns: number(opts, "maxRuns", "--max-runs", true)!,
    method: String(opts.method),
    uncertainty: String(opts.uncertainty),
    gain: String(opts.gain) as PlanOptions["gain"],
    fillFirst: number(opts, "fillFirst", "--fill-first"),
    seed: String(opts.seed),
    logInputs,
    out: str("out"),
    replay: str("replay"),
    reps: number(opts, "reps", "--reps", true)!,
    replayFraction: number(opts, "replayFraction", "--replay-fraction"),
    exec: str("exec"),
    result: String(opts.result),
    dryRun: Boolean(opts.dryRun),
    slurmDir: str("slurmDir"),
    note,
  };
  if (opts.json && !options.out && options.exec === undefined)
    throw new VarmapError("E_USAGE", "--json needs --out", { remedy: "the table and the JSON summary cannot share stdout: give --out plan.csv" });
  const s = await runPlan(options);
  if (s.mode === "plan") {
    if (s.commands) for (const c of s.commands) process.stdout.write(`${c}\n`);
    else if (!s.out) process.stdout.write(tableCsv(s.batch));
    note(
      `${s.firstBatch ? "first (space-filling) batch" : "next batch"}: ${s.batchConfigurations} configuration(s), ${s.batchRuns} run(s); ${s.seconds ? `${s.runsSpent} run(s) spent` : `budget ${s.runsSpent} spent of ${s.budgetRuns}, ${s.budgetLeft} left`}; ${s.measured} of ${s.configurations} configurations measured, ${s.converged} converged, ${s.failed} failed; predicted map error ${pct(s.predictedMapError)}${s.stop ? `; stop: ${s.stop}` : ""}`,
    );
    if (s.seconds)
      note(
        `time budget: ${s.seconds.spent.toFixed(1)} s spent of ${s.seconds.budget} s, ${s.seconds.left.toFixed(1)} s left; this batch about ${s.seconds.batch.toFixed(1)} s`,
      );
    if (s.out) note(`wrote ${s.out}`);
  } else if (s.mode === "replay") {
    for (const h of s.halfBudget)
      note(
        `random order at ${pct(h.fraction)} of the runs: ARE ${h.random.toFixed(4)}; adaptive at half those runs: ${h.adaptiveAtHalf.toFixed(4)} ${h.met ? "(met)" : "(not met)"}`,
      );
    note(`adaptive against the best baseline: largest excess ${s.worstExcess.toFixed(4)} (≤ 0: never worse)`);
    if (s.stopping)
      note(
        `sequential stopping alone: ${s.stopping.runs} of ${s.stopping.fullRuns} runs (${pct(s.stopping.saved)} fewer), statistic within the precision of the full-data one for ${pct(s.stopping.withinPrecision)} of configurations`,
      );
    if (!s.out && !opts.json) {
      const pts = s.curve;
      process.stdout.write(
        tableCsv([
          { name: "strategy", values: pts.map((p) => p.strategy) },
          { name: "runs", values: pts.map((p) => p.runs) },
          { name: "fraction", values: pts.map((p) => p.fraction) },
          { name: "are", values: pts.map((p) => p.are) },
          { name: "measured", values: pts.map((p) => p.measured) },
        ]),
      );
    }
  } else {
    note(
      `campaign: ${s.runsSpent} run(s) in ${s.runsFile} (${s.runsExecuted} executed now in ${s.batches} batch(es)), budget ${s.budgetRuns}; ${s.failedAttempts} failed attempt(s), ${s.failedConfigurations} configuration(s) failed; predicted map error ${pct(s.predictedMapError)}; stop: ${s.stop}`,
    );
  }
  if (opts.json)
    process.stdout.write(
      JSON.stringify(s.mode === "plan" ? { ...s, batch: undefined } : s, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v)) + "\n",
    );
}

function pct(x: number | null): string {
  return x === null || !Number.isFinite(x) ? "unknown" : `${(100 * x).toFixed(1)}%`;
}
