// gev.csv and diagnostics.csv as columns: key columns (factors, inputs) of each configuration, then its fit
// (gevColumnNames) or its plot rows. Shared by the direct path and the job writer.
import type { Column } from "../data/write.js";
import type { ConfigTable } from "../data/types.js";
import { gevColumnNames, type GevConfigResult, type GevRunOptions } from "./configs.js";

export type KeyValue = string | number;

/** Each configuration's key values (factor strings, then input numbers), in the table's order. */
export function configKeys(t: ConfigTable): { names: string[]; values: KeyValue[][] } {
  const d = t.roles.inputs.length;
  const values: KeyValue[][] = [];
  for (let c = 0; c < t.count; c++) values.push([...t.factorValues.map((f) => f[c]), ...Array.from(t.inputs.subarray(c * d, (c + 1) * d))]);
  return { names: [...t.roles.factors, ...t.roles.inputs], values };
}

function keyColumns(names: string[], keys: KeyValue[][], rowsPer: (c: number) => number): Column[] {
  const idx: number[] = [];
  for (let c = 0; c < keys.length; c++) for (let k = 0; k < rowsPer(c); k++) idx.push(c);
  return names.map((name, j) => {
    const values = idx.map((c) => keys[c][j]);
    return { name, values, type: values.some((v) => typeof v === "string") ? "string" : "double" };
  });
}

const STRINGS = new Set(["tail", "converged", "regular", "flag"]);
const INTS = new Set(["n", "iterations", "n_outliers"]);

export function gevTableColumns(names: string[], keys: KeyValue[][], results: GevConfigResult[], o: GevRunOptions): Column[] {
  const cols = keyColumns(names, keys, () => 1);
  for (const name of gevColumnNames(o))
    cols.push({ name, values: results.map((r) => r.cells[name] ?? null), type: STRINGS.has(name) ? "string" : INTS.has(name) ? "int" : "double" });
  return cols;
}

export function gevDiagColumns(names: string[], keys: KeyValue[][], results: GevConfigResult[]): Column[] {
  const cols = keyColumns(names, keys, (c) => results[c].diag?.length ?? 0);
  const rows = results.flatMap((r) => r.diag ?? []);
  // Values may have been through JSON (the job engine): NaN arrives as null.
  const num = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);
  cols.push({ name: "kind", values: rows.map((r) => r.kind), type: "string" });
  for (const k of ["x", "y", "lo", "hi"] as const) cols.push({ name: k, values: rows.map((r) => num(r[k])) });
  cols.push({ name: "outlier", values: rows.map((r) => (r.outlier === null || r.outlier === undefined ? null : String(r.outlier))), type: "string" });
  return cols;
}
