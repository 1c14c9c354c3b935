// `varmap cv` through the pool: per (map, method, p) the mean and sd of ARE over repetitions, and the Table 2
// summary (seed 000: ARE per training fraction and method, averaged over maps) as Markdown and CSV.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import { csvRow, csvText, formatValue, writeFileAtomic } from "./files.js";
import type { OutputWriter } from "./job.js";
import type { SplitsFile } from "../cv/splits.js";
import type { CellValue, Column } from "../data/write.js";
import { planTasks, type CvPlan, type Plan } from "./plan.js";
import { fingerprint, type SharedMaps } from "./shared-maps.js";
import type { CvResult } from "./work.js";

/** Repetitions per task: enough work per task to amortize dispatch, small enough to balance and checkpoint often. */
export const REP_CHUNK = 25;
export const SPLIT_CHUNK = 20;

export type GivenSplits = SplitsFile;

export interface CvOptions {
  methods: string[];
  methodOptions?: Record<string, Record<string, unknown>>;
  response: "linear" | "log";
  ps?: number[];
  reps?: number;
  seed?: string;
  splits?: GivenSplits;
  predictions?: boolean;
  /** Per map, the row ids the given splits refer to (the --id column); default the row positions. */
  ids?: (number | string)[][];
}

export function cvPlan(maps: SharedMaps, o: CvOptions): { plan: CvPlan; givenTrain?: number[][][] } {
  const factors = Object.keys(maps.meta[0]?.key ?? {});
  const base = {
    format: "varmap-job" as const,
    version: 1 as const,
    verb: "cv" as const,
    fingerprint: fingerprint(maps),
    factors,
    maps: maps.meta.map((m) => ({ values: factors.map((f) => m.key[f]), rows: m.rows, inputs: m.inputNames })),
    methods: o.methods,
    ...(o.methodOptions && Object.keys(o.methodOptions).length ? { methodOptions: o.methodOptions } : {}),
    response: o.response,
  };
  if (!o.splits) {
    const reps = o.reps ?? 200;
    if (!Number.isInteger(reps) || reps < 1) throw new VarmapError("E_USAGE", `--reps ${reps} is not a positive integer`, { remedy: "e.g. --reps 200" });
    return { plan: { ...base, generated: { ps: o.ps ?? [], reps, seed: o.seed ?? "1", repChunk: REP_CHUNK } } };
  }
  const sp = o.splits;
  const givenTrain = maps.meta.map((m, mi) => {
    const ids = o.ids?.[mi];
    const pos = new Map<string, number>();
    for (let r = 0; r < m.rows; r++) pos.set(String(ids ? ids[r] : r), r);
    return sp.splits.map((s, si) =>
      s.train.map((id) => {
        const r = pos.get(String(id));
        if (r === undefined)
          throw new VarmapError("E_SPLITS", `split ${si} (p=${s.p}, rep=${s.rep}) names row ${id}, which map ${mi + 1} of ${m.rows} rows does not have`, {
            location: { file: sp.source },
            remedy: "give splits whose indices are the map's --id values (or row positions 0..n−1 without --id)",
          });
        return r;
      }),
    );
  });
  const hash = createHash("sha256").update(JSON.stringify(sp.splits)).digest("hex").slice(0, 32);
  return {
    plan: { ...base, given: { source: sp.source, hash, labels: sp.splits.map((s) => ({ p: s.p, rep: s.rep })), chunk: SPLIT_CHUNK, predictions: !!o.predictions } },
    givenTrain,
  };
}

interface Cell {
  map: number;
  method: string;
  p: number;
  values: number[];
  failed: number;
}

/** The ARE values of every (map, method, p), in task order, from the tasks' results. */
function cells(plan: CvPlan, results: ReadonlyMap<string, unknown>): Cell[] {
  const byKey = new Map<string, Cell>();
  const out: Cell[] = [];
  const cell = (map: number, method: string, p: number): Cell => {
    const k = `${map}\u0000${method}\u0000${p}`;
    let c = byKey.get(k);
    if (!c) byKey.set(k, (c = { map, method, p, values: [], failed: 0 })), out.push(c);
    return c;
  };
  for (const t of planTasks(plan)) {
    const r = results.get(t.id) as CvResult | undefined;
    if (!r) throw new Error(`internal: no result for task ${t.id}`);
    if (t.kind === "cv-gen") {
      const c = cell(t.map, t.method, plan.generated!.ps[t.pIndex]);
      for (const v of r.are) v === null ? c.failed++ : c.values.push(v);
    } else if (t.kind === "cv-given") {
      r.are.forEach((v, i) => {
        const c = cell(t.map, t.method, plan.given!.labels[t.s0 + i].p);
        v === null ? c.failed++ : c.values.push(v);
      });
    }
  }
  // Given splits may list p values in any order: report them ascending, as generated ones are.
  return out.sort((a, b) => a.map - b.map || plan.methods.indexOf(a.method) - plan.methods.indexOf(b.method) || a.p - b.p);
}

function mean(v: readonly number[]): number {
  let s = 0;
  for (const x of v) s += x;
  return v.length ? s / v.length : NaN;
}

