// `varmap convergence` as a job: tasks are chunks of configurations, each measuring its configurations' CI-width
// curves; the writer predicts held-out configurations (--predict: every map's divisions, after all curves are
// known) and writes convergence.csv and curves.csv in configuration order.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { tableCsv } from "../data/write.js";
import { writeFileAtomic } from "../data/write.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { measureConvergence, type ConvergenceOptions, type ConvergenceResult } from "../convergence/convergence.js";
import { convergenceColumns, convergenceCurveColumns, convergenceSummary, predictAll, type MapSpec, type PredictOptions } from "../convergence/outputs.js";

export interface ConvergencePlan extends JobPlan {
  verb: "convergence";
  options: ConvergenceOptions;
  predict: PredictOptions | null;
  /** The maps (with --predict): configuration indices and inputs. */
  maps: MapSpec[] | null;
  keys: { factors: string[]; inputs: string[] };
  configs: number;
  chunk: number;
  curves: boolean;
}

export interface ConvergenceTask {
  id: string;
  c0: number;
  c1: number;
}

export interface ConvergenceContext extends JobContext<ConvergencePlan> {
  runs: Float64Array;
  offsets: Int32Array;
  keys: string[][];
}

interface TaskResult {
  results: ConvergenceResult[];
  keys: string[][];
}

export function convergenceFingerprint(runs: Float64Array, offsets: Int32Array, keys: string[][]): string {
  const h = createHash("sha256");
  h.update(new Uint8Array(runs.buffer, runs.byteOffset, runs.byteLength));
  h.update(new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength));
  h.update(JSON.stringify(keys));
  return h.digest("hex").slice(0, 16);
}

/** Typed arrays travel through results.jsonl as objects/arrays and NaN as null: back to numbers. */
function revive(r: ConvergenceResult): ConvergenceResult {
  const arr = (a: ArrayLike<number | null> | Record<string, number | null>) =>
    Float64Array.from(Array.isArray(a) || ArrayBuffer.isView(a) ? (a as ArrayLike<number | null>) : Object.values(a), (v) => (v === null ? NaN : v));
  const n = (v: number | null) => (v === null ? NaN : v);
  return {
    ...r,
    m: Int32Array.from(arr(r.m as unknown as number[])),
    s: arr(r.s),
    w: arr(r.w),
    lower: arr(r.lower),
    upper: arr(r.upper),
    c: arr(r.c),
    points: r.points.map(n),
    analytic: r.analytic.map(n),
    needed: n(r.needed),
    relHalfWidthN: n(r.relHalfWidthN),
  };
}

/** Plain arrays for JSON (a Float64Array would serialize as an object). */
function plain(r: ConvergenceResult): ConvergenceResult {
  return {
    ...r,
    m: Array.from(r.m),
    s: Array.from(r.s),
    w: Array.from(r.w),
    lower: Array.from(r.lower),
    upper: Array.from(r.upper),
    c: Array.from(r.c),
  } as unknown as ConvergenceResult;
}

export function measureChunk(ctx: ConvergenceContext, c0: number, c1: number): ConvergenceResult[] {
  const out: ConvergenceResult[] = [];
  for (let c = c0; c < c1; c++) out.push(measureConvergence(ctx.runs.subarray(ctx.offsets[c], ctx.offsets[c + 1]), ctx.plan.options, c));
  return out;
}

/** convergence.csv / curves.csv columns and the summary from every configuration's measured curves. */
export function convergenceOutputs(plan: ConvergencePlan, results: ConvergenceResult[], keyValues: string[][]) {
  const keys = { ...plan.keys, values: keyValues };
  let predicted: ReturnType<typeof predictAll>["predicted"] | undefined;
  let pred: Parameters<typeof convergenceSummary>[2];
  if (plan.predict && plan.maps) {
    const p = predictAll(plan.maps, results, plan.options, plan.predict);
    predicted = p.predicted;
    pred = { ...plan.predict, widthAREatN: p.widthAREatN, lowerAREatN: p.lowerAREatN, upperAREatN: p.upperAREatN, predictedConfigurations: p.predicted.size };
  }
  return {
    table: convergenceColumns(keys, results, plan.options, predicted),
    curves: plan.curves ? convergenceCurveColumns(keys, results, predicted) : undefined,
    summary: convergenceSummary(results, plan.options, pred),
  };
}

export const job: JobDefinition<ConvergencePlan, ConvergenceTask, ConvergenceContext> = {
  verb: "convergence",
  module: import.meta.url,
  tasks(plan) {
    const out: ConvergenceTask[] = [];
    for (let c0 = 0; c0 < plan.configs; c0 += plan.chunk) {
      const c1 = Math.min(plan.configs, c0 + plan.chunk);
      out.push({ id: `conv:${c0}-${c1}`, c0, c1 });
    }
    return out;
  },
  run(ctx, task): TaskResult {
    return { results: measureChunk(ctx, task.c0, task.c1).map(plain), keys: ctx.keys.slice(task.c0, task.c1) };
  },
  files(plan) {
    return plan.curves ? ["convergence.csv", "curves.csv"] : ["convergence.csv"];
  },
  write(plan, results, dir) {
    const rs: ConvergenceResult[] = [];
    const keyValues: string[][] = [];
    for (const t of job.tasks(plan)) {
      const r = results.get(t.id) as TaskResult;
      rs.push(...r.results.map(revive));
      keyValues.push(...r.keys);
    }
    const out = convergenceOutputs(plan, rs, keyValues);
    writeFileAtomic(join(dir, "convergence.csv"), tableCsv(out.table));
    if (out.curves) writeFileAtomic(join(dir, "curves.csv"), tableCsv(out.curves));
    return out.summary;
  },
};
