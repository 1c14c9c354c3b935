// `interference`: throughput degradation (or runtime dilation) of each probe against each signal, the probe × signal
// matrix, per-app sensitivity/aggressiveness and classes, break-even points along a swept factor, and time-slice
// analysis (seed 003; spec C), as a job on the engine (ts/jobs/interference.ts) whose journal lives beside the pair
// table. The CLI (ts/cli/commands/interference.ts) parses the flags into InterferenceOptions.
import { dirname, join, relative, resolve } from "node:path";
import { VarmapError } from "../errors.js";
import { prepareInterference } from "../interference/analyze.js";
import { readRuns, readSlices, type RunColumns } from "../interference/read.js";
import { interferenceContext, job } from "../jobs/interference.js";
import { runJob, type JobSummary } from "../pool/job.js";
import { DEFAULT_OPTIONS, type InterferenceOptions as AnalysisOptions, type Metric } from "../interference/types.js";
import { jobOptions, type RunOptions } from "./common.js";

export interface InterferenceOptions {
  /** Column roles: experiment (execution id), app, instance, factors, run, response, noise; a where predicate. */
  columns: Partial<RunColumns>;
  /** What the response measures: throughput (higher is better) or time. */
  metric?: Metric;
  /** The analysis settings (aggregate, noise filter, thresholds, bootstrap, mixtures, seed); default DEFAULT_OPTIONS. */
  analysis?: Partial<Omit<AnalysisOptions, "metric" | "factorNames" | "sweep" | "note" | "file" | "slicesFile">>;
  /** LWM² time slices (experiment, app[, instance], slice, bytes|ops[, server_bytes]). */
  slices?: string;
  /** A numeric factor along which break-even points are found (writes breakeven). */
  sweep?: string;
  /** The pair table (.csv); the job journal and the other tables go beside it. */
  out: string;
  matrix?: string;
  apps?: string;
  /** With sweep: the break-even table (default breakeven.csv beside out). */
  breakeven?: string;
  run?: RunOptions;
}

/** A shard's job summary, or the whole analysis: counts, the job's summary, the outputs and the seconds it took. */
export type InterferenceSummary = { shard: true; job: JobSummary } | { shard: false; summary: Record<string, unknown> };

export async function runInterference(file: string, options: InterferenceOptions): Promise<InterferenceSummary> {
  const run = options.run ?? {};
  const c = options.columns;
  // Every option is validated before anything is read or written.
  for (const [k, flag] of [
    ["experiment", "--experiment"],
    ["app", "--app"],
  ] as const)
    if (!c[k])
      throw new VarmapError("E_USAGE", `interference needs ${flag} COL`, {
        remedy: "name the execution-id column with --experiment and the app column with --app",
      });
  if (!options.metric)
    throw new VarmapError("E_USAGE", "interference needs --metric throughput|time", {
      remedy: "say whether --response is a bandwidth (throughput: higher is better) or a completion time (time: lower is better)",
    });
  if (!c.response && !options.slices)
    throw new VarmapError("E_USAGE", "interference needs --response COL (or --slices FILE)", {
      remedy: "name the bandwidth or time column with --response",
    });
  const out = options.out;
  if (!out) throw new VarmapError("E_USAGE", "interference needs --out PATH for the pair table", { remedy: "e.g. --out pairs.csv" });
  const factors = c.factors ?? [];
  const sweep = options.sweep;
  if (sweep !== undefined && !factors.includes(sweep))
    throw new VarmapError("E_USAGE", `--sweep ${sweep} is not one of the --factors (${factors.join(", ") || "none"})`, {
      remedy: "list the swept column in --factors too",
    });
  const breakevenPath = sweep === undefined ? undefined : (options.breakeven ?? join(dirname(out), "breakeven.csv"));
  const outputs = [out, options.matrix, options.apps, breakevenPath].filter((p): p is string => p !== undefined);
  for (const p of outputs)
    if (!/\.csv$/i.test(p))
      throw new VarmapError("E_USAGE", `interference writes CSV tables: '${p}' does not end in .csv`, {
        remedy: "give --out, --matrix, --apps and --breakeven paths ending in .csv",
      });
  for (const [flag, p] of [
    ["--matrix", options.matrix],
    ["--apps", options.apps],
    ["--breakeven", breakevenPath],
  ] as const)
    if (p !== undefined && resolve(dirname(p)) !== resolve(dirname(out)))
      throw new VarmapError("E_USAGE", `${flag} ${p} is not in the directory of --out ${out}`, {
        remedy: `the tables and the job journal live together: put them beside --out, e.g. ${join(dirname(out), `${flag.slice(2)}.csv`)}`,
      });
  const dup = outputs.find((p, i) => outputs.findIndex((q) => resolve(q) === resolve(p)) !== i);
  if (dup)
    throw new VarmapError("E_USAGE", `two outputs would be written to ${dup}`, { remedy: "give --out, --matrix, --apps and --breakeven different paths" });
  // The job journal (manifest.json, results.jsonl) lives beside --out; the other tables are placed relative to it.
  const dir = dirname(out);
  const jobOpts = jobOptions(run, dir, "interference");
  const note = run.quiet ? undefined : (m: string) => process.stderr.write(`varmap: note: ${m}\n`);
  const opts: AnalysisOptions = {
    ...DEFAULT_OPTIONS,
    ...options.analysis,
    metric: options.metric,
    factorNames: factors,
    sweep,
    note,
    file,
    slicesFile: options.slices,
  };
  if (options.slices && opts.metric !== "throughput")
    throw new VarmapError("E_USAGE", "time slices give throughput: --slices needs --metric throughput", {
      remedy: "use --metric throughput with --slices",
    });

  const runs = await readRuns(file, {
    experiment: c.experiment!,
    app: c.app!,
    instance: c.instance,
    factors,
    run: c.run,
    response: c.response,
    noise: c.noise,
    where: c.where,
  });
  const slices = options.slices ? await readSlices(options.slices, { experiment: c.experiment!, app: c.app!, instance: c.instance }) : undefined;
  const t0 = performance.now();
  const prep = prepareInterference(runs, opts, slices);
  const rel = (p: string | undefined) => (p === undefined ? undefined : relative(dir, p));
  const ctx = interferenceContext(prep, opts, { pairs: rel(out)!, matrix: rel(options.matrix), apps: rel(options.apps), breakeven: rel(breakevenPath) });
  const s = await runJob(job, ctx, jobOpts);
  const seconds = (performance.now() - t0) / 1000;
  if (s.shard !== null) {
    note?.(`shard ${s.shard}: ${s.ran} task(s) computed into ${dir}; combine the shards with varmap merge`);
    return { shard: true, job: s };
  }
  const sum = prep.meta.summary;
  note?.(`${prep.pairs.length} pair rows (${sum.pairExecutions} pair and ${sum.standaloneExecutions} standalone executions) → ${outputs.join(", ")}`);
  return { shard: false, summary: { ...sum, ...s.summary, metric: opts.metric, aggregate: opts.aggregate, outputs, seconds } };
}
