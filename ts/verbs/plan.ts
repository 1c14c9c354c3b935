// `varmap plan` (issue 43): what to measure next and when to stop. Three modes over one planner (ts/plan/):
//   plan (default): the next batch from the runs measured so far (--runs, optional), written to --out;
//   --replay RUNS:  a whole campaign simulated on a complete dataset, learning curves against baselines;
//   --exec TEMPLATE: the campaign run on this machine, each run appended to the --runs file (crash-safe).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../slurm/script.js";
import { VarmapError } from "../errors.js";
import { loadDataset, resolveRoles, type LoadOptions } from "../data/load.js";
import { readRows } from "../whatif/candidates.js";
import { counterRng } from "../data/random.js";
import { tableFormat, writeTable, writeTextAtomic, type Column } from "../data/write.js";
import type { StatName } from "../data/types.js";
import { presetOf } from "../data/presets.js";
import { defaultLogInputs, describeConfiguration, gridSpace, rowsSpace, tableSpace, configKey, type ConfigSpace } from "../plan/space.js";
import { costPerRun, firstBatchMinimum, planStep, type PlanStep, type PlanStepOptions } from "../plan/planner.js";
import { checkRule, type PrecisionAgainst, type StoppingRule } from "../plan/stopping.js";
import { uncertaintySource } from "../plan/uncertainty.js";
import { replay, type CurvePoint, type StoppingReplay } from "../plan/replay.js";
import { appendJournal, appendLines, readJournal, readRunsFile, repairTail, runsHeader, runsLine, spaceDigest, type JournalEntry } from "../plan/campaign.js";
import { resultReader, ResultUnreadable, type CommandOutput } from "../plan/results.js";
import { csvQuote } from "../data/atomic.js";
import { createPredictor } from "../predict/registry.js";

export interface PlanOptions {
  /** The space: a grid spec, or a candidates table (one of them; replay takes the dataset's configurations). */
  grid?: string;
  at?: string;
  /** Runs measured so far (plan), or the campaign's runs file (exec, created when absent). */
  runs?: string;
  /** Column roles (preset, factors, inputs, response, run, where) of the runs / candidates / replay table. */
  load: LoadOptions;
  target: StatName;
  precision?: number;
  level: number;
  against: PrecisionAgainst;
  /** Target predicted map error (relative). */
  mapError?: number;
  budgetRuns?: number;
  budgetSeconds?: number;
  secondsPerRun?: number;
  /** With budgetSeconds: the runs file's column of seconds each run took (each configuration's cost per run). */
  timeColumn?: string;
  batchRuns?: number;
  minRuns: number;
  maxRuns: number;
  method: string;
  uncertainty: string;
  /** Gain of a new configuration: its predictive variance ("uncertainty", default) or that less its sampling variance ("net"). */
  gain?: "uncertainty" | "net";
  /** Space-filling batches until this share of the configurations is measured (default 0: only the first). */
  fillFirst?: number;
  seed: string;
  /** Inputs to log2; default: power-of-two inputs spanning more than 8×. */
  logInputs?: string[];
  /** Batch file (plan, exec --dry-run), or the learning curves (replay). */
  out?: string;
  replay?: string;
  reps: number;
  /** Replay: stop at this share of the dataset's runs (default 1). */
  replayFraction?: number;
  exec?: string;
  /** With exec: run each batch as a Slurm job array written to this directory (submit it, then rerun to continue). */
  slurmDir?: string;
  result: string;
  dryRun: boolean;
  /** Progress lines (stderr in the CLI). */
  note?: (msg: string) => void;
}

export interface PlanBatchSummary {
  mode: "plan";
  out: string | null;
  configurations: number;
  maps: number;
  batchConfigurations: number;
  batchRuns: number;
  runsSpent: number;
  budgetRuns: number;
  budgetLeft: number;
  measured: number;
  converged: number;
  failed: number;
  predictedMapError: number | null;
  firstBatch: boolean;
  stop: string | null;
  /** The batch table (the columns --out receives). */
  batch: Column[];
  /** --dry-run with --exec: the commands of the batch. */
  commands?: string[];
  /** With --time-column: seconds spent (the measured runs' times), the budget, and the batch's expected seconds. */
  seconds?: { spent: number; budget: number; left: number; batch: number };
}

