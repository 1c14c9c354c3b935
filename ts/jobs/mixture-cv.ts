// The cv criterion's K fold fits as one job (issue 17, speed): a task takes a chunk of configurations through all K
// folds — fits every (family, k) to the chunk's training runs of each fold and scores the fold's held-back runs in
// the worker — and returns one held-back log-likelihood sum per fitted model. One worker pool for all folds (not one
// per fold), no fitted parameters crossing threads, and the scoring spread over the workers. Folds come from
// runFolds keyed by (seed, configuration id) and fits are keyed by configuration id, so the sums do not depend on the
// chunking or the worker count.
import { fitMixtures, type MixtureFitOptions } from "../mixture/fit.js";
import { foldBatch, runFolds } from "../mixture/select.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { runTasks } from "../pool/pool.js";
import { silentProgress } from "../pool/progress.js";
import { sharedCopy } from "../pool/threads.js";
import { MIXTURE_CHUNK } from "./mixture.js";

type FitOptions = Omit<MixtureFitOptions, "backend" | "configIds">;

export interface MixtureCvPlan extends JobPlan {
  verb: "mixture-cv";
  fit: FitOptions;
  folds: number;
  seed: number;
  configs: number;
  chunk: number;
}
export interface MixtureCvTask {
  id: string;
  c0: number;
  c1: number;
}
export interface MixtureCvContext extends JobContext<MixtureCvPlan> {
  runs: Float64Array;
  offsets: Int32Array;
  configIds: Int32Array;
}
/** Held-back log-likelihood summed over the K folds, per fitted model of the chunk (fitMixtures' row order). */
export interface MixtureCvChunk {
  c0: number;
  held: number[];
}

function cvTasks(plan: MixtureCvPlan): MixtureCvTask[] {
  const tasks: MixtureCvTask[] = [];
  for (let c0 = 0; c0 < plan.configs; c0 += plan.chunk) tasks.push({ id: `mixture-cv/${c0}`, c0, c1: Math.min(plan.configs, c0 + plan.chunk) });
  return tasks;
}

function runCvTask(ctx: MixtureCvContext, { c0, c1 }: MixtureCvTask): MixtureCvChunk {
  const { plan, runs, offsets, configIds } = ctx;
  const base = offsets[c0];
  const off = Int32Array.from({ length: c1 - c0 + 1 }, (_, i) => offsets[c0 + i] - base);
  const x = runs.subarray(base, offsets[c1]);
  const ids = configIds.slice(c0, c1);
  const assign = Array.from({ length: c1 - c0 }, (_, c) => runFolds(off[c + 1] - off[c], "random", plan.folds, plan.seed, ids[c]));
  let held: number[] | undefined;
  for (let f = 0; f < plan.folds; f++) {
    const b = foldBatch(x, off, assign, f);
    const fit = fitMixtures(b.train.runs, b.train.offsets, { ...plan.fit, configIds: ids });
    const per = fit.rows.length / (c1 - c0);
    held ??= new Array<number>(fit.rows.length).fill(0);
    fit.rows.forEach((r, i) => {
      const c = Math.floor(i / per);
      const y = b.test.runs.subarray(b.test.offsets[c], b.test.offsets[c + 1]);
      held![i] += Number.isFinite(r.loglik) ? r.mixture.loglik(y) : -Infinity;
    });
  }
  return { c0, held: held ?? [] };
}

export const job: JobDefinition<MixtureCvPlan, MixtureCvTask, MixtureCvContext> = {
  verb: "mixture-cv",
  module: import.meta.url,
  tasks: cvTasks,
  run: runCvTask,
  files: () => [],
  write: () => ({}),
};

/**
 * Held-back log-likelihood over K random folds of runs, summed per fitted model (rows in fitMixtures' order over all
 * configurations), computed on `workers` threads (≤ 1: this thread).
 */
export async function heldOutSums(
  runs: Float64Array,
  offsets: Int32Array,
  configIds: Int32Array,
  o: { folds: number; seed: number; workers: number; fit: FitOptions },
): Promise<Float64Array> {
  const { plan, tasks } = cvPlan(offsets, o);
  const done = new Map<string, unknown>();
  if (o.workers <= 1 || tasks.length <= 1) return heldOutSumsHere(runs, offsets, configIds, o);
  const ctx = { plan, runs: sharedCopy(runs), offsets: sharedCopy(offsets), configIds: sharedCopy(configIds) };
  const sink = { done, append: (records: readonly { id: string; result: unknown }[]) => records.forEach((r) => done.set(r.id, r.result)) };
  await runTasks(job, ctx, tasks, sink, { workers: o.workers, progress: silentProgress });
  return gather(tasks, done);
}

/** heldOutSums in this thread, synchronously (inside another job's task). */
export function heldOutSumsHere(
  runs: Float64Array,
  offsets: Int32Array,
  configIds: Int32Array,
  o: { folds: number; seed: number; fit: FitOptions },
): Float64Array {
  const { plan, tasks } = cvPlan(offsets, o);
  const done = new Map<string, unknown>();
  const ctx = { plan, runs, offsets, configIds };
  for (const t of tasks) done.set(t.id, runCvTask(ctx, t));
  return gather(tasks, done);
}

function cvPlan(offsets: Int32Array, o: { folds: number; seed: number; fit: FitOptions }): { plan: MixtureCvPlan; tasks: MixtureCvTask[] } {
  const nconf = offsets.length - 1;
  const plan: MixtureCvPlan = {
    format: "varmap-job",
    version: 1,
    verb: "mixture-cv",
    fingerprint: "",
    fit: o.fit,
    folds: o.folds,
    seed: o.seed,
    configs: nconf,
    chunk: MIXTURE_CHUNK,
  };
  return { plan, tasks: cvTasks(plan) };
}

function gather(tasks: MixtureCvTask[], done: ReadonlyMap<string, unknown>): Float64Array {
  const parts = tasks.map((t) => done.get(t.id) as MixtureCvChunk);
  const out = new Float64Array(parts.reduce((s, p) => s + p.held.length, 0));
  let i = 0;
  for (const p of parts) for (const v of p.held) out[i++] = v;
  return out;
}
