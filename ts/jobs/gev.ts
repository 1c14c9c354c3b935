// `varmap gev` as a job: tasks are chunks of configurations, each fitted in one kernel call; a task's result is
// its configurations' rows (and diagnostics). The writer puts them in configuration order into gev.csv (and
// diagnostics.csv), so shards merged write exactly what one unsharded run writes.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { getBackend } from "../backend/index.js";
import { tableCsv } from "../data/write.js";
import { writeFileAtomic } from "../data/write.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { fitGevConfigs, strictCheck, type GevConfigResult, type GevRunOptions } from "../evt/configs.js";
import { gevDiagColumns, gevTableColumns, type KeyValue } from "../evt/table.js";

export const GEV_FILE = "gev.csv",
  GEV_DIAG_FILE = "diagnostics.csv";
/** Configurations per task: ~0.1 s of kernel time at 150 runs, small enough to balance and checkpoint often. */
export const GEV_CHUNK = 1000;

export interface GevPlan extends JobPlan {
  verb: "gev";
  options: GevRunOptions;
  configs: number;
  keyNames: string[];
  chunk: number;
  /** A configuration without a valid fit is an error (raised by its task: no output files are written). */
  strict: boolean;
}

export interface GevTask {
  id: string;
  c0: number;
  c1: number;
}

export interface GevContext extends JobContext<GevPlan> {
  runs: Float64Array;
  offsets: Int32Array;
  keys: KeyValue[][];
}

interface GevTaskResult {
  keys: KeyValue[][];
  rows: GevConfigResult[];
}

/** The data's fingerprint: runs, offsets, key names and values. */
export function gevFingerprint(runs: Float64Array, offsets: Int32Array, keyNames: string[], keys: KeyValue[][]): string {
  const h = createHash("sha256");
  h.update(JSON.stringify(keyNames));
  h.update(JSON.stringify(keys));
  h.update(new Uint8Array(runs.buffer, runs.byteOffset, runs.byteLength));
  h.update(new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength));
  return h.digest("hex").slice(0, 32);
}

export function gevPlan(ctx: Omit<GevContext, "plan">, keyNames: string[], options: GevRunOptions, strict: boolean, chunk = GEV_CHUNK): GevPlan {
  return {
    format: "varmap-job",
    version: 1,
    verb: "gev",
    fingerprint: gevFingerprint(ctx.runs, ctx.offsets, keyNames, ctx.keys),
    options,
    configs: ctx.offsets.length - 1,
    keyNames,
    chunk,
    strict,
  };
}

export const job: JobDefinition<GevPlan, GevTask, GevContext> = {
  verb: "gev",
  module: import.meta.url,
  tasks(plan) {
    const out: GevTask[] = [];
    for (let c0 = 0; c0 < plan.configs; c0 += plan.chunk) {
      const c1 = Math.min(plan.configs, c0 + plan.chunk);
      out.push({ id: `gev:${c0}-${c1}`, c0, c1 });
    }
    return out;
  },
  run(ctx, task): GevTaskResult {
    const rows = fitGevConfigs(getBackend(), ctx.runs, ctx.offsets, task.c0, task.c1, ctx.plan.options);
    const keys = ctx.keys.slice(task.c0, task.c1);
    if (ctx.plan.strict) strictCheck(rows, (i) => ctx.plan.keyNames.map((k, j) => `${k}=${keys[i][j]}`).join(", "));
    return { keys, rows };
  },
  files(plan) {
    return plan.options.diagnostics ? [GEV_FILE, GEV_DIAG_FILE] : [GEV_FILE];
  },
  write(plan, results, dir) {
    const keys: KeyValue[][] = [];
    const rows: GevConfigResult[] = [];
    for (const t of job.tasks(plan)) {
      const r = results.get(t.id) as GevTaskResult | undefined;
      if (!r) throw new Error(`internal: no result for task ${t.id}`);
      keys.push(...r.keys);
      rows.push(...r.rows);
    }
    if (plan.options.diagnostics) writeFileAtomic(join(dir, GEV_DIAG_FILE), tableCsv(gevDiagColumns(plan.keyNames, keys, rows)));
    writeFileAtomic(join(dir, GEV_FILE), tableCsv(gevTableColumns(plan.keyNames, keys, rows, plan.options)));
    const flags: Record<string, number> = {};
    for (const r of rows) flags[r.flag || "ok"] = (flags[r.flag || "ok"] ?? 0) + 1;
    return { configurations: rows.length, flags };
  },
};