export interface PlanReplaySummary {
  mode: "replay";
  out: string | null;
  configurations: number;
  totalRuns: number;
  reps: number;
  curve: CurvePoint[];
  /** For each random-order budget B in 10–60 % of the runs: adaptive ARE at B/2 against random ARE at B. */
  halfBudget: { fraction: number; random: number; adaptiveAtHalf: number; met: boolean; allMeasured: boolean }[];
  /** Largest excess of the adaptive ARE over the best baseline's at any budget both reach (≤ 0: never worse). */
  worstExcess: number;
  stopping: StoppingReplay | null;
}

export interface PlanExecSummary {
  mode: "exec";
  runsFile: string;
  runsSpent: number;
  budgetRuns: number;
  batches: number;
  runsExecuted: number;
  failedAttempts: number;
  failedConfigurations: number;
  predictedMapError: number | null;
  stop: string;
}

export type PlanSummary = PlanBatchSummary | PlanReplaySummary | PlanExecSummary;

const usage = (message: string, remedy: string) => new VarmapError("E_USAGE", message, { remedy });

function checkOptions(o: PlanOptions): StoppingRule {
  const modes = [o.replay !== undefined, o.exec !== undefined].filter(Boolean).length;
  if (modes > 1) throw usage("--replay and --exec both given", "simulate a campaign (--replay) or run one (--exec), not both");
  if (o.replay !== undefined) {
    if (o.grid !== undefined || o.at !== undefined) throw usage("--replay takes its space from the dataset", "drop --grid / --at");
    if (o.runs !== undefined) throw usage("--runs does not apply with --replay", "the replay reveals the dataset's runs itself");
  } else {
    if ((o.grid === undefined) === (o.at === undefined))
      throw usage("give the configuration space once: --grid SPEC or --at FILE", 'e.g. --grid "threads=1,2,4,8;rsize_kb=4,64,1024"');
    if (o.budgetRuns === undefined && o.budgetSeconds === undefined)
      throw usage("a budget is required", "give --budget-runs N, or --budget-seconds S with --seconds-per-run");
  }
  if (o.exec !== undefined && o.runs === undefined)
    throw usage("--exec needs --runs FILE", "name the campaign's runs file (created when absent), e.g. --runs campaign.csv");
  if (o.exec !== undefined && o.runs && !/\.csv$/i.test(o.runs)) throw usage(`--runs ${o.runs}: a campaign's runs file is CSV`, "give --runs campaign.csv");
  if (o.slurmDir !== undefined && (o.exec === undefined || o.dryRun))
    throw usage("--slurm-dir applies to --exec (without --dry-run)", "add --exec TEMPLATE --runs FILE");
  if (o.dryRun && o.exec === undefined) throw usage("--dry-run applies to --exec", "add --exec TEMPLATE, or drop --dry-run");
  if (o.budgetRuns !== undefined && !(Number.isInteger(o.budgetRuns) && o.budgetRuns >= 1))
    throw usage(`--budget-runs ${o.budgetRuns} is not valid`, "give a positive integer");
  if (o.budgetSeconds !== undefined) {
    if (o.budgetRuns !== undefined) throw usage("--budget-runs and --budget-seconds both given", "give one budget");
    if (!(o.budgetSeconds > 0)) throw usage(`--budget-seconds ${o.budgetSeconds} is not valid`, "give a positive number of seconds");
    if (o.secondsPerRun === undefined && o.timeColumn === undefined)
      throw usage(
        "--budget-seconds needs --seconds-per-run or --time-column",
        "give the seconds one run takes (--seconds-per-run 30), or the runs file's time column",
      );
    if (o.secondsPerRun !== undefined && o.timeColumn !== undefined)
      throw usage("--seconds-per-run and --time-column both given", "give one source of run times");
  }
  if (o.timeColumn !== undefined) {
    if (o.budgetSeconds === undefined) throw usage("--time-column applies to --budget-seconds", "add --budget-seconds S, or drop --time-column");
    if (o.replay !== undefined || o.exec !== undefined)
      throw usage("--time-column applies to planning the next batch", "drop --replay / --exec, or give --seconds-per-run");
    if (o.runs === undefined)
      throw usage(
        "--time-column needs --runs: the costs come from the measured runs",
        "plan the first batch with --seconds-per-run, then give --runs with its times",
      );
  }
  if (o.secondsPerRun !== undefined && !(o.secondsPerRun > 0)) throw usage(`--seconds-per-run ${o.secondsPerRun} is not valid`, "give a positive number");
  if (o.batchRuns !== undefined && !(Number.isInteger(o.batchRuns) && o.batchRuns >= 1))
    throw usage(`--batch-runs ${o.batchRuns} is not valid`, "give a positive integer");
  if (o.mapError !== undefined && !(o.mapError > 0)) throw usage(`--map-error ${o.mapError} is not valid`, "give a relative error, e.g. --map-error 0.1");
  if (o.fillFirst !== undefined && !(o.fillFirst >= 0 && o.fillFirst <= 1)) throw usage(`--fill-first ${o.fillFirst} is not valid`, "give a share in [0, 1]");
  if (!(Number.isInteger(o.reps) && o.reps >= 1)) throw usage(`--reps ${o.reps} is not valid`, "give a positive integer");
  if (o.replayFraction !== undefined && !(o.replayFraction > 0 && o.replayFraction <= 1))
    throw usage(`--replay-fraction ${o.replayFraction} is not valid`, "give a share in (0, 1]");
  if (!["sd", "var", "mean", "cv", "q10", "q90", "ci90"].includes(o.target))
    throw usage(`--target ${o.target} is not a statistic`, "use sd, var, mean, cv, q10, q90 or ci90");
  createPredictor(o.method, {}); // unknown method: a coded error now
  uncertaintySource(o.uncertainty);
  if (o.out) tableFormat(o.out, "--out");
  if (o.exec !== undefined) resultReader(o.result);
  const rule: StoppingRule = { stat: o.target, precision: o.precision, level: o.level, minRuns: o.minRuns, maxRuns: o.maxRuns, against: o.against };
  checkRule(rule);
  return rule;
}

