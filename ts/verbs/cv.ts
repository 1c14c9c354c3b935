// `cv`: cross-validation of every map on the engine (ts/jobs/cv.ts), over generated divisions (p × reps) or given
// ones (a splits file); the ARE per map, method and p, the Table 2 (generated) and the per-point predictions
// (given, optional). The CLI (ts/cli/commands/cv.ts) parses the flags into CvOptions and prints the summary.
import { ownedTempDir } from "../data/atomic.js";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import type { VariabilityMap } from "../data/types.js";
import type { LoadOptions } from "../data/load.js";
import { parseSeedText, splitList } from "../data/option-values.js";
import { readSplitsFile } from "../cv/splits.js";
import { tableFormat, writeTable } from "../data/write.js";
import { packMaps } from "../data/shared-maps.js";
import { readRecords, RESULTS } from "../pool/store.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { cvPlan, job as cvJob, predictionColumns } from "../jobs/cv.js";
import { BEST_METHODS, lightenDefaultMethods } from "./defaults.js";
import { checkMethods, describeKey, jobOptions, loadMaps, type RunOptions } from "./common.js";

export interface CvOptions {
  /** Column roles, statistic and transforms of the data (ts/data/load.ts). */
  data: LoadOptions;
  /** Predictors; default: the best set (without rbf above 1,000 fits per method, gp/hybrid above 4,000: HEAVY_DEFAULT_FITS). */
  methods?: string[];
  /** Hyperparameters per method (the registry's options, e.g. { lsp: { neighbors: 8 } }). */
  methodOptions?: Record<string, Record<string, unknown>>;
  /** Training fractions of the generated divisions (default 0.1, 0.2, …, 0.9). */
  p?: number[];
  /** Generated divisions per training fraction (default 200). */
  reps?: number;
  /** Given divisions instead: a splits file (JSON {"n", "splits": [{"p", "rep", "train"}]}). */
  splits?: string;
  /** Predictions of every test point (with `splits`): .csv, .tsv, .json or .parquet. */
  predictions?: string;
  /** Also the coverage of conformal intervals of this level, in (0, 1). */
  interval?: number;
  /** Group-out divisions instead (issue 41): hold out each distinct combination of these inputs/factors in turn. */
  leaveOut?: string[];
  /** With `leaveOut`: k folds of whole groups instead of one division per group. */
  groupFolds?: number;
  /** Seed of the divisions (default "1"). */
  seed?: string | number;
  /** Job directory (resumable store, are.csv, table2.md, …); default: a temporary directory removed afterwards. */
  out?: string;
  run?: RunOptions;
}

export interface CvMapSummary {
  key: Record<string, string>;
  rows: number;
  methods: Record<string, { p: number; splits: number; are: number }[]>;
  are?: { p: number; splits: number; are: number }[];
}

export interface CvSummary extends JobSummary {
  /** The method, when there is one. */
  method?: string;
  /** The splits file's source, for given divisions. */
  splits?: string;
  /** Per map: the mean ARE per method and p (absent for a shard). */
  maps?: CvMapSummary[];
  /** The report as `varmap cv` prints it (the Table 2, or the ARE per p of given splits); "" for a shard. */
  text: string;
}

/**
 * Maps with one configuration (or no input that varies) cannot be cross-validated; they are skipped, named and
 * counted (issue 44: one such map of 24 used to stop the whole job with an E_SHAPE naming none). An error only
 * when no map is left.
 */
function unscorableMapsSkipped<T extends { maps: VariabilityMap[] }>(ds: T, file: string, warn?: (m: string) => void): T {
  const bad = ds.maps.filter((m) => m.rows < 2 || m.inputNames.length === 0);
  if (!bad.length) return ds;
  const names = bad.map((m) => `${describeKey(m.key)} (${m.rows} configuration${m.rows === 1 ? "" : "s"})`);
  if (bad.length === ds.maps.length)
    throw new VarmapError("E_TOO_FEW_POINTS", `no map can be cross-validated: each has one configuration or no input that varies: ${names.join("; ")}`, {
      location: { file },
      remedy: "widen --where, or give maps with at least 2 configurations that differ in an input",
    });
  warn?.(
    `${bad.length} of ${ds.maps.length} map(s) skipped: one configuration or no input that varies, nothing to cross-validate: ${names.slice(0, 10).join("; ")}${bad.length > 10 ? "; …" : ""}`,
  );
  return { ...ds, maps: ds.maps.filter((m) => !bad.includes(m)) };
}