function sd(v: readonly number[]): number {
  if (v.length < 2) return NaN;
  const m = mean(v);
  let s = 0;
  for (const x of v) s += (x - m) * (x - m);
  return Math.sqrt(s / (v.length - 1));
}

export const CV_FILES = ["are.csv", "table2.csv", "table2.md"];

export const cvWriter: OutputWriter = {
  files(plan: Plan) {
    const p = plan as CvPlan;
    return p.given?.predictions ? [...CV_FILES, "predictions.csv"] : CV_FILES;
  },
  write(planAny: Plan, results, dir) {
    const plan = planAny as CvPlan;
    const cs = cells(plan, results);
    const rows = cs.map((c) => [...plan.maps[c.map].values, c.method, c.p, c.values.length, c.failed, mean(c.values), sd(c.values)]);
    writeFileAtomic(join(dir, "are.csv"), csvText([...plan.factors, "method", "p", "reps", "failed", "are_mean", "are_sd"], rows));

    // Table 2: for each p and method, the mean over maps of the per-map mean ARE (maps where every rep failed left out).
    const ps = [...new Set(cs.map((c) => c.p))].sort((a, b) => a - b);
    const table = ps.map((p) => {
      const row: Record<string, number> = { p };
      for (const m of plan.methods) row[m] = mean(cs.filter((c) => c.p === p && c.method === m && c.values.length).map((c) => mean(c.values)));
      return row;
    });
    writeFileAtomic(join(dir, "table2.csv"), csvText(["p", ...plan.methods.map((m) => `are_${m}`)], table.map((r) => [r.p, ...plan.methods.map((m) => r[m])])));
    const reps = plan.generated ? `${plan.generated.reps} random divisions per p (seed ${plan.generated.seed})` : `the ${plan.given!.labels.length} divisions of ${plan.given!.source}`;
    const pct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(2) : "—");
    const md = [
      `# Cross-validated ARE (Table 2)`,
      ``,
      `Mean absolute relative error of predicting the held-out configurations, in percent, averaged over ${plan.maps.length} map(s) and ${reps}. Training fraction p.`,
      ``,
      `| p | ${plan.methods.join(" | ")} |`,
      `|---|${plan.methods.map(() => "---:").join("|")}|`,
      ...table.map((r) => `| ${formatValue(r.p)} | ${plan.methods.map((m) => pct(r[m])).join(" | ")} |`),
      ``,
    ].join("\n");
    writeFileAtomic(join(dir, "table2.md"), md);

    if (plan.given?.predictions) writePredictions(plan, results, dir);
    const perMap = plan.maps.map((m, i) => ({
      key: Object.fromEntries(plan.factors.map((f, k) => [f, m.values[k]])),
      rows: m.rows,
      methods: Object.fromEntries(
        plan.methods.map((method) => [
          method,
          cs.filter((c) => c.map === i && c.method === method).map((c) => ({ p: c.p, splits: c.values.length, failed: c.failed, are: mean(c.values), sd: sd(c.values) })),
        ]),
      ),
    }));
    return { table2: table, maps: perMap, methods: plan.methods, failedSplits: cs.reduce((s, c) => s + c.failed, 0) };
  },
};

/**
 * Predictions for given splits as columns: [factor columns,] p, rep, index (the test row's id), [method,] prediction;
 * splits in file order, test rows ascending — the format of `varmap cv --splits … --predictions`.
 */
export function predictionColumns(plan: CvPlan, results: ReadonlyMap<string, unknown>): Column[] {
  const methodCol = plan.methods.length > 1;
  const f: string[][] = plan.factors.map(() => []);
  const p: number[] = [], rep: number[] = [], index: CellValue[] = [], method: string[] = [], pred: number[] = [];
  for (const t of planTasks(plan)) {
    if (t.kind !== "cv-given") continue;
    const r = results.get(t.id) as CvResult;
    r.pred!.forEach((values, i) => {
      const lab = plan.given!.labels[t.s0 + i];
      values.forEach((v, j) => {
        plan.factors.forEach((_, k) => f[k].push(plan.maps[t.map].values[k]));
        p.push(lab.p);
        rep.push(lab.rep);
        index.push(r.rows![i][j]);
        method.push(t.method);
        pred.push(v);
      });
    });
  }
  return [
    ...plan.factors.map((name, k) => ({ name, values: f[k], type: "string" as const })),
    { name: "p", values: p },
    { name: "rep", values: Int32Array.from(rep), type: "int" as const },
    { name: "index", values: index },
    ...(methodCol ? [{ name: "method", values: method, type: "string" as const }] : []),
    { name: "prediction", values: Float64Array.from(pred) },
  ];
}

function writePredictions(plan: CvPlan, results: ReadonlyMap<string, unknown>, dir: string): void {
  const cols = predictionColumns(plan, results);
  const n = cols[0].values.length;
  const lines = [csvRow(cols.map((c) => c.name))];
  for (let i = 0; i < n; i++) lines.push(csvRow(cols.map((c) => c.values[i] as string | number)));
  writeFileAtomic(join(dir, "predictions.csv"), lines.join("\n") + "\n");
}
