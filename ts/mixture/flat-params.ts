// Flat parameter columns of a mixture table (issue 44 item 4): beside the JSON `params` cell that `--fits` readers
// parse, one typed column per component and parameter, so pandas, R and DuckDB read the fits without a JSON
// parser: a_name and b_name (the family's two parameter names, e.g. mu and sigma), then w1..wK, a1..aK, b1..bK
// (empty beyond the row's k). K is the table's largest k, so every row has the same columns.
import type { CellValue, Column } from "../data/write.js";
import { FAMILIES, type FamilyName } from "./families.js";

/** One row's parameters: the family and {w, <a name>, <b name>} (as `params`); null for a row without a fit. */
export interface FlatParams {
  family: string;
  params: Record<string, readonly (number | null)[]>;
}

const names = (family: string): [string, string] | undefined => FAMILIES[family as FamilyName]?.paramNames;

/** The names of the flat columns for K components, with an optional prefix ("se_" for standard errors). */
export function flatParamNames(K: number, prefix = ""): string[] {
  const out: string[] = [];
  for (const p of ["w", "a", "b"]) for (let j = 1; j <= K; j++) out.push(`${prefix}${p}${j}`);
  return out;
}

/** The values of the flat columns of one row, in flatParamNames order (null where absent or not finite). */
export function flatParamValues(row: FlatParams | null, K: number): (number | null)[] {
  const out: (number | null)[] = [];
  const n = row ? names(row.family) : undefined;
  for (const key of ["w", n?.[0], n?.[1]]) {
    const v = row && key ? row.params[key] : undefined;
    for (let j = 0; j < K; j++) {
      const x = v?.[j];
      out.push(typeof x === "number" && Number.isFinite(x) ? x : null);
    }
  }
  return out;
}

/** a_name, b_name: the family's parameter names per row (empty without a family). */
export function paramNameColumns(families: readonly (string | null)[]): Column[] {
  return [0, 1].map((i) => ({ name: i === 0 ? "a_name" : "b_name", values: families.map((f) => (f ? (names(f)?.[i] ?? null) : null)), type: "string" }));
}

/** The flat columns (w1..wK, a1..aK, b1..bK with the prefix) of every row. */
export function flatParamColumns(rows: readonly (FlatParams | null)[], K: number, prefix = ""): Column[] {
  const values = rows.map((r) => flatParamValues(r, K));
  return flatParamNames(K, prefix).map((name, c): Column => ({ name, values: values.map((v) => v[c] as CellValue), type: "double" }));
}

/** One row's a_name, b_name and flat columns as a record (column name → value). */
export function flatParamRecord(row: FlatParams, K: number): Record<string, string | number | null> {
  const n = names(row.family);
  const values = flatParamValues(row, K);
  return { a_name: n?.[0] ?? null, b_name: n?.[1] ?? null, ...Object.fromEntries(flatParamNames(K).map((name, c) => [name, values[c]])) };
}
