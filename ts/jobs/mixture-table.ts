// The fits table of `varmap mixture` (one row per configuration, family and k), from the assembled fits: written by
// the verb for --out, and by the mixture job into <dir>/fits.csv for a sharded run and `varmap merge`.
import type { Column } from "../data/write.js";
import { FAMILIES } from "../mixture/families.js";
import type { MixtureFitResult } from "../mixture/fit.js";
import { flatParamColumns, paramNameColumns } from "../mixture/flat-params.js";
import type { Criterion } from "../mixture/select.js";
import { mixtureStdErrors } from "../mixture/stderr.js";
import type { Selection } from "./mixture-validate.js";

/** The key columns of the fitted configurations: names, and the value of each at a configuration (fit-row index). */
export interface KeyColumns {
  factors: string[];
  inputs: string[];
  factor(f: number, config: number): string;
  input(j: number, config: number): number;
}

/**
 * Standard errors of the chosen model of every configuration (rows with best = true), in the layout of `params`
 * ({w, <a name>, <b name>}, NaN as null); null on the other rows.
 */
export function stdErrorsOfBest(fit: MixtureFitResult, runs: Float64Array, offsets: Int32Array): (Record<string, (number | null)[]> | null)[] {
  return fit.rows.map((r) => {
    if (!r.best || !Number.isFinite(r.loglik)) return null;
    const se = mixtureStdErrors(r.mixture, runs.subarray(offsets[r.config], offsets[r.config + 1]));
    const [an, bn] = FAMILIES[r.family].paramNames;
    const fin = (v: number[]) => v.map((x) => (Number.isFinite(x) ? x : null));
    return { w: fin(se.w), [an]: fin(se.a), [bn]: fin(se.b) };
  });
}

export function fitColumns(
  fit: MixtureFitResult,
  keys: KeyColumns,
  stdErrors: (Record<string, (number | null)[]> | null)[],
  selection?: Pick<Selection, "score" | "verdict">,
  criterion?: Criterion,
): Column[] {
  const rows = fit.rows;
  const cols: Column[] = [];
  keys.factors.forEach((name, f) => cols.push({ name, values: rows.map((r) => keys.factor(f, r.config)), type: "string" }));
  keys.inputs.forEach((name, j) => cols.push({ name, values: rows.map((r) => keys.input(j, r.config)) }));
  cols.push({ name: "n", values: Int32Array.from(rows, (r) => r.n), type: "int" });
  cols.push({ name: "family", values: rows.map((r) => r.family), type: "string" });
  cols.push({ name: "k", values: Int32Array.from(rows, (r) => r.k), type: "int" });
  cols.push({ name: "loglik", values: rows.map((r) => (Number.isFinite(r.loglik) ? r.loglik : null)) });
  cols.push({ name: "bic", values: rows.map((r) => (Number.isFinite(r.bic) ? r.bic : null)) });
  cols.push({ name: "iterations", values: Int32Array.from(rows, (r) => r.iterations), type: "int" });
  cols.push({ name: "converged", values: rows.map((r) => String(r.converged)), type: "string" });
  cols.push({ name: "floor_bound", values: rows.map((r) => String(r.floorBound)), type: "string" });
  cols.push({ name: "params", values: rows.map((r) => JSON.stringify(r.params)), type: "string" });
  cols.push({ name: "se", values: stdErrors.map((se) => (se ? JSON.stringify(se) : null)), type: "string" });
  // The same parameters and standard errors as typed columns (issue 44 item 4): no JSON parser needed.
  const K = rows.reduce((m, r) => Math.max(m, r.k), 1);
  cols.push(...paramNameColumns(rows.map((r) => r.family)));
  cols.push(
    ...flatParamColumns(
      rows.map((r) => ({ family: r.family, params: r.params })),
      K,
    ),
  );
  cols.push(
    ...flatParamColumns(
      rows.map((r, i) => (stdErrors[i] ? { family: r.family, params: stdErrors[i]! } : null)),
      K,
      "se_",
    ),
  );
  if (selection) {
    // Only with non-default selection flags, so the default table keeps its columns.
    // Named selection_<criterion>: with --criterion bic a second `bic` column made the table unloadable by name
    // (pandas, R and DuckDB rename or refuse duplicates; issue 44). It holds the criterion the guard ranked by.
    cols.push({ name: `selection_${criterion ?? "score"}`, values: Array.from(selection.score, (v) => (Number.isFinite(v) ? v : null)) });
    cols.push({ name: "guard", values: selection.verdict, type: "string" });
  }
  cols.push({ name: "best", values: rows.map((r) => String(r.best)), type: "string" });
  return cols;
}
