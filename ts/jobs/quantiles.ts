// `varmap quantiles` as a job: tasks are chunks of configurations; each configuration's runs are sorted and every
// asked-for quantile gets its estimate and distribution-free confidence interval (ts/data/stats.ts). The writer puts
// the rows in configuration order into quantiles.csv, so shards merged write exactly what one unsharded run writes.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { quantile7, quantileInterval, runsForQuantileInterval } from "../data/stats.js";
import { tableCsv, writeFileAtomic, type Column } from "../data/write.js";
import { configKeys, type KeyValue } from "../evt/table.js";
import type { ConfigTable } from "../data/types.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";

export const QUANTILES_FILE = "quantiles.csv";
/** Configurations per task: sorting 1,000 configurations of 150 runs takes milliseconds; checkpoints stay frequent. */
export const QUANTILES_CHUNK = 1000;

export interface QuantilesPlan extends JobPlan {
  verb: "quantiles";
  /** Probabilities in (0, 1), in the order of the columns. */
  probs: number[];
  /** Confidence level of the intervals. */
  level: number;
  configs: number;
  keyNames: string[];
  chunk: number;
}

export interface QuantilesContext extends JobContext<QuantilesPlan> {
  runs: Float64Array;
  offsets: Int32Array;
  keys: KeyValue[][];
}

interface QuantilesTask {
  id: string;
  c0: number;
  c1: number;
}

/** One task's rows: per configuration its key, run count and, per probability, estimate, low, high, coverage. */
interface QuantilesTaskResult {
  keys: KeyValue[][];
  runs: number[];
  cells: number[][];
}

/** `0.99` → `q99`, `0.999` → `q99_9`, `0.5` → `q50`: the column prefix of a probability. */
export function quantileLabel(p: number): string {
  return `q${String(Number((p * 100).toPrecision(12))).replace(".", "_")}`;
}

/** The plan and context of a dataset's configurations (runs in shared memory for the workers). */
export function quantilesSetup(t: ConfigTable, probs: number[], level: number, chunk: number, share: <A extends Float64Array | Int32Array>(a: A) => A) {
  const keys = configKeys(t);
  const h = createHash("sha256");
  h.update(JSON.stringify(keys));
  h.update(new Uint8Array(t.runs.buffer, t.runs.byteOffset, t.runs.byteLength));
  h.update(new Uint8Array(t.offsets.buffer, t.offsets.byteOffset, t.offsets.byteLength));
  const ctx = { runs: share(t.runs), offsets: share(t.offsets), keys: keys.values };
  const plan: QuantilesPlan = {
    format: "varmap-job",
    version: 1,
    verb: "quantiles",
    fingerprint: h.digest("hex").slice(0, 32),
    probs,
    level,
    configs: t.count,
    keyNames: keys.names,
    chunk,
  };
  return { ...ctx, plan };
}

export const job: JobDefinition<QuantilesPlan, QuantilesTask, QuantilesContext> = {
  verb: "quantiles",
  module: import.meta.url,
  tasks(plan) {
    const out: QuantilesTask[] = [];
    for (let c0 = 0; c0 < plan.configs; c0 += plan.chunk)
      out.push({ id: `quantiles:${c0}-${Math.min(plan.configs, c0 + plan.chunk)}`, c0, c1: Math.min(plan.configs, c0 + plan.chunk) });
    return out;
  },
  run(ctx, task): QuantilesTaskResult {
    const runs: number[] = [];
    const cells: number[][] = [];
    for (let c = task.c0; c < task.c1; c++) {
      const sorted = ctx.runs.slice(ctx.offsets[c], ctx.offsets[c + 1]).sort();
      runs.push(sorted.length);
      cells.push(
        ctx.plan.probs.flatMap((p) => {
          const ci = quantileInterval(sorted, p, ctx.plan.level);
          return [quantile7(sorted, p), ci.low, ci.high, ci.coverage];
        }),
      );
    }
    return { keys: ctx.keys.slice(task.c0, task.c1), runs, cells };
  },
  files() {
    return [QUANTILES_FILE];
  },
  write(plan, results, dir) {
    const { columns, summary } = quantilesTable(plan, results);
    writeFileAtomic(join(dir, QUANTILES_FILE), tableCsv(columns));
    return summary;
  },
};

/**
 * Every task's rows in configuration order as a table, and the summary: per probability, the configurations whose
 * interval is closed on both sides and the runs that close it.
 */
export function quantilesTable(plan: QuantilesPlan, results: ReadonlyMap<string, unknown>) {
  const rows: QuantilesTaskResult = { keys: [], runs: [], cells: [] };
  for (const t of job.tasks(plan)) {
    const r = results.get(t.id) as QuantilesTaskResult | undefined;
    if (!r) throw new Error(`internal: no result for task ${t.id}`);
    rows.keys.push(...r.keys);
    rows.runs.push(...r.runs);
    rows.cells.push(...r.cells);
  }
  const columns: Column[] = plan.keyNames.map((name, j) => {
    const values = rows.keys.map((k) => k[j]);
    return { name, values, type: values.some((v) => typeof v === "string") ? "string" : "double" };
  });
  columns.push({ name: "runs", values: Int32Array.from(rows.runs) });
  const fields = ["", "_low", "_high", "_coverage"];
  // An open side (too few runs for the level) is an empty cell, not a number.
  plan.probs.forEach((p, i) =>
    fields.forEach((f, k) =>
      columns.push({ name: `${quantileLabel(p)}${f}`, values: rows.cells.map((c) => (Number.isNaN(c[4 * i + k]) ? null : c[4 * i + k])), type: "double" }),
    ),
  );
  const closed = plan.probs.map((_, i) => rows.cells.filter((c) => !Number.isNaN(c[4 * i + 1]) && !Number.isNaN(c[4 * i + 2])).length);
  return {
    columns,
    summary: {
      configurations: rows.runs.length,
      quantiles: plan.probs.map((p, i) => ({ p, column: quantileLabel(p), closed: closed[i], runsNeeded: runsForQuantileInterval(p, plan.level) })),
    },
  };
}
