// `varmap mixture` as a job: every (family, k) mixture of every configuration's runs, in chunks of
// configurations. Each chunk is fitted with its global configuration ids (they key the random starts), so the fits
// do not depend on the chunking, the worker count or a resume. `fitMixturesParallel` runs the same tasks without
// an output directory (the API and the benches); the mixture verb runs them as a resumable job (ts/verbs/mixture.ts).
import { createHash } from "node:crypto";
import type { MixtureStarts } from "../backend/kernels/mixture.js";
import { FAMILIES, type FamilyName } from "../mixture/families.js";
import { fitMixtures, type MixtureFitOptions, type MixtureFitResult, type MixtureFitRow } from "../mixture/fit.js";
import { Mixture } from "../mixture/model.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { runTasks } from "../pool/pool.js";
import { silentProgress } from "../pool/progress.js";
import { sharedCopy } from "../pool/threads.js";

/** Configurations per task: small enough to balance two workers, large enough to amortize the hand-off. */
export const MIXTURE_CHUNK = 8;

export interface MixturePlan extends JobPlan {
  verb: "mixture";
  families: FamilyName[];
  kmax: number;
  seed?: number;
  restarts?: number;
  maxIter?: number;
  tol?: number;
  starts?: MixtureStarts;
  priorStrength?: number;
  /** Configurations fitted. */
  configs: number;
  chunk: number;
}

export interface MixtureTask {
  id: string;
  c0: number;
  c1: number;
}

export interface MixtureContext extends JobContext<MixturePlan> {
  runs: Float64Array;
  offsets: Int32Array;
  /** Global configuration ids (key the random starts). */
  configIds: Int32Array;
}

/** A task's result: the fits without their Mixture objects (rebuilt by assembleFits), timings and resolutions. */
export interface MixtureChunk {
  c0: number;
  rows: Omit<MixtureFitRow, "mixture">[];
  /** Per (family:k): seconds summed over the chunk's configurations. */
  seconds: [string, number][];
  resolution: number[];
}

type PlanOptions = Omit<MixtureFitOptions, "backend" | "configIds">;

export function mixturePlan(runs: Float64Array, offsets: Int32Array, configIds: Int32Array, o: PlanOptions): MixturePlan {
  const h = createHash("sha256");
  for (const a of [runs, offsets, configIds]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  const defined = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as PlanOptions;
  return {
    format: "varmap-job",
    version: 1,
    verb: "mixture",
    fingerprint: h.digest("hex").slice(0, 32),
    ...defined,
    families: o.families ?? (Object.keys(FAMILIES) as FamilyName[]),
    kmax: o.kmax ?? 5,
    configs: offsets.length - 1,
    chunk: MIXTURE_CHUNK,
  };
}

function mixtureTasks(plan: MixturePlan): MixtureTask[] {
  const tasks: MixtureTask[] = [];
  for (let c0 = 0; c0 < plan.configs; c0 += plan.chunk) tasks.push({ id: `mixture/${c0}`, c0, c1: Math.min(plan.configs, c0 + plan.chunk) });
  return tasks;
}

function runMixtureTask(ctx: MixtureContext, { c0, c1 }: MixtureTask): MixtureChunk {
  const { runs, offsets, configIds, plan } = ctx;
  const base = offsets[c0];
  const off = Int32Array.from({ length: c1 - c0 + 1 }, (_, i) => offsets[c0 + i] - base);
  const { format: _f, version: _v, verb: _b, fingerprint: _p, configs: _c, chunk: _k, ...options } = plan;
  const fit = fitMixtures(runs.subarray(base, offsets[c1]), off, { ...options, configIds: configIds.slice(c0, c1) });
  return {
    c0,
    rows: fit.rows.map(({ mixture: _m, ...plain }) => ({ ...plain, config: plain.config + c0 })),
    seconds: [...fit.secondsPerFit].map(([key, mean]) => [key, mean * (c1 - c0)] as [string, number]),
    resolution: Array.from(fit.resolution),
  };
}

export const job: JobDefinition<MixturePlan, MixtureTask, MixtureContext> = {
  verb: "mixture",
  module: import.meta.url,
  tasks: mixtureTasks,
  run: runMixtureTask,
  // The fits table goes where the user's --out says (any table format), written by the CLI from the results.
  files: () => [],
  write: () => ({}),
};

/** The whole fit from the tasks' results, as fitMixtures returns it on one thread (rows, best flags, timings). */
export function assembleFits(plan: MixturePlan, results: ReadonlyMap<string, unknown>): MixtureFitResult {
  const rows: MixtureFitRow[] = [];
  const resolution = new Float64Array(2 * plan.configs);
  const seconds = new Map<string, number>();
  for (const t of mixtureTasks(plan)) {
    const part = results.get(t.id) as MixtureChunk;
    for (const r of part.rows) {
      const [an, bn] = FAMILIES[r.family].paramNames;
      rows.push({ ...r, mixture: new Mixture(r.family, r.params.w, r.params[an], r.params[bn]) });
    }
    resolution.set(part.resolution, 2 * part.c0);
    for (const [key, s] of part.seconds) seconds.set(key, (seconds.get(key) ?? 0) + s);
  }
  for (const [key, s] of seconds) seconds.set(key, s / Math.max(plan.configs, 1));
  return { rows, secondsPerFit: seconds, resolution };
}

/** The context of a mixture job, its big arrays in shared memory for the workers. */
export function mixtureContext(runs: Float64Array, offsets: Int32Array, configIds: Int32Array, o: PlanOptions): MixtureContext {
  return { plan: mixturePlan(runs, offsets, configIds, o), runs: sharedCopy(runs), offsets: sharedCopy(offsets), configIds: sharedCopy(configIds) };
}

/**
 * The same result as fitMixtures(runs, offsets, opts) (rows, order and best flags identical), computed on
 * `workers` threads by the job engine without an output directory; workers ≤ 1 or a single chunk runs in this
 * thread. secondsPerFit is CPU time per fit summed over the threads, as on one thread.
 */
export async function fitMixturesParallel(runs: Float64Array, offsets: Int32Array, opts: MixtureFitOptions & { workers: number }): Promise<MixtureFitResult> {
  const { workers, backend: _b, configIds, ...rest } = opts;
  const nconf = offsets.length - 1;
  if (workers <= 1 || nconf <= MIXTURE_CHUNK) return fitMixtures(runs, offsets, opts);
  const ctx = mixtureContext(runs, offsets, configIds ?? Int32Array.from({ length: nconf }, (_, i) => i), rest);
  const done = new Map<string, unknown>();
  const sink = { done, append: (records: readonly { id: string; result: unknown }[]) => records.forEach((r) => done.set(r.id, r.result)) };
  await runTasks(job, ctx, mixtureTasks(ctx.plan), sink, { workers, progress: silentProgress });
  return assembleFits(ctx.plan, done);
}