/** Factor columns of a grid: those the roles name, else the columns whose values are not all numbers. */
function gridFactors(spec: string, load: LoadOptions): string[] {
  const named = load.factors ?? (load.preset ? presetOf(load.preset).roles.factors : undefined);
  if (named) return named;
  return spec
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p.includes("="))
    .filter((p) => {
      const v = p.slice(p.indexOf("=") + 1).trim();
      if (v.includes(":")) return false;
      return v.split(",").some((s) => s.trim() !== "" && !Number.isFinite(Number(s)));
    })
    .map((p) => p.slice(0, p.indexOf("=")).trim());
}

async function buildSpace(o: PlanOptions): Promise<ConfigSpace> {
  let space: ConfigSpace;
  if (o.grid !== undefined) {
    const factors = gridFactors(o.grid, o.load);
    space = gridSpace(o.grid, factors, o.logInputs ?? []);
    if (o.logInputs === undefined) space = gridSpace(o.grid, factors, defaultLogInputs(space.inputs, space.X));
  } else {
    const rows = await readRows(o.at!);
    const roles = o.load.preset || o.load.inputs ? resolveRoles({ ...o.load, response: o.load.response ?? "_" }) : undefined;
    const cols = rows.length ? Object.keys(rows[0]) : [];
    const factors = roles?.factors ?? cols.filter((c) => rows.some((r) => !Number.isFinite(Number(r[c]))));
    const inputs = roles?.inputs ?? cols.filter((c) => !factors.includes(c));
    space = rowsSpace(rows, factors, inputs, o.logInputs ?? [], o.at!);
    if (o.logInputs === undefined) space = rowsSpace(rows, factors, inputs, defaultLogInputs(space.inputs, space.X), o.at!);
  }
  return space;
}

function runsColumns(load: LoadOptions): { run: string; response: string } {
  const preset = load.preset ? presetOf(load.preset).roles : undefined;
  return { run: load.run ?? preset?.run ?? "run", response: load.response ?? preset?.response ?? "result" };
}

function stepOptions(o: PlanOptions, rule: StoppingRule, space: ConfigSpace, budgetRuns: number): PlanStepOptions {
  return {
    rule,
    budgetRuns,
    batchRuns: o.batchRuns ?? Math.max(rule.minRuns, Math.ceil((space.count * rule.minRuns) / 10)),
    mapError: o.mapError,
    source: uncertaintySource(o.uncertainty),
    method: o.method,
    seed: o.seed,
    gain: o.gain,
    fillFirst: o.fillFirst,
  };
}

