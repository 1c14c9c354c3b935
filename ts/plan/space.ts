// The configuration space of an experiment campaign (issue 43): the configurations `varmap plan` may ask for, from a
// grid ("col=a:b:step;col=v1,v2,…", whatif's parser), a candidates table, or a complete runs table (replay). Factor
// columns take values as strings (a combination of them is a map); input columns are numbers, normalized to [0, 1]
// (log2 first where asked) for distances and designs.
import { VarmapError } from "../errors.js";
import { gridSize, parseAxes, type GridAxis } from "../whatif/grid.js";
import type { ConfigTable } from "../data/types.js";

export interface ConfigSpace {
  factors: string[];
  inputs: string[];
  count: number;
  /** factorValues[f][c]: value of factor f at configuration c. */
  factorValues: string[][];
  /** count × inputs.length raw values, row-major. */
  X: Float64Array;
  /** The same normalized to [0, 1] per input (log2 first for `log2` inputs; a constant input is 0). */
  U: Float64Array;
  log2: boolean[];
  /** Index of each configuration's map (its factor combination) in `maps`. */
  map: Int32Array;
  /** The factor combinations, as "f=v, …" labels ("" when there is no factor). */
  maps: string[];
  /** Configuration key → index. */
  index: Map<string, number>;
}

/** The key of a configuration: factor values as text, inputs as numbers (so "64" and "64.0" match). */
export function configKey(factorValues: readonly string[], inputs: ArrayLike<number>): string {
  return JSON.stringify([...factorValues, ...Array.from(inputs, (x) => Number(x))]);
}

const EMPTY_REMEDY = 'give at least one value per column, e.g. --grid "threads=1,2,4,8;rsize_kb=4,64,1024"';

/** Builds a space from per-configuration factor values and inputs (duplicates are an error). */
export function makeSpace(
  factors: string[],
  inputs: string[],
  factorValues: string[][],
  X: Float64Array,
  logInputs: readonly string[] = [],
  where = "the space",
): ConfigSpace {
  const d = inputs.length;
  const count = d ? X.length / d : (factorValues[0]?.length ?? 0);
  if (count === 0) throw new VarmapError("E_PLAN_EMPTY_SPACE", `${where} has no configuration`, { remedy: EMPTY_REMEDY });
  const log2 = inputs.map((c) => logInputs.includes(c));
  for (const c of logInputs)
    if (!inputs.includes(c))
      throw new VarmapError("E_USAGE", `--log-inputs names '${c}', which is not an input of the space (${inputs.join(", ")})`, {
        remedy: "name numeric input columns",
      });
  const U = new Float64Array(count * d);
  for (let j = 0; j < d; j++) {
    let lo = Infinity,
      hi = -Infinity;
    for (let c = 0; c < count; c++) {
      const x = X[c * d + j];
      if (log2[j] && !(x > 0))
        throw new VarmapError("E_LOG_INPUT", `input '${inputs[j]}' is ${x} in ${where}, which log2 cannot take`, {
          remedy: `drop ${inputs[j]} from --log-inputs`,
        });
      const t = log2[j] ? Math.log2(x) : x;
      lo = Math.min(lo, t);
      hi = Math.max(hi, t);
    }
    for (let c = 0; c < count; c++) {
      const t = log2[j] ? Math.log2(X[c * d + j]) : X[c * d + j];
      U[c * d + j] = hi > lo ? (t - lo) / (hi - lo) : 0;
    }
  }
  const mapIndex = new Map<string, number>();
  const maps: string[] = [];
  const map = new Int32Array(count);
  const index = new Map<string, number>();
  for (let c = 0; c < count; c++) {
    const fv = factors.map((_, f) => factorValues[f][c]);
    const label = factors.map((f, k) => `${f}=${fv[k]}`).join(", ");
    let m = mapIndex.get(label);
    if (m === undefined) {
      m = maps.length;
      maps.push(label);
      mapIndex.set(label, m);
    }
    map[c] = m;
    const key = configKey(fv, X.subarray(c * d, c * d + d));
    if (index.has(key))
      throw new VarmapError(
        "E_DUPLICATE_CONFIGURATION",
        `${where} lists the configuration ${describe(factors, inputs, fv, X.subarray(c * d, c * d + d))} twice`,
        {
          remedy: "list each configuration once",
        },
      );
    index.set(key, c);
  }
  return { factors, inputs, count, factorValues, X, U, log2, map, maps, index };
}

function describe(factors: string[], inputs: string[], fv: readonly string[], x: ArrayLike<number>): string {
  return [...factors.map((f, k) => `${f}=${fv[k]}`), ...inputs.map((c, j) => `${c}=${x[j]}`)].join(", ");
}

