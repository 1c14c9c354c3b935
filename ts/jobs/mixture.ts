// `varmap mixture` as a job: every (family, k) mixture of every configuration's runs, in chunks of
// configurations. Each chunk is fitted with its global configuration ids (they key the random starts), so the fits
// do not depend on the chunking, the worker count or a resume. `fitMixturesParallel` runs the same tasks without
// an output directory (the API and the benches); the mixture verb runs them as a resumable job (ts/verbs/mixture.ts).
// Refit's mixture tasks (best model and BIC per configuration, fitMixtureChunk) fit their chunks with the same fitChunk.
import { createHash } from "node:crypto";
import type { MixtureStarts } from "../backend/kernels/mixture.js";
import { FAMILIES, type FamilyName } from "../mixture/families.js";
import { fitMixtures, type MixtureFitOptions, type MixtureFitResult, type MixtureFitRow } from "../mixture/fit.js";
import { Mixture } from "../mixture/model.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { runTasks } from "../pool/pool.js";
import { silentProgress } from "../pool/progress.js";
import { sharedCopy } from "../pool/threads.js";
import { writeFileAtomic } from "../data/atomic.js";
import { tableCsv } from "../data/write.js";
import { parseGuard, type Criterion, type GuardSetting } from "../mixture/select.js";
import { heldOutSumsHere } from "./mixture-cv.js";
import { cvScoresOf, selectWith } from "./mixture-validate.js";
import { fitColumns, stdErrorsOfBest } from "./mixture-table.js";
import { summarizeFits } from "../mixture/tables.js";
import { chooseGuarded } from "../mixture/select.js";
import type { RefitMixturePlan } from "./refit.js";

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
  /**
   * A job that writes its own fits table (`--shard`, `varmap merge`): the selection, the key column names. Each task
   * then selects, computes standard errors and returns its configurations' key values, so the table can be written
   * from the results alone. Absent for the unsharded `--out table` run (its plan unchanged).
   */
  table?: MixtureTableSpec;
}

export interface MixtureTableSpec {
  criterion: Criterion;
  guard: GuardSetting;
  folds: number;
  factors: string[];
  inputs: string[];
}

/** The file a table job writes into its directory. */
export const MIXTURE_TABLE = "fits.csv";

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
  /** With plan.table: each fitted configuration's factor values and inputs (row-major). */
  keys?: { factors: string[][]; inputs: Float64Array };
}