function batchColumns(space: ConfigSpace, s: PlanStep): Column[] {
  const rows = s.batch;
  const d = space.inputs.length;
  const nums = (f: (r: (typeof rows)[number]) => number) => rows.map((r) => (Number.isFinite(f(r)) ? f(r) : null));
  return [
    ...space.factors.map((f, k) => ({ name: f, values: rows.map((r) => space.factorValues[k][r.config]) })),
    ...space.inputs.map((x, j) => ({ name: x, values: rows.map((r) => space.X[r.config * d + j]) })),
    { name: "runs", values: rows.map((r) => r.runs), type: "int" as const },
    { name: "runs_so_far", values: rows.map((r) => s.estimate.n[r.config]), type: "int" as const },
    { name: "reason", values: rows.map((r) => r.reason) },
    { name: "expected_gain", values: nums((r) => r.expectedGain) },
    { name: "predicted", values: nums((r) => s.predicted[r.config]) },
    { name: "uncertainty", values: nums((r) => s.uncertainty[r.config]) },
  ];
}

/** The command of one run: {column} placeholders of the space, {run} (index within its configuration), {seed}. */
export function parseTemplate(template: string, space: ConfigSpace): (c: number, run: number, seed: string) => string {
  const names = [...template.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]);
  const cols = [...space.factors, ...space.inputs];
  for (const n of names)
    if (!cols.includes(n) && n !== "run" && n !== "seed")
      throw new VarmapError("E_PLAN_TEMPLATE", `the --exec template names {${n}}, which is not a column of the space (${cols.join(", ")})`, {
        remedy: "use {column} placeholders of the space's columns, {run} or {seed}",
      });
  if (!names.some((n) => cols.includes(n)))
    throw new VarmapError("E_PLAN_TEMPLATE", "the --exec template names no column of the space: every configuration would run the same command", {
      remedy: `put placeholders such as {${cols[0]}} in the template`,
    });
  const d = space.inputs.length;
  return (c, run, seed) =>
    template.replace(/\{([^{}]+)\}/g, (_, n: string) => {
      if (n === "run") return String(run);
      if (n === "seed")
        return String(
          counterRng(
            seed,
            configKey(
              space.factors.map((_, f) => space.factorValues[f][c]),
              space.X.subarray(c * d, c * d + d),
            ),
            run,
          ).uint32(),
        );
      const f = space.factors.indexOf(n);
      return f >= 0 ? space.factorValues[f][c] : String(space.X[c * d + space.inputs.indexOf(n)]);
    });
}

/** The settings a plan takes when not given (the CLI's flag defaults are these). */
export const DEFAULT_PLAN_OPTIONS = {
  target: "sd",
  level: 0.9,
  against: "cap",
  minRuns: 10,
  maxRuns: 40,
  method: "rbf",
  uncertainty: "committee",
  gain: "uncertainty",
  fillFirst: 0,
  seed: "1",
  reps: 10,
  replayFraction: 1,
  result: "stdout",
  dryRun: false,
} as const satisfies Partial<PlanOptions>;

/** PlanOptions with every defaulted setting optional: what the library's caller gives. */
export type PlanInput = Omit<PlanOptions, keyof typeof DEFAULT_PLAN_OPTIONS> & Partial<Pick<PlanOptions, keyof typeof DEFAULT_PLAN_OPTIONS>>;