/** "f=v, …, x=1, …" of configuration c. */
export function describeConfiguration(space: ConfigSpace, c: number): string {
  const d = space.inputs.length;
  return describe(
    space.factors,
    space.inputs,
    space.factors.map((_, f) => space.factorValues[f][c]),
    space.X.subarray(c * d, c * d + d),
  );
}

/** Column names of a grid spec, in order (before parsing their values). */
export function gridColumns(spec: string): string[] {
  return spec
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => (p.includes("=") ? p.slice(0, p.indexOf("=")).trim() : p));
}

/**
 * The Cartesian product of a `--grid` spec. `factors` names the factor columns (their values are strings); every
 * other column is a numeric input. The first listed column varies slowest.
 */
export function gridSpace(spec: string, factors: readonly string[], logInputs: readonly string[] = [], limit = 1e6): ConfigSpace {
  const names = gridColumns(spec);
  if (names.length === 0) throw new VarmapError("E_PLAN_EMPTY_SPACE", "--grid lists no column", { remedy: EMPTY_REMEDY });
  const inputNames = names.filter((c) => !factors.includes(c));
  let axes: GridAxis[];
  try {
    axes = parseAxes(spec, "--grid", names, inputNames);
  } catch (e) {
    if (e instanceof VarmapError && /has no values/.test(e.detail)) throw new VarmapError("E_PLAN_EMPTY_SPACE", e.detail, { remedy: EMPTY_REMEDY });
    throw e;
  }
  const n = gridSize(axes, limit);
  const fAxes = axes.filter((a) => factors.includes(a.column));
  const iAxes = axes.filter((a) => !factors.includes(a.column));
  const d = iAxes.length;
  if (d === 0) throw new VarmapError("E_USAGE", "--grid has no numeric input column", { remedy: "grid at least one numeric input; factors select maps" });
  const X = new Float64Array(n * d);
  const factorValues = fAxes.map(() => new Array<string>(n));
  for (let p = 0; p < n; p++) {
    let r = p;
    for (let k = axes.length - 1; k >= 0; k--) {
      const a = axes[k];
      const v = a.values[r % a.values.length];
      r = Math.floor(r / a.values.length);
      const fi = fAxes.indexOf(a);
      if (fi >= 0) factorValues[fi][p] = v;
      else X[p * d + iAxes.indexOf(a)] = Number(v);
    }
  }
  return makeSpace(
    fAxes.map((a) => a.column),
    iAxes.map((a) => a.column),
    factorValues,
    X,
    logInputs,
    "the grid",
  );
}

/** The space of candidate rows (a table read with every cell as text): `factors` and `inputs` name the columns. */
export function rowsSpace(rows: Record<string, unknown>[], factors: string[], inputs: string[], logInputs: readonly string[], file: string): ConfigSpace {
  if (rows.length === 0)
    throw new VarmapError("E_PLAN_EMPTY_SPACE", `${file} has no candidate row`, { location: { file }, remedy: "list configurations, one per row" });
  for (const c of [...factors, ...inputs])
    if (!(c in rows[0]))
      throw new VarmapError("E_COLUMN", `column '${c}' is missing`, {
        location: { file, column: c },
        remedy: `give the columns ${[...factors, ...inputs].join(", ")}`,
      });
  const d = inputs.length;
  const X = new Float64Array(rows.length * d);
  const factorValues = factors.map((f) => rows.map((r) => String(r[f] ?? "")));
  rows.forEach((r, i) =>
    inputs.forEach((c, j) => {
      const v = Number(r[c]);
      if (r[c] === null || String(r[c]).trim() === "" || !Number.isFinite(v))
        throw new VarmapError("E_NONFINITE", `input '${c}' is '${String(r[c])}', not a finite number`, {
          location: { file, row: i + 2, column: c },
          remedy: "give a number for every input",
        });
      X[i * d + j] = v;
    }),
  );
  return makeSpace(factors, inputs, factorValues, X, logInputs, file);
}

/** The space of a complete dataset's configurations (replay): configuration c of the table is configuration c here. */
export function tableSpace(t: ConfigTable, logInputs: readonly string[]): ConfigSpace {
  return makeSpace([...t.roles.factors], [...t.roles.inputs], t.factorValues, t.inputs, logInputs, t.source);
}

/** Inputs to log2 by default: positive inputs spanning more than 8× whose values are all powers of two. */
export function defaultLogInputs(inputs: readonly string[], X: Float64Array): string[] {
  const d = inputs.length;
  return inputs.filter((_, j) => {
    let lo = Infinity,
      hi = -Infinity,
      pow2 = true;
    for (let c = 0; c < X.length / d; c++) {
      const x = X[c * d + j];
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
      if (!(x > 0) || Math.abs(Math.log2(x) - Math.round(Math.log2(x))) > 1e-9) pow2 = false;
    }
    return lo > 0 && hi / lo > 8 && pow2;
  });
}
