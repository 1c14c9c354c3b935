// `varmap samplesize` as a job: tasks are chunks of configurations; a task fits the chunk's mixtures (or takes
// the given --fits), chooses each configuration's model and computes its SampleSizeRow. The writer assembles
// samplesize.csv (and curves.csv) in configuration order, so shards merged write what one run writes.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { tableCsv } from "../data/write.js";
import { writeFileAtomic } from "../data/write.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { fitMixtures } from "../mixture/fit.js";
import type { FamilyName } from "../mixture/families.js";
import type { MixtureStarts } from "../backend/kernels/mixture.js";
import { Mixture } from "../mixture/model.js";
import { chooseFit, sampleSizeRow, type CandidateFit, type SampleSizeOptions, type SampleSizeRow } from "../mixture/samplesize-config.js";
import { curveColumns, samplesizeColumns, samplesizeSummary, type TableKeys } from "../mixture/samplesize-table.js";

export interface SampleSizeFitOptions {
  families: FamilyName[];
  kmax: number;
  restarts: number;
  seed: number;
  starts: MixtureStarts;
}

export interface SampleSizePlan extends JobPlan {
  verb: "samplesize";
  options: SampleSizeOptions;
  /** Fit options; null when the fits are given (--fits, in the context). */
  fit: SampleSizeFitOptions | null;
  pilot: number | null;
  /** n values of curves.csv; null: no curves. */
  curves: number[] | null;
  keys: { factors: string[]; inputs: string[] };
  configs: number;
  chunk: number;
}

export interface SampleSizeTask {
  id: string;
  c0: number;
  c1: number;
}

/** A candidate fit as it travels to the workers (structured clone, no class instances). */
export interface FitJSON {
  family: FamilyName;
  k: number;
  bic: number;
  floorBound: boolean;
  best: boolean;
  w: number[];
  a: number[];
  b: number[];
}

export interface SampleSizeContext extends JobContext<SampleSizePlan> {
  runs: Float64Array;
  offsets: Int32Array;
  /** Per configuration: factor values, then inputs as strings. */
  keys: string[][];
  /** --fits: candidate fits per configuration. */
  fits?: FitJSON[][];
}

interface TaskResult {
  rows: SampleSizeRow[];
  full?: SampleSizeRow[];
  keys?: string[][];
}

export function toFitJSON(f: CandidateFit): FitJSON {
  return { family: f.family, k: f.k, bic: f.bic, floorBound: f.floorBound, best: f.best, w: [...f.mixture.w], a: [...f.mixture.a], b: [...f.mixture.b] };
}

function fromFitJSON(f: FitJSON): CandidateFit {
  return { family: f.family, k: f.k, bic: f.bic ?? NaN, floorBound: f.floorBound, best: f.best, mixture: new Mixture(f.family, f.w, f.a, f.b) };
}

/** The data's fingerprint: runs, offsets, keys and the given fits. */
export function samplesizeFingerprint(runs: Float64Array, offsets: Int32Array, keys: string[][], fits?: FitJSON[][]): string {
  const h = createHash("sha256");
  h.update(new Uint8Array(runs.buffer, runs.byteOffset, runs.byteLength));
  h.update(new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength));
  h.update(JSON.stringify(keys));
  if (fits) h.update(JSON.stringify(fits));
  return h.digest("hex").slice(0, 16);
}

/** Chunk: enough configurations to amortize a batched fit, small enough to balance workers and resume finely. */
export function samplesizeChunk(configs: number, fitting: boolean): number {
  return fitting ? 8 : Math.max(8, Math.min(256, Math.ceil(configs / 64)));
}

function candidatesOfChunk(ctx: SampleSizeContext, c0: number, c1: number, pilot: number | null): CandidateFit[][] {
  const plan = ctx.plan;
  if (!plan.fit) return Array.from({ length: c1 - c0 }, (_, i) => (ctx.fits?.[c0 + i] ?? []).map(fromFitJSON));
  const parts: Float64Array[] = [];
  const off = new Int32Array(c1 - c0 + 1);
  for (let c = c0; c < c1; c++) {
    const a = ctx.offsets[c],
      b = ctx.offsets[c + 1];
    parts.push(ctx.runs.subarray(a, pilot === null ? b : Math.min(b, a + pilot)));
    off[c - c0 + 1] = off[c - c0] + parts[c - c0].length;
  }
  const runs = new Float64Array(off[c1 - c0]);
  parts.forEach((p, i) => runs.set(p, off[i]));
  const f = plan.fit;
  const fit = fitMixtures(runs, off, {
    families: f.families,
    kmax: f.kmax,
    restarts: f.restarts,
    seed: f.seed,
    starts: f.starts,
    configIds: Int32Array.from({ length: c1 - c0 }, (_, i) => c0 + i),
  });
  const out: CandidateFit[][] = Array.from({ length: c1 - c0 }, () => []);
  for (const r of fit.rows) out[r.config].push({ family: r.family, k: r.k, bic: r.bic, floorBound: r.floorBound, best: r.best, mixture: r.mixture });
  return out;
}

