// What-if candidates: configurations (factor values selecting a map, input values) from a grid or a file, and
// their predictions, made map by map in one batch per model.
import { VarmapError } from "../errors.js";
import { checkRowColumns, readFileRows } from "../data/duckdb.js";
import { mapKey } from "../predict/models-file.js";
import { gridSize, parseAxes, type GridAxis } from "./grid.js";
import { predictMap, type ModelSet } from "./models.js";
import { firstNonPositiveLogInput, logInputError } from "../predict/scaling.js";
import type { CandidateStats } from "./objective.js";

export interface Candidates {
  count: number;
  /** factorValues[f][i]: value of the models' factor f at candidate i. */
  factorValues: string[][];
  /** count × set.inputs.length raw inputs, row-major. */
  inputs: Float64Array;
  /** Index of each candidate's map in set.maps. */
  map: Int32Array;
}

export interface Predicted extends CandidateStats {
  extrapolated: Uint8Array;
  distance: Float64Array;
}

/**
 * Candidates of `--grid` with `--fix`: every map whose factor values match (a factor in --grid enumerates the
 * listed values, one in --fix is fixed, one in neither takes every value the models have), crossed with the
 * product of the input axes (the first listed varies slowest). Every input must be gridded or fixed.
 */
export function gridCandidates(set: ModelSet, grid: string, fix: string | undefined, limit = 1e8): Candidates {
  const known = [...set.factors, ...set.inputs];
  const axes = [...parseAxes(grid, "--grid", known, set.inputs), ...(fix ? parseAxes(fix, "--fix", known, set.inputs) : [])];
  const seen = new Set<string>();
  for (const a of axes) {
    if (seen.has(a.column)) throw new VarmapError("E_USAGE", `'${a.column}' is both in --grid and in --fix`, { remedy: "give each column in one of them" });
    seen.add(a.column);
  }
  const missing = set.inputs.filter((c) => !seen.has(c));
  if (missing.length)
    throw new VarmapError("E_USAGE", `the grid gives no values for the input(s) ${missing.join(", ")}`, {
      remedy: `add them to --grid or --fix (e.g. --fix ${missing[0]}=…)`,
    });
  const factorAxes = axes.filter((a) => set.factors.includes(a.column));
  const maps: number[] = [];
  set.maps.forEach((m, i) => {
    if (factorAxes.every((a) => a.values.includes(m.key[a.column]))) maps.push(i);
  });
  for (const a of factorAxes)
    for (const v of a.values)
      if (!set.maps.some((m) => m.key[a.column] === v))
        throw new VarmapError("E_UNKNOWN_MAP", `no model has ${a.column}=${v}`, {
          remedy: `use values the models have (${[...new Set(set.maps.map((m) => m.key[a.column]))].join(", ")})`,
        });
  if (maps.length === 0)
    throw new VarmapError("E_UNKNOWN_MAP", `no map has ${factorAxes.map((a) => `${a.column}=${a.values.join("|")}`).join(" and ")}`, {
      remedy: "select maps the models have",
    });
  const inputAxes: GridAxis[] = set.inputs.map((c) => axes.find((a) => a.column === c)!);
  const perMap = gridSize(inputAxes, limit);
  const count = perMap * maps.length;
  if (count > limit) throw new VarmapError("E_USAGE", `the grid has ${count} candidates`, { remedy: `narrow it to at most ${limit}` });
  const d = set.inputs.length;
  const values = inputAxes.map((a) => a.values.map(Number));
  const inputs = new Float64Array(count * d);
  const map = new Int32Array(count);
  const factorValues = set.factors.map(() => new Array<string>(count));
  let i = 0;
  for (const mi of maps) {
    const key = set.maps[mi].key;
    for (let p = 0; p < perMap; p++, i++) {
      // Mixed-radix digits of p, last axis fastest.
      let r = p;
      for (let j = d - 1; j >= 0; j--) {
        const len = values[j].length;
        inputs[i * d + j] = values[j][r % len];
        r = Math.floor(r / len);
      }
      map[i] = mi;
      set.factors.forEach((f, k) => (factorValues[k][i] = key[f]));
    }
  }
  return { count, factorValues, inputs, map };
}