/** A task's result: the fits without their Mixture objects (rebuilt by assembleFits), timings and resolutions. */
export interface MixtureChunk {
  c0: number;
  rows: Omit<MixtureFitRow, "mixture">[];
  /** Per (family:k): seconds summed over the chunk's configurations. */
  seconds: [string, number][];
  resolution: number[];
  /** With plan.table: the chunk's selection (local row indices), standard errors and key values. */
  table?: {
    score: (number | null)[];
    verdict: string[];
    chosen: number[];
    guardBinds: number;
    ineligible: number;
    se: (Record<string, (number | null)[]> | null)[];
    factors: string[][];
    inputs: number[];
  };
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

/**
 * The one chunk fit of every mixture job (mixture, refit): every (family, k) mixture of configurations c0..c1−1,
 * their runs rebased to the chunk, keyed by `ids` (global configuration ids: the random starts), so the fits do not
 * depend on the chunking. Returns the fit, the chunk's runs and offsets.
 */
export function fitChunk(
  runs: Float64Array,
  offsets: Int32Array,
  ids: Int32Array,
  c0: number,
  c1: number,
  options: PlanOptions,
): { fit: MixtureFitResult; x: Float64Array; off: Int32Array } {
  const base = offsets[c0];
  const off = Int32Array.from({ length: c1 - c0 + 1 }, (_, i) => offsets[c0 + i] - base);
  const x = runs.subarray(base, offsets[c1]);
  return { fit: fitMixtures(x, off, { ...options, configIds: ids }), x, off };
}

function runMixtureTask(ctx: MixtureContext, { c0, c1 }: MixtureTask): MixtureChunk {
  const { runs, offsets, configIds, plan } = ctx;
  const { format: _f, version: _v, verb: _b, fingerprint: _p, configs: _c, chunk: _k, table: spec, ...options } = plan;
  const ids = configIds.slice(c0, c1);
  const { fit, x, off } = fitChunk(runs, offsets, ids, c0, c1, options);
  const chunk: MixtureChunk = {
    c0,
    rows: fit.rows.map(({ mixture: _m, ...plain }) => ({ ...plain, config: plain.config + c0 })),
    seconds: [...fit.secondsPerFit].map(([key, mean]) => [key, mean * (c1 - c0)] as [string, number]),
    resolution: Array.from(fit.resolution),
  };
  if (!spec || !ctx.keys) return chunk;
  // As the verb selects over the whole fit: per configuration, cv folds keyed by the global configuration id.
  const guard = parseGuard(spec.guard);
  const fitOpts = { ...options };
  const cv = spec.criterion === "cv" ? cvScoresOf(heldOutSumsHere(x, off, ids, { folds: spec.folds, seed: plan.seed ?? 1, fit: fitOpts }), off) : undefined;
  const custom = spec.criterion !== "bic" || guard.on;
  const sel = custom ? selectWith(x, off, fit, { criterion: spec.criterion, guard }, cv) : undefined;
  if (sel) {
    fit.rows.forEach((r) => (r.best = false));
    for (const i of sel.chosen) if (i >= 0) fit.rows[i].best = true;
    chunk.rows.forEach((r, i) => (r.best = fit.rows[i].best));
  }
  const d = spec.inputs.length;
  chunk.table = {
    score: sel ? Array.from(sel.score, (v) => (Number.isFinite(v) ? v : null)) : [],
    verdict: sel ? sel.verdict : [],
    chosen: sel ? Array.from(sel.chosen) : [],
    guardBinds: sel?.guardBinds ?? 0,
    ineligible: sel?.ineligible ?? 0,
    se: stdErrorsOfBest(fit, x, off),
    factors: Array.from({ length: c1 - c0 }, (_, c) => ctx.keys!.factors[c0 + c]),
    inputs: Array.from(ctx.keys.inputs.subarray(c0 * d, c1 * d)),
  };
  return chunk;
}

/** The fits table written from the results alone (a sharded job's merge writes exactly what one run writes). */
function writeMixtureTable(plan: MixturePlan, results: ReadonlyMap<string, unknown>, dir: string): Record<string, unknown> {
  const spec = plan.table;
  if (!spec) return {};
  const fit = assembleFits(plan, results);
  const parts = mixtureTasks(plan).map((t) => (results.get(t.id) as MixtureChunk).table!);
  const factors = parts.flatMap((p) => p.factors);
  const inputs = parts.flatMap((p) => p.inputs);
  const d = spec.inputs.length;
  const guard = parseGuard(spec.guard);
  const custom = spec.criterion !== "bic" || guard.on;
  const selection = custom
    ? {
        score: Float64Array.from(
          parts.flatMap((p) => p.score),
          (v) => (v === null ? Number.NaN : v),
        ),
        verdict: parts.flatMap((p) => p.verdict) as never[],
      }
    : undefined;
  const keys = {
    factors: spec.factors,
    inputs: spec.inputs,
    factor: (f: number, c: number) => factors[c][f],
    input: (j: number, c: number) => inputs[c * d + j],
  };
  writeFileAtomic(
    `${dir}/${MIXTURE_TABLE}`,
    tableCsv(
      fitColumns(
        fit,
        keys,
        parts.flatMap((p) => p.se),
        selection,
        spec.criterion,
      ),
    ),
  );
  const summary = summarizeFits(fit, plan.families, plan.kmax);
  return {
    ...summary,
    ...(custom ? { guardBinds: parts.reduce((s, p) => s + p.guardBinds, 0), ineligible: parts.reduce((s, p) => s + p.ineligible, 0) } : {}),
  };
}

export const job: JobDefinition<MixturePlan, MixtureTask, MixtureContext> = {
  verb: "mixture",
  module: import.meta.url,
  tasks: mixtureTasks,
  run: runMixtureTask,
  // Unsharded, the fits table goes where the user's --out says (any table format), written by the verb from the
  // results; a table job (--shard, merge) writes fits.csv into its directory.
  files: (plan) => (plan.table ? [MIXTURE_TABLE] : []),
  write: writeMixtureTable,
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

/** Every configuration's runs in shared memory (offsets per configuration) and each configuration's key columns. */
export interface MixRuns {
  runs: Float64Array;
  offsets: Int32Array;
  keys: string[][];
}

/** The chosen fit as a task result carries it (the row without its Mixture object, which does not serialize). */
export type MixBest = Pick<MixtureFitRow, "family" | "k" | "loglik" | "bic" | "iterations" | "converged" | "floorBound" | "params">;

export interface MixResult {
  configs: {
    /** The configuration's factor and input values. */
    key: string[];
    n: number;
    /** The chosen model: BIC-best, among guard-eligible fits when the plan has a guard. */
    best: MixBest | null;
    /** BIC of every (family, k), families in the plan's order, k = 1..kmax. */
    bic: (number | null)[];
  }[];
}

/** The mixtures of configurations c0..c1−1 (global indices key the random starts). */
export function fitMixtureChunk(data: MixRuns, m: RefitMixturePlan, c0: number, c1: number): MixResult {
  const { runs, offsets, keys } = data;
  const ids = Int32Array.from({ length: c1 - c0 }, (_, i) => c0 + i);
  const { fit, off } = fitChunk(runs, offsets, ids, c0, c1, {
    families: m.families as FamilyName[],
    kmax: m.kmax,
    seed: m.seed,
    starts: m.starts,
    priorStrength: m.priorStrength || undefined,
  });
  const guard = parseGuard(m.guard ?? "off");
  const out: MixResult = { configs: [] };
  const perConfig = m.families.length * m.kmax;
  for (let i = 0; i < ids.length; i++) {
    const rows = fit.rows.slice(i * perConfig, (i + 1) * perConfig);
    const x = runs.subarray(offsets[c0 + i], offsets[c0 + i + 1]);
    const b = guard.on ? rows[chooseGuarded(rows, x, "bic", guard)] : rows.find((r) => r.best);
    out.configs.push({
      key: keys[c0 + i],
      n: off[i + 1] - off[i],
      best: b
        ? {
            family: b.family,
            k: b.k,
            loglik: b.loglik,
            bic: b.bic,
            iterations: b.iterations,
            converged: b.converged,
            floorBound: b.floorBound,
            params: b.params,
          }
        : null,
      bic: rows.map((r) => (Number.isFinite(r.bic) ? r.bic : null)),
    });
  }
  return out;
}

/** The context of a mixture job, its big arrays in shared memory for the workers. */
export function mixtureContext(
  runs: Float64Array,
  offsets: Int32Array,
  configIds: Int32Array,
  o: PlanOptions,
  table?: { spec: MixtureTableSpec; factors: string[][]; inputs: Float64Array },
): MixtureContext {
  const plan = mixturePlan(runs, offsets, configIds, o);
  const ctx: MixtureContext = { plan, runs: sharedCopy(runs), offsets: sharedCopy(offsets), configIds: sharedCopy(configIds) };
  if (table) {
    plan.table = table.spec;
    ctx.keys = { factors: table.factors, inputs: sharedCopy(table.inputs) };
  }
  return ctx;
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