/** Rows of configurations c0..c1−1 (also used in-process by the CLI's direct path). */
export function samplesizeChunkRows(ctx: SampleSizeContext, c0: number, c1: number): TaskResult {
  const plan = ctx.plan;
  const cands = candidatesOfChunk(ctx, c0, c1, plan.pilot);
  const fullCands = plan.pilot !== null ? candidatesOfChunk(ctx, c0, c1, null) : undefined;
  const rows: SampleSizeRow[] = [],
    full: SampleSizeRow[] = [];
  for (let c = c0; c < c1; c++) {
    const a = ctx.offsets[c],
      b = ctx.offsets[c + 1];
    const used = ctx.runs.slice(a, plan.pilot === null ? b : Math.min(b, a + plan.pilot));
    rows.push(sampleSizeRow(used, b - a, chooseFit(cands[c - c0], plan.options.model), plan.options, c));
    if (fullCands) full.push(sampleSizeRow(ctx.runs.slice(a, b), b - a, chooseFit(fullCands[c - c0], plan.options.model), plan.options, c));
  }
  return fullCands ? { rows, full } : { rows };
}

/** JSON turned NaN into null in results.jsonl: numbers read back as NaN for the table builders. */
function revive(r: SampleSizeRow): SampleSizeRow {
  const n = (v: number | null) => (v === null ? NaN : v);
  return {
    ...r,
    center: n(r.center),
    cv: n(r.cv),
    kurtosis: n(r.kurtosis),
    neededMean: n(r.neededMean),
    neededSd: n(r.neededSd),
    neededVar: n(r.neededVar),
    needed: r.needed.map(n),
    quantiles: r.quantiles.map((q) => ({ q: q.q, xq: n(q.xq), se1: n(q.se1), gamma1: n(q.gamma1), gammaN: n(q.gammaN), needed: q.needed.map(n) })),
  };
}

export const job: JobDefinition<SampleSizePlan, SampleSizeTask, SampleSizeContext> = {
  verb: "samplesize",
  module: import.meta.url,
  tasks(plan) {
    const out: SampleSizeTask[] = [];
    for (let c0 = 0; c0 < plan.configs; c0 += plan.chunk) {
      const c1 = Math.min(plan.configs, c0 + plan.chunk);
      out.push({ id: `ss:${c0}-${c1}`, c0, c1 });
    }
    return out;
  },
  run(ctx, task) {
    // The result carries its configurations' keys: the writer (and merge) need nothing but the results.
    return { ...samplesizeChunkRows(ctx, task.c0, task.c1), keys: ctx.keys.slice(task.c0, task.c1) };
  },
  files(plan) {
    return plan.curves ? ["samplesize.csv", "curves.csv"] : ["samplesize.csv"];
  },
  write(plan, results, dir) {
    const rows: SampleSizeRow[] = [],
      full: SampleSizeRow[] = [];
    const keyValues: string[][] = [];
    for (const t of job.tasks(plan)) {
      const r = results.get(t.id) as TaskResult;
      rows.push(...r.rows.map(revive));
      if (r.full) full.push(...r.full.map(revive));
      keyValues.push(...(r.keys ?? []));
    }
    const keys: TableKeys = { ...plan.keys, values: keyValues };
    writeFileAtomic(join(dir, "samplesize.csv"), tableCsv(samplesizeColumns(keys, rows, plan.options, plan.pilot !== null ? full : undefined)));
    if (plan.curves) writeFileAtomic(join(dir, "curves.csv"), tableCsv(curveColumns(keys, rows, plan.curves)));
    return { ...samplesizeSummary(rows, plan.options) };
  },
};