/** Candidates from a CSV/Parquet file with the models' factor and input columns. */
export async function fileCandidates(set: ModelSet, path: string): Promise<Candidates> {
  const rows = await readRows(path);
  return candidatesFromRows(set, rows, path);
}

export function candidatesFromRows(set: ModelSet, rows: Record<string, unknown>[], path: string): Candidates {
  checkRowColumns(rows, [...set.factors, ...set.inputs], path);
  const count = rows.length;
  const d = set.inputs.length;
  const inputs = new Float64Array(count * d);
  const map = new Int32Array(count);
  const factorValues = set.factors.map(() => new Array<string>(count));
  rows.forEach((r, i) => {
    const vals = set.factors.map((f) => String(r[f]));
    const mi = set.index.get(mapKey(set.factors, Object.fromEntries(set.factors.map((f, k) => [f, vals[k]]))));
    if (mi === undefined)
      throw new VarmapError("E_UNKNOWN_MAP", `no model for the map ${set.factors.map((f, k) => `${f}=${vals[k]}`).join(", ")}`, {
        location: { file: path, row: i + 2 },
        remedy: `give only maps the models have (${set.maps.length})`,
      });
    map[i] = mi;
    vals.forEach((v, k) => (factorValues[k][i] = v));
    set.inputs.forEach((c, j) => {
      const raw = r[c];
      const v = typeof raw === "number" ? raw : raw === null || raw === "" ? NaN : Number(raw);
      if (!Number.isFinite(v))
        throw new VarmapError("E_NONFINITE", `input '${c}' is ${raw === null ? "empty" : `'${raw}'`}, not a finite number`, {
          location: { file: path, row: i + 2, column: c },
          remedy: "give a number for every input",
        });
      inputs[i * d + j] = v;
    });
  });
  return { count, factorValues, inputs, map };
}

/** All rows of a CSV/Parquet file; CSV cells as text (numbers parsed by the caller, exactly). */
export const readRows = (path: string) => readFileRows(path, "the table");

/** Candidate indices grouped by map, in candidate order within each map. */
export function groupByMap(c: Candidates, maps: number): number[][] {
  const groups: number[][] = Array.from({ length: maps }, () => []);
  for (let i = 0; i < c.count; i++) groups[c.map[i]].push(i);
  return groups;
}

/** Predictions at every candidate: per map, one batch per model. */
export function predictCandidates(set: ModelSet, c: Candidates): Predicted {
  const n = c.count;
  const mean = new Float64Array(n);
  const spread = new Float64Array(n);
  const runs = set.maps.some((m) => m.runs) ? new Float64Array(n) : undefined;
  const extrapolated = new Uint8Array(n);
  const distance = new Float64Array(n);
  const d = set.inputs.length;
  groupByMap(c, set.maps.length).forEach((idx, mi) => {
    if (idx.length === 0) return;
    const m = set.maps[mi];
    const cols = m.inputs.map((name) => set.inputs.indexOf(name));
    const X = new Float64Array(idx.length * cols.length);
    idx.forEach((i, k) => cols.forEach((j, q) => (X[k * cols.length + q] = c.inputs[i * d + j])));
    const bad = firstNonPositiveLogInput(m.scaling.log2, m.inputs, X, idx.length);
    if (bad) {
      const i = idx[bad.row];
      const values = [...set.factors.map((f, k) => `${f}=${c.factorValues[k][i]}`), ...set.inputs.map((x, j) => `${x}=${c.inputs[i * d + j]}`)];
      throw logInputError(bad, { configuration: values.join(", ") });
    }
    const p = predictMap(m, X, idx.length);
    idx.forEach((i, k) => {
      mean[i] = p.mean[k];
      spread[i] = p.spread[k];
      if (runs) runs[i] = p.runs ? p.runs[k] : NaN;
      extrapolated[i] = p.extrapolated[k];
      distance[i] = p.distance[k];
    });
  });
  return { mean, spread, runs, extrapolated, distance };
}