export async function runPlan(input: PlanInput): Promise<PlanSummary> {
  const o = { ...DEFAULT_PLAN_OPTIONS, ...withoutUndefined(input) } as PlanOptions;
  const rule = checkOptions(o);
  if (o.replay !== undefined) return runReplay(o, rule);
  const space = await buildSpace(o);
  let budgetRuns = o.budgetRuns ?? (o.secondsPerRun !== undefined ? Math.floor(o.budgetSeconds! / o.secondsPerRun) : Number.MAX_SAFE_INTEGER);
  const minimum = firstBatchMinimum(space, rule.minRuns);
  const cols = runsColumns(o.load);
  const command = o.exec !== undefined ? parseTemplate(o.exec, space) : undefined;
  let runs: number[][];
  if (o.runs !== undefined && existsSync(o.runs)) runs = await readRunsFile(space, o.runs, cols, o.exec !== undefined);
  else if (o.runs !== undefined && o.exec === undefined) missingRuns(o.runs);
  else runs = Array.from({ length: space.count }, () => []);
  let cost: PlanStepOptions["cost"];
  if (o.timeColumn !== undefined) {
    const times = await readRunsFile(space, o.runs!, { run: cols.run, response: o.timeColumn });
    const perRun = costPerRun(space, times);
    const spentSeconds = times.flat().reduce((a, t) => a + (Number.isFinite(t) ? t : 0), 0);
    if (!Number.isFinite(spentSeconds) || times.every((t) => t.length === 0))
      throw new VarmapError("E_PLAN_SPACE_MISMATCH", `the runs file's time column '${o.timeColumn}' holds no time`, {
        location: { file: o.runs!, column: o.timeColumn },
        remedy: "give the column of seconds each run took",
      });
    cost = { perRun, budgetSeconds: o.budgetSeconds!, spentSeconds };
    // The run budget is only a cap: what the seconds left buy at the cheapest configuration's cost.
    const cheapest = Math.min(...perRun.filter((x) => x > 0));
    const spent = runs.reduce((a, r) => a + r.length, 0);
    budgetRuns = spent + Math.max(0, Math.floor((o.budgetSeconds! - spentSeconds) / (Number.isFinite(cheapest) ? cheapest : 1)));
  }
  if (runs.every((r) => r.length === 0) && budgetRuns < minimum)
    throw new VarmapError(
      "E_PLAN_BUDGET",
      `the budget of ${budgetRuns} runs is smaller than the first batch: ${minimum} runs (d + 2 = ${space.inputs.length + 2} configurations per map × --min-runs ${rule.minRuns})`,
      {
        remedy: `give --budget-runs ${minimum} or more, lower --min-runs, or narrow the space`,
      },
    );
  if (o.exec !== undefined && !o.dryRun) return execCampaign(o, rule, space, budgetRuns, command!, cols);
  const failed = new Uint8Array(space.count);
  if (o.exec !== undefined && o.runs !== undefined)
    for (const e of readJournal(`${o.runs}.journal`)) if (e.type === "failed-config") markFailed(space, failed, e.key);
  const s = planStep(space, runs, failed, o.exec !== undefined && o.runs ? readJournal(`${o.runs}.journal`).filter((e) => e.type === "batch").length : 0, {
    ...stepOptions(o, rule, space, budgetRuns),
    ...(cost ? { cost } : {}),
  });
  const batch = batchColumns(space, s);
  const batchSeconds = cost ? s.batch.reduce((a, r) => a + r.runs * cost.perRun[r.config], 0) : NaN;
  if (cost) batch.push({ name: "seconds", values: s.batch.map((r) => r.runs * cost.perRun[r.config]) });
  if (o.out) await writeTable(o.out, batch);
  const commands = command
    ? s.batch.flatMap((r) => Array.from({ length: r.runs }, (_, i) => command(r.config, s.estimate.n[r.config] + i + 1, o.seed)))
    : undefined;
  return {
    mode: "plan",
    out: o.out ?? null,
    configurations: space.count,
    maps: space.maps.length,
    batchConfigurations: s.batch.length,
    batchRuns: s.batch.reduce((a, r) => a + r.runs, 0),
    runsSpent: s.runsSpent,
    budgetRuns,
    budgetLeft: s.budgetLeft,
    measured: s.measured,
    converged: s.converged,
    failed: s.failed,
    predictedMapError: Number.isFinite(s.predictedMapError) ? s.predictedMapError : null,
    firstBatch: s.firstBatch,
    stop: s.stop ?? null,
    batch,
    ...(commands ? { commands } : {}),
    ...(cost
      ? {
          seconds: {
            spent: cost.spentSeconds,
            budget: cost.budgetSeconds,
            left: Math.max(0, cost.budgetSeconds - cost.spentSeconds),
            batch: batchSeconds,
          },
        }
      : {}),
  };
}

function missingRuns(path: string): never {
  throw new VarmapError("E_READ", `the runs file ${path} does not exist`, {
    location: { file: path },
    remedy: "give the runs measured so far, or drop --runs for an empty campaign",
  });
}

function markFailed(space: ConfigSpace, failed: Uint8Array, key: string): void {
  const c = space.index.get(key);
  if (c !== undefined) failed[c] = 1;
}

