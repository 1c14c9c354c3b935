// What-if outputs (spec D.3): the candidate table (whatif.csv), the validation table (whatif-validation.csv), and
// the expected ARE read from a `varmap cv` output directory.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import type { Column } from "../data/write.js";
import { mapKey } from "../predict/models-file.js";
import type { Candidates, Predicted } from "./candidates.js";
import type { ModelSet } from "./models.js";
import type { ValidationRow } from "./run.js";
import type { Evaluation } from "./objective.js";
import { readRows } from "./candidates.js";

/**
 * The cross-validated ARE of `method` per map (mapKey → ARE) from `dir/are.csv` (written by `varmap cv`), at its
 * largest training fraction p (the closest to a model fitted on the whole map).
 */
export async function readExpectedAre(dir: string, set: ModelSet, method: string): Promise<Map<string, number>> {
  const path = join(dir, "are.csv");
  if (!existsSync(path))
    throw new VarmapError("E_USAGE", `--cv-dir ${dir} has no are.csv`, {
      location: { file: path },
      remedy: "give the output directory of `varmap cv … --out DIR`",
    });
  const rows = await readRows(path);
  const need = [...set.factors, "method", "p", "are_mean"];
  const have = new Set(rows.length ? Object.keys(rows[0]) : need);
  const missing = need.find((c) => !have.has(c));
  if (missing)
    throw new VarmapError("E_COLUMN", `column '${missing}' is missing`, {
      location: { file: path, column: missing },
      remedy: "run `varmap cv` on the data the models were fitted on",
    });
  const best = new Map<string, { p: number; are: number }>();
  for (const r of rows) {
    if (String(r.method) !== method) continue;
    const key = mapKey(set.factors, Object.fromEntries(set.factors.map((f) => [f, String(r[f])])));
    const p = Number(r.p);
    const are = r.are_mean === null || r.are_mean === "" ? NaN : Number(r.are_mean);
    const old = best.get(key);
    if (!old || p > old.p) best.set(key, { p, are });
  }
  if (best.size === 0)
    throw new VarmapError("E_USAGE", `${path} has no rows for the method '${method}'`, {
      location: { file: path },
      remedy: `cross-validate ${method} (varmap cv --methods ${method})`,
    });
  return new Map([...best].map(([k, v]) => [k, v.are]));
}

/** The columns candidates have: the models' (or data's) factors and inputs, and the maps. */
export interface CandidateSpace {
  factors: string[];
  inputs: string[];
  maps: { key: Record<string, string> }[];
}

export interface TableOptions {
  /** Leading column: the method of every row (holdout over several methods). */
  method?: string;
  spreadKind: string;
  expectedAre?: Float64Array;
}

/** The rows of whatif.csv in output order: ranked candidates by rank (only the best `top` when given), then the others in candidate order. */
export function outputOrder(e: Evaluation, top?: number): number[] {
  const ranked: number[] = [];
  const rest: number[] = [];
  for (let i = 0; i < e.rank.length; i++) (e.rank[i] > 0 ? ranked : rest).push(i);
  ranked.sort((i, j) => e.rank[i] - e.rank[j]);
  return top !== undefined ? ranked.slice(0, top) : [...ranked, ...rest];
}

/** whatif.csv: factor and input columns, then the D.3 columns, then invalid_prediction (D.5's row flag). */
export function candidateColumns(set: CandidateSpace, c: Candidates, p: Predicted, e: Evaluation, order: number[], opts: TableOptions): Column[] {
  const d = set.inputs.length;
  const pick = <T>(f: (i: number) => T): T[] => order.map(f);
  const num = (a: ArrayLike<number>) => Float64Array.from(order, (i) => a[i]);
  const cols: Column[] = [];
  if (opts.method) cols.push({ name: "method", values: order.map(() => opts.method!), type: "string" });
  set.factors.forEach((f, k) => cols.push({ name: f, values: pick((i) => c.factorValues[k][i]), type: "string" }));
  set.inputs.forEach((x, j) => cols.push({ name: x, values: Float64Array.from(order, (i) => c.inputs[i * d + j]) }));
  cols.push({ name: "pred_mean", values: num(e.mean) }, { name: "pred_sd", values: num(e.sd) }, { name: "pred_cv", values: num(e.cv) });
  if (opts.spreadKind.startsWith("q")) cols.push({ name: `pred_${opts.spreadKind}`, values: num(e.q) });
  cols.push(
    { name: "runs_needed", values: num(e.runs) },
    { name: "cost", values: num(e.cost) },
    { name: "objective", values: num(e.objective) },
    { name: "rank", values: pick((i) => (e.rank[i] > 0 ? e.rank[i] : null)), type: "int" },
    { name: "pareto", values: pick((i) => (e.front[i] === 1 ? "true" : "false")), type: "string" },
    { name: "front", values: pick((i) => (e.front[i] > 0 ? e.front[i] : null)), type: "int" },
    { name: "extrapolated", values: pick((i) => (p.extrapolated[i] ? "true" : "false")), type: "string" },
    { name: "distance", values: num(p.distance) },
    { name: "expected_are", values: opts.expectedAre ? num(opts.expectedAre) : order.map(() => null), type: "double" },
    { name: "invalid_prediction", values: pick((i) => (e.invalid[i] ? "true" : "false")), type: "string" },
  );
  return cols;
}

/** Row-concatenation of tables with the same columns. */
export function concatTables(tables: Column[][]): Column[] {
  if (tables.length === 1) return tables[0];
  return tables[0].map((c, k) => ({ name: c.name, type: c.type, values: tables.flatMap((t) => Array.from(t[k].values)) }));
}

/** whatif-validation.csv: map, method, objective, top1, regret, spearman, top10, pareto_recall, candidates. */
export function validationColumns(rows: ValidationRow[]): Column[] {
  const col = (name: string, f: (r: ValidationRow) => number | string, type?: Column["type"]): Column => ({ name, values: rows.map(f), type });
  return [
    col("map", (r) => r.map, "string"),
    col("method", (r) => r.method, "string"),
    col("objective", (r) => r.objective, "string"),
    col("top1", (r) => r.top1),
    col("regret", (r) => r.regret),
    col("spearman", (r) => r.spearman),
    col("top10", (r) => r.top10),
    col("pareto_recall", (r) => r.paretoRecall),
    col("candidates", (r) => r.candidates, "int"),
  ];
}
