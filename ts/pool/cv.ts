// `varmap cv` through the pool: per (map, method, p) the mean and sd of ARE over repetitions, and the Table 2
// summary (seed 000: ARE per training fraction and method, averaged over maps) as Markdown and CSV.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import { csvRow, csvText, formatValue, writeFileAtomic } from "./files.js";
import type { OutputWriter } from "./job.js";
import { planTasks, type CvPlan, type Plan } from "./plan.js";
import { fingerprint, type SharedMaps } from "./shared-maps.js";
import type { CvResult } from "./work.js";

/** Repetitions per task: enough work per task to amortize dispatch, small enough to balance and checkpoint often. */
export const REP_CHUNK = 25;
export const SPLIT_CHUNK = 20;

export interface GivenSplits {
  source: string;
  n: number;
  splits: { p: number; rep: number; train: number[] }[];
}

export function readSplits(path: string): GivenSplits {
  let json: { n?: number; splits?: { p: number; rep: number; train: number[] }[] };
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new VarmapError("E_SPLITS", `cannot read the splits file: ${(e as Error).message}`, { location: { file: path }, remedy: 'give a JSON file {"n": N, "splits": [{"p", "rep", "train": [index…]}]}' });
  }
  const splits = json.splits;
  if (!Array.isArray(splits) || !splits.length || splits.some((s) => typeof s?.p !== "number" || typeof s?.rep !== "number" || !Array.isArray(s?.train)))
    throw new VarmapError("E_SPLITS", "the splits file has no list of {p, rep, train}", { location: { file: path }, remedy: 'give a JSON file {"n": N, "splits": [{"p", "rep", "train": [index…]}]}' });
  return { source: path, n: json.n ?? NaN, splits };
}

export interface CvOptions {
  methods: string[];
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
    return { table2: table, maps: plan.maps.length, methods: plan.methods, failedSplits: cs.reduce((s, c) => s + c.failed, 0) };
  },
};

/** predictions.csv for given splits: [map factors,] p, rep, test row id, [method,] prediction; test rows ascending. */
function writePredictions(plan: CvPlan, results: ReadonlyMap<string, unknown>, dir: string): void {
  // One method and one map: exactly the columns of `varmap cv --predictions` (p,rep,index,prediction).
  const multi = plan.maps.length > 1;
  const methodCol = plan.methods.length > 1;
  const head = [...(multi ? plan.factors : []), "p", "rep", "index", ...(methodCol ? ["method"] : []), "prediction"];
  const lines: string[] = [csvRow(head)];
  for (const t of planTasks(plan)) {
    if (t.kind !== "cv-given") continue;
    const r = results.get(t.id) as CvResult;
    r.pred!.forEach((pred, i) => {
      const lab = plan.given!.labels[t.s0 + i];
      const key = multi ? plan.maps[t.map].values : [];
      pred.forEach((v, j) => lines.push(csvRow([...key, lab.p, lab.rep, r.rows![i][j], ...(methodCol ? [t.method] : []), v])));
    });
  }
  writeFileAtomic(join(dir, "predictions.csv"), lines.join("\n") + "\n");
}