async function runReplay(o: PlanOptions, rule: StoppingRule): Promise<PlanReplaySummary> {
  const ds = await loadDataset(o.replay!, { ...o.load, stat: o.target, logInputs: undefined, logResponse: false });
  const t = ds.table;
  const space = tableSpace(t, o.logInputs ?? defaultLogInputs(t.roles.inputs, t.inputs));
  const totalRuns = t.offsets[t.count];
  const budget = Math.min(totalRuns, o.budgetRuns ?? (o.budgetSeconds !== undefined ? Math.floor(o.budgetSeconds / o.secondsPerRun!) : totalRuns));
  const maxSpent = Math.min(budget, Math.round((o.replayFraction ?? 1) * totalRuns));
  const base = stepOptions(o, rule, space, maxSpent);
  const r = replay(space, t, {
    ...base,
    reps: o.reps,
    maxSpent,
    progress: (rep, spent, are) => o.note?.(`replay ${rep + 1}/${o.reps}: ${spent} runs, ARE ${are.toFixed(4)} on the unmeasured configurations`),
  });
  if (o.out)
    await writeTable(o.out, [
      { name: "strategy", values: r.curve.map((p) => p.strategy) },
      { name: "runs", values: r.curve.map((p) => p.runs), type: "int" },
      { name: "fraction", values: r.curve.map((p) => p.fraction) },
      { name: "are", values: r.curve.map((p) => p.are) },
      { name: "measured", values: r.curve.map((p) => p.measured) },
    ]);
  return {
    mode: "replay",
    out: o.out ?? null,
    configurations: t.count,
    totalRuns,
    reps: o.reps,
    curve: r.curve,
    ...compareCurves(r.curve, totalRuns),
    stopping: r.stopping ?? null,
  };
}

/** The replay figures: adaptive at B/2 against random at B (10–60 %), and adaptive against the best baseline. */
export function compareCurves(curve: CurvePoint[], totalRuns: number): Pick<PlanReplaySummary, "halfBudget" | "worstExcess"> {
  const of = (s: CurvePoint["strategy"]) => curve.filter((p) => p.strategy === s);
  const adaptive = of("adaptive");
  const at = (pts: CurvePoint[], runs: number): number => {
    for (let i = 0; i < pts.length; i++) {
      if (Math.abs(pts[i].runs - runs) < 1e-9) return pts[i].are;
      if (i > 0 && pts[i - 1].runs < runs && runs < pts[i].runs) {
        const w = (runs - pts[i - 1].runs) / (pts[i].runs - pts[i - 1].runs);
        return pts[i - 1].are + w * (pts[i].are - pts[i - 1].are);
      }
    }
    return NaN;
  };
  const halfBudget = of("random")
    .filter((p) => p.fraction >= 0.1 - 1e-9 && p.fraction <= 0.6 + 1e-9)
    .map((p) => {
      const a = at(adaptive, p.runs / 2);
      // The adaptive replays end once every configuration is measured: past that nothing is left to predict.
      const allMeasured = Number.isNaN(a) && adaptive.length > 0 && p.runs / 2 > adaptive[adaptive.length - 1].runs;
      return { fraction: p.fraction, random: p.are, adaptiveAtHalf: a, met: allMeasured || a <= p.are, allMeasured };
    });
  let worstExcess = -Infinity;
  for (const p of adaptive) {
    const best = Math.min(...(["random", "space-filling"] as const).map((s) => at(of(s), p.runs)).filter(Number.isFinite));
    if (Number.isFinite(best)) worstExcess = Math.max(worstExcess, p.are - best);
  }
  void totalRuns;
  return { halfBudget, worstExcess: Number.isFinite(worstExcess) ? worstExcess : NaN };
}