export async function runCv(file: string, options: CvOptions): Promise<CvSummary> {
  const run = options.run ?? {};
  const requested = checkMethods(options.methods ?? splitList(BEST_METHODS));
  const splits = options.splits !== undefined ? readSplitsFile(options.splits) : undefined;
  const ps = splits ? undefined : (options.p ?? [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
  const reps = options.reps ?? 200;
  if (!(Number.isInteger(reps) && reps >= 1)) throw new VarmapError("E_USAGE", `--reps '${reps}' is not a positive integer`, { remedy: "e.g. --reps 200" });
  const leaveOut = options.leaveOut;
  const groupFolds = options.groupFolds;
  const divisionsPerMap = leaveOut ? (groupFolds ?? 10) : splits ? splits.splits.length : (ps?.length ?? 1) * reps;
  const methodOptions = options.methodOptions ?? {};
  const seed = parseSeedText(options.seed);
  const predictionsPath = options.predictions;
  if (predictionsPath && !splits)
    throw new VarmapError("E_USAGE", "--predictions needs --splits", {
      remedy: "give --splits FILE, or drop --predictions (generated divisions are summarized in --out)",
    });
  if (predictionsPath) tableFormat(predictionsPath);
  const interval = options.interval;
  if (interval !== undefined && !(interval > 0 && interval < 1))
    throw new VarmapError("E_USAGE", `--interval ${String(interval)} is not a coverage level in (0, 1)`, { remedy: "e.g. --interval 0.9" });
  const ds = unscorableMapsSkipped(await loadMaps(file, options.data), file, run.quiet ? undefined : (m) => process.stderr.write(`varmap: warning: ${m}\n`));
  const maps = packMaps(ds.maps);
  const lightened = lightenDefaultMethods(options.methods === undefined, requested, divisionsPerMap * ds.maps.length);
  const methods = lightened.methods;
  if (lightened.note && !run.quiet) process.stderr.write(`varmap: note: ${lightened.note}\n`);
  if (splits?.n !== undefined && !run.quiet)
    for (const m of ds.maps)
      if (m.rows !== splits.n) process.stderr.write(`varmap: note: the splits file says n = ${splits.n} but map ${describeKey(m.key)} has ${m.rows} rows\n`);
  const ids = ds.maps.map((m) => m.ids);
  const { plan, givenTrain } = cvPlan(maps, {
    methods,
    methodOptions,
    response: (ds.resolved?.logResponse ?? options.data.logResponse) ? "log" : "linear",
    stat: ds.maps[0]?.stat,
    ps,
    reps,
    seed,
    splits,
    predictions: !!predictionsPath,
    ids,
    ...(interval !== undefined ? { interval } : {}),
    ...(leaveOut ? { leaveOut } : {}),
    ...(groupFolds !== undefined ? { groupFolds } : {}),
    autoTransforms: { inputs: options.data.logInputs?.[0] === "auto", response: options.data.logResponse === "auto" },
  });
  // Without an output directory (the quick --splits use), the store lives in a temporary directory removed afterwards.
  const out = options.out ?? ownedTempDir("cv");
  try {
    const s = await runJob(cvJob, { maps, plan, givenTrain, ids }, jobOptions(run, out, "cv"));
    if (s.shard !== null) return { ...s, text: "" };
    if (predictionsPath) {
      const results = new Map(readRecords(join(out, RESULTS)).map((r) => [r.id, r.result]));
      await writeTable(predictionsPath, predictionColumns(plan, results));
      if (!run.quiet) process.stderr.write(`varmap: predictions written to ${predictionsPath}\n`);
    }
    // Group-out divisions (issue 41): the per-group Table 2 is the report.
    if (leaveOut) return { ...s, text: readFileSync(join(out, "table2.md"), "utf8") };
    const perMap = s.summary!.maps as CvMapSummary[];
    // One method: also the `are` list per map of the given-splits cv (p, splits, are).
    const mapsOut = perMap.map((m) => (methods.length === 1 ? { ...m, are: m.methods[methods[0]].map(({ p, splits, are }) => ({ p, splits, are })) } : m));
    let text = "";
    if (splits)
      for (const m of perMap)
        for (const method of methods) {
          const rows = m.methods[method];
          text += `${method} on ${describeKey(m.key)} (${m.rows} configurations, ${splits.splits.length} splits): mean ARE per p\np\tsplits\tmean ARE\n`;
          for (const t of rows) text += `${t.p}\t${t.splits}\t${(100 * t.are).toFixed(2)}%\n`;
        }
    else text = readFileSync(join(out, "table2.md"), "utf8");
    return { ...s, method: methods.length === 1 ? methods[0] : undefined, splits: splits?.source, maps: mapsOut, text };
  } finally {
    if (!options.out) rmSync(out, { recursive: true, force: true });
  }
}
