// `varmap interference` as a job: the pair rows (aggregates, bootstrap intervals, slice measures, mixtures) are
// computed in chunks of rows, in worker threads; the writer derives relations, the matrix, the app classes and
// the break-even points from all rows and writes the tables. Every random choice is keyed by the pair (bootstrap)
// or its global index (mixture starts), so workers, shards and merge do not change a digit.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { tableCsv } from "../data/write.js";
import { computePairRows, finishInterference, type PreparedInterference, type PreparedPair } from "../interference/analyze.js";
import type { SlicedExecution } from "../interference/slices.js";
import { appColumns, breakEvenColumns, matrixColumns, pairColumns } from "../interference/tables.js";
import type { InterferenceOptions, PairRow } from "../interference/types.js";
import { writeFileAtomic } from "../data/write.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";

/** Rows per task: about 50 ms of bootstrap at B = 2,000 with 5 repetitions. */
export const INTERFERENCE_CHUNK = 500;

export interface InterferencePlan extends JobPlan {
  verb: "interference";
  options: Omit<InterferenceOptions, "note">;
  meta: PreparedInterference["meta"];
  pairs: number;
  chunk: number;
  /** Output files, relative to the job directory. */
  files: { pairs: string; matrix?: string; apps?: string; breakeven?: string };
}

export interface InterferenceTask {
  id: string;
  from: number;
  to: number;
}

export interface InterferenceContext extends JobContext<InterferencePlan> {
  pairs: PreparedPair[];
  sliced: SlicedExecution[];
}

/** The identity of the prepared data: every pair row's key, repetitions and slice series. */
export function interferenceFingerprint(prep: PreparedInterference): string {
  const h = createHash("sha256");
  const bytes = (v: Float64Array) => h.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  for (const p of prep.pairs) {
    h.update(JSON.stringify([p.id, p.partner, p.aloneIndex, p.aloneRateProbe, p.aloneRateSignal, p.aloneIdleProbe, p.aloneIdleSignal, p.sliced]));
    bytes(p.alone);
    bytes(p.int);
  }
  for (const s of prep.sliced) {
    h.update(JSON.stringify([s.experiment, s.span, s.rates, s.t90]));
    for (const v of s.series) bytes(v);
  }
  return h.digest("hex").slice(0, 32);
}

export function interferenceContext(prep: PreparedInterference, options: InterferenceOptions, files: InterferencePlan["files"]): InterferenceContext {
  const { note: _note, ...plain } = options;
  void _note;
  const plan: InterferencePlan = {
    format: "varmap-job",
    version: 1,
    verb: "interference",
    fingerprint: interferenceFingerprint(prep),
    options: plain,
    meta: prep.meta,
    pairs: prep.pairs.length,
    chunk: INTERFERENCE_CHUNK,
    files,
  };
  return { plan, pairs: prep.pairs, sliced: prep.sliced };
}

export function interferenceTasks(plan: InterferencePlan): InterferenceTask[] {
  const tasks: InterferenceTask[] = [];
  for (let from = 0; from < plan.pairs; from += plan.chunk) tasks.push({ id: `interference/${from}`, from, to: Math.min(plan.pairs, from + plan.chunk) });
  return tasks;
}

export const job: JobDefinition<InterferencePlan, InterferenceTask, InterferenceContext> = {
  verb: "interference",
  module: import.meta.url,
  tasks: interferenceTasks,
  run(ctx, task) {
    return computePairRows(ctx, task.from, task.to, ctx.plan.options);
  },
  files(plan) {
    return Object.values(plan.files).filter((f): f is string => typeof f === "string");
  },
  write(plan, results, dir) {
    const rows = interferenceTasks(plan).flatMap((t) => results.get(t.id) as PairRow[]);
    const res = finishInterference(plan.meta, rows, plan.options);
    const f = plan.files;
    writeFileAtomic(join(dir, f.pairs), tableCsv(pairColumns(res)));
    if (f.matrix) writeFileAtomic(join(dir, f.matrix), tableCsv(matrixColumns(res)));
    if (f.apps) writeFileAtomic(join(dir, f.apps), tableCsv(appColumns(res)));
    if (f.breakeven && plan.options.sweep) writeFileAtomic(join(dir, f.breakeven), tableCsv(breakEvenColumns(res, plan.options.sweep)));
    return {
      pairs: res.pairs.length,
      apps: res.apps,
      classes: res.appRows.map((a) => ({
        ...Object.fromEntries(res.factorNames.map((name, i) => [name, a.factors[i]])),
        app: a.app,
        sensitivity: a.sensitivity,
        aggressiveness: a.aggressiveness,
        class: a.class,
      })),
      breakeven: res.breakeven?.map((b) => ({ a: b.a, b: b.b, factors: b.factors, breakeven: b.breakeven, status: b.status })) ?? null,
    };
  },
};