async function execCampaign(
  o: PlanOptions,
  rule: StoppingRule,
  space: ConfigSpace,
  budgetRuns: number,
  command: (c: number, run: number, seed: string) => string,
  cols: { run: string; response: string },
): Promise<PlanExecSummary> {
  const runsPath = o.runs!;
  const journalPath = `${runsPath}.journal`;
  const failuresPath = runsPath.replace(/\.csv$/i, "") + ".failures.csv";
  const reader = resultReader(o.result);
  const note = o.note ?? (() => {});
  const journal = readJournal(journalPath);
  const identity: JournalEntry = { type: "campaign", space: spaceDigest(space), seed: o.seed };
  const first = journal[0];
  if (first && (first.type !== "campaign" || first.space !== identity.space || first.seed !== identity.seed))
    throw new VarmapError("E_PLAN_JOURNAL", `the journal ${journalPath} belongs to another campaign (another space or --seed)`, {
      location: { file: journalPath },
      remedy: "give a new --runs file for a new campaign, or the space and --seed of this one",
    });
  // Validated (runPlan read the runs file, the journal's identity is checked): now the files may change.
  if (!first) appendJournal(journalPath, [identity]);
  repairTail(runsPath);
  if (!existsSync(runsPath) || statSync(runsPath).size === 0) appendLines(runsPath, runsHeader(space, cols));
  const runs = await readRunsFile(space, runsPath, cols);
  const failed = new Uint8Array(space.count);
  const failCount = new Map<string, number>();
  let step = 0;
  let pending: { step: number; rows: { key: string; target: number }[] } | undefined;
  for (const e of journal) {
    if (e.type === "failed-config") markFailed(space, failed, e.key);
    else if (e.type === "fail") failCount.set(`${e.key}#${e.run}`, (failCount.get(`${e.key}#${e.run}`) ?? 0) + 1);
    else if (e.type === "batch") (pending = { step: e.step, rows: e.rows }), (step = e.step + 1);
    else if (e.type === "batch-done" && pending?.step === e.step) pending = undefined;
  }
  if (pending) note(`resuming batch ${pending.step + 1} from the journal`);
  const d = space.inputs.length;
  const keyOf = (c: number) =>
    configKey(
      space.factors.map((_, f) => space.factorValues[f][c]),
      space.X.subarray(c * d, c * d + d),
    );
  const opts = stepOptions(o, rule, space, budgetRuns);
  let executed = 0,
    failedAttempts = 0,
    batches = 0,
    stop = "budget",
    mapErr = NaN;
  if (!existsSync(failuresPath)) appendLines(failuresPath, [...space.factors, ...space.inputs, cols.run, "attempt", "error"].map(csvQuote).join(",") + "\n");
  let slurmResults: Map<string, { stdout: string; stderr: string; status: number | null; error?: undefined; signal?: undefined }> | undefined;
  for (;;) {
    slurmResults = undefined;
    if (!pending) {
      const s = planStep(space, runs, failed, step, opts);
      mapErr = s.predictedMapError;
      if (s.batch.length === 0) {
        stop = s.stop ?? "budget";
        break;
      }
      pending = { step, rows: s.batch.map((r) => ({ key: keyOf(r.config), target: s.estimate.n[r.config] + r.runs })) };
      appendJournal(journalPath, [{ type: "batch", ...pending }]);
      step++;
      note(
        `batch ${pending.step + 1}: ${s.batch.length} configuration(s), ${s.batch.reduce((a, r) => a + r.runs, 0)} run(s); spent ${s.runsSpent}/${budgetRuns}, predicted map error ${Number.isFinite(s.predictedMapError) ? (100 * s.predictedMapError).toFixed(1) + "%" : "unknown"}`,
      );
    }
    if (o.slurmDir !== undefined) {
      // Slurm: the batch runs as a job array (one task per configuration); this command continues once every
      // task has left its results (stdout and exit status per run) in the batch's directory.
      const dir = join(o.slurmDir, `batch-${pending.step + 1}`);
      const script = `${dir}.sh`;
      const tasks = pending.rows.map((row) => {
        const c = space.index.get(row.key)!;
        const first = runs[c].length + 1;
        return { c, runs: Array.from({ length: Math.max(0, row.target - runs[c].length) }, (_, i) => first + i) };
      });
      if (!existsSync(script)) {
        mkdirSync(dir, { recursive: true });
        await writeTextAtomic(
          script,
          slurmArrayScript(tasks, dir, (c, run) => command(c, run, o.seed), pending.step + 1),
        );
        note(`batch ${pending.step + 1} written as a Slurm job array: sbatch ${script}; run this command again once it has finished`);
        stop = "slurm-submitted";
        break;
      }
      const missing = tasks.reduce((a, t, i) => a + t.runs.filter((r) => !failed[t.c] && !existsSync(join(dir, `${i}-${r}.rc`))).length, 0);
      if (missing > 0) {
        note(`batch ${pending.step + 1}: ${missing} run(s) of the Slurm job array have no result yet (${dir}); run this command again once it has finished`);
        stop = "slurm-pending";
        break;
      }
      slurmResults = new Map(tasks.flatMap((t, i) => t.runs.map((r) => [`${t.c}#${r}`, readSlurmResult(dir, i, r)] as const)));
    }
    for (const row of pending.rows) {
      const c = space.index.get(row.key);
      if (c === undefined)
        throw new VarmapError("E_PLAN_JOURNAL", `the journal's batch names a configuration not in the space`, {
          location: { file: journalPath },
          remedy: "remove the journal to start over",
        });
      while (runs[c].length < row.target && !failed[c]) {
        const run = runs[c].length + 1;
        const fk = `${row.key}#${run}`;
        const attempt = (failCount.get(fk) ?? 0) + 1;
        appendJournal(journalPath, [{ type: "start", key: row.key, run, attempt }]);
        const cmd = command(c, run, o.seed);
        // A result the Slurm task left counts as the first attempt; a retry runs here.
        const fromSlurm = attempt === 1 ? slurmResults?.get(`${c}#${run}`) : undefined;
        const p = fromSlurm ?? spawnSync("/bin/sh", ["-c", cmd], { encoding: "utf8", maxBuffer: 64 << 20 });
        const out: CommandOutput = { stdout: p.stdout ?? "", stderr: p.stderr ?? "", status: p.status };
        let value: number | undefined;
        let error = "";
        if (p.error) error = p.error.message;
        else if (p.status !== 0) error = `exit status ${p.status ?? `signal ${p.signal}`}: ${out.stderr.trim().slice(-2000)}`;
        else
          try {
            value = reader(out);
          } catch (e) {
            if (!(e instanceof ResultUnreadable)) throw e;
            error = `${e.message}${out.stderr.trim() ? `; stderr: ${out.stderr.trim().slice(-2000)}` : ""}`;
          }
        if (value !== undefined) {
          appendLines(runsPath, runsLine(space, c, run, value));
          runs[c].push(value);
          executed++;
          continue;
        }
        failedAttempts++;
        failCount.set(fk, attempt);
        appendJournal(journalPath, [{ type: "fail", key: row.key, run, attempt, error }]);
        appendLines(failuresPath, runsLine(space, c, run, attempt).replace(/\n$/, `,${csvQuote(error)}\n`));
        note(`run ${run} of ${describeConfiguration(space, c)} failed (attempt ${attempt}): ${error.split("\n")[0]}`);
        if (attempt >= 2) {
          failed[c] = 1;
          appendJournal(journalPath, [{ type: "failed-config", key: row.key }]);
          note(`${describeConfiguration(space, c)} marked failed; the campaign goes on`);
        }
      }
    }
    appendJournal(journalPath, [{ type: "batch-done", step: pending.step }]);
    pending = undefined;
    batches++;
  }
  const spent = runs.reduce((a, r) => a + r.length, 0);
  let failedConfigs = 0;
  for (const f of failed) failedConfigs += f;
  return {
    mode: "exec",
    runsFile: runsPath,
    runsSpent: spent,
    budgetRuns,
    batches,
    runsExecuted: executed,
    failedAttempts,
    failedConfigurations: failedConfigs,
    predictedMapError: Number.isFinite(mapErr) ? mapErr : null,
    stop,
  };
}

