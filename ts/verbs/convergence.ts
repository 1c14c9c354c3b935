// `convergence`: how the confidence interval of the sd (or mean) narrows with the number of runs m, the 75% / 90%
// convergence points of seed 000 §6 (Fig. 10), the analytic baseline they almost equal, the runs needed for a
// target precision, and (predict) the same for configurations left out of a predictor's training. A table file,
// or a job directory on the engine (ts/jobs/convergence.ts). The CLI (ts/cli/commands/convergence.ts) parses the
// flags into ConvergenceOptions.
import { describeConfig, loadDataset, type LoadOptions } from "../data/load.js";
import { TABLE_OUTPUT, writeTable } from "../data/write.js";
import { VarmapError } from "../errors.js";
import type { ConvergenceOptions as CurveOptions } from "../convergence/convergence.js";
import type { CurveMode } from "../convergence/predict.js";
import { mapSpec } from "../convergence/outputs.js";
import { convergenceFingerprint, convergenceOutputs, job as convergenceJob, measureChunk, type ConvergencePlan } from "../jobs/convergence.js";
import { keysOf } from "../mixture/samplesize-table.js";
import { runJob } from "../pool/job.js";
import { sharedCopy } from "../pool/threads.js";
import { METHOD_NAMES } from "../predict/registry.js";
import { jobOptions, type RunOptions } from "./common.js";

/** predict: the curves of held-out configurations, by a predictor over random divisions. */
export interface ConvergencePredictOptions {
  method: string;
  /** Training fraction of each division, in (0, 1). */
  p: number;
  /** Random divisions. */
  reps: number;
  /** per-m (a model per m) or plug-in (ŝ at N times the width factor). */
  mode: CurveMode;
}

export interface ConvergenceOptions {
  /** Column roles of the runs table. */
  data: LoadOptions;
  /** The curves: CI kind and level, m0..to, convergence levels, subsets, reps, seed, precision. */
  curve: CurveOptions;
  predict?: ConvergencePredictOptions;
  /** The convergence table (.csv, .tsv, .json, .parquet), or a job directory. */
  out?: string;
  /** Long table key, m, w, lower, upper, c, w_pred, c_pred, err. */
  curves?: string;
  /** The caller reads the summary (no out needed). */
  json?: boolean;
  run?: RunOptions;
}

export interface ConvergenceSummary {
  /** What --json prints: the job's summary, or the medians (and the prediction's ARE). */
  json: unknown;
}

export async function runConvergence(file: string, options: ConvergenceOptions): Promise<ConvergenceSummary> {
  const run = options.run ?? {};
  const o = options.curve;
  if (o.to !== undefined && o.to < o.m0 + 2)
    throw new VarmapError("E_USAGE", `--to ${o.to} is below --from ${o.m0} + 2`, { remedy: "give --to at least --from + 2" });
  const pred = options.predict;
  if (pred && !METHOD_NAMES.includes(pred.method))
    throw new VarmapError("E_METHOD", `unknown method '${pred.method}'`, { remedy: `use one of ${METHOD_NAMES.join(", ")}` });
  if (!options.out && !options.json && !options.curves)
    throw new VarmapError("E_USAGE", "no output", { remedy: "give --out convergence.csv (and optionally --curves curves.csv), or --json" });
  // An --out without a table extension is a job directory: journal, resume, --shard, `varmap merge`.
  const jobDir = options.out !== undefined && !TABLE_OUTPUT.test(String(options.out)) ? String(options.out) : undefined;
  if (run.shard !== undefined && !jobDir)
    throw new VarmapError("E_USAGE", "--shard needs an --out directory", { remedy: "give --out DIR (no .csv extension)" });
  const jobOpts = jobDir ? jobOptions(run, jobDir, "convergence") : undefined;
  const note = run.quiet ? undefined : (m: string) => process.stderr.write(`varmap: ${m}\n`);

  const data = await loadDataset(file, { ...options.data, stat: "sd" });
  const t = data.table;
  const len = (c: number) => Math.min(t.offsets[c + 1] - t.offsets[c], o.to ?? Infinity) - o.m0 + 1;
  for (let c = 0; c < t.count; c++) {
    const N = t.offsets[c + 1] - t.offsets[c];
    if (N < o.m0 + 2)
      throw new VarmapError("E_TOO_FEW_RUNS", `${N} runs, but convergence from m0 = ${o.m0} needs at least ${o.m0 + 2}`, {
        location: { file, row: t.firstRow?.[c], configuration: describeConfig(t, c) },
        remedy: `lower --from (e.g. --from ${Math.max(2, N - 2)}), or select configurations with enough runs using --where`,
      });
  }
  if (pred)
    for (const map of data.maps) {
      const ids = map.ids as number[];
      if (ids.some((c) => len(c) !== len(ids[0])))
        throw new VarmapError("E_USAGE", `the configurations of map ${JSON.stringify(map.key)} have different run counts`, {
          remedy: "give --to so that every configuration's curve has the same length",
        });
    }
  const keys = keysOf(t);
  const plan: ConvergencePlan = {
    format: "varmap-job",
    version: 1,
    verb: "convergence",
    fingerprint: convergenceFingerprint(t.runs, t.offsets, keys.values),
    options: o,
    predict: pred ?? null,
    maps: pred ? data.maps.map(mapSpec) : null,
    keys: { factors: keys.factors, inputs: keys.inputs },
    configs: t.count,
    chunk: Math.max(16, Math.min(256, Math.ceil(t.count / 64))),
    curves: options.curves !== undefined,
  };
  const ctx = { plan, runs: sharedCopy(t.runs), offsets: sharedCopy(t.offsets), keys: keys.values };
  if (jobDir && jobOpts) {
    const s = await runJob(convergenceJob, ctx, jobOpts);
    if (!options.json && s.summary) note?.(`wrote ${s.files.join(", ")} in ${jobDir}: ${JSON.stringify(s.summary)}`);
    return { json: s };
  }
  const out = convergenceOutputs(plan, measureChunk(ctx, 0, t.count), keys.values);
  // Everything is computed before anything is written.
  if (options.out) await writeTable(String(options.out), out.table);
  if (out.curves) await writeTable(String(options.curves), out.curves);
  const sm = out.summary;
  note?.(
    `${t.count} configuration(s): median ${o.levels.map((l) => `m_${l} = ${sm.median[`m_${l}`]} (analytic ${sm.analyticMedian[`m_${l}`]})`).join(", ")}${sm.predict ? `; ${sm.predict.method} width ARE at N = ${(sm.predict.widthAREatN * 100).toFixed(2)}%` : ""}`,
  );
  return { json: sm };
}