/** A Slurm array script: task i runs its configuration's planned runs, each leaving i-RUN.out, .err and .rc in dir. */
function slurmArrayScript(tasks: { c: number; runs: number[] }[], dir: string, command: (c: number, run: number) => string, batch: number): string {
  const lines = [
    "#!/bin/bash",
    `#SBATCH --job-name=varmap-plan-${batch}`,
    `#SBATCH --array=0-${tasks.length - 1}`,
    `#SBATCH --output=${shellQuote(dir)}/slurm-%a.log`,
    `# Batch ${batch} of a varmap plan campaign: one task per configuration; written by \`varmap plan --exec … --slurm-dir\`.`,
    "set -u",
    'case "$SLURM_ARRAY_TASK_ID" in',
  ];
  tasks.forEach((t, i) => {
    lines.push(`${i})`);
    for (const r of t.runs) {
      const base = shellQuote(join(dir, `${i}-${r}`));
      lines.push(`  ( ${command(t.c, r)} ) > ${base}.out 2> ${base}.err; echo $? > ${base}.rc.tmp && mv ${base}.rc.tmp ${base}.rc`);
    }
    lines.push("  ;;");
  });
  lines.push("esac", "");
  return lines.join("\n");
}

function readSlurmResult(dir: string, task: number, run: number): { stdout: string; stderr: string; status: number | null } {
  const base = join(dir, `${task}-${run}`);
  const read = (ext: string) => (existsSync(base + ext) ? readFileSync(base + ext, "utf8") : "");
  const status = Number(read(".rc").trim());
  return { stdout: read(".out"), stderr: read(".err"), status: Number.isInteger(status) ? status : null };
}

/** The given settings only: an undefined field takes its default rather than overwriting it. */
function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
