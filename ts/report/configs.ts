// A dataset's configurations as plot rows (factors, inputs, a map label, the chosen statistic), and its runs.
import { loadDataset, type LoadOptions } from "../data/load.js";
import { statValues } from "../data/stats.js";
import type { ConfigTable, StatName } from "../data/types.js";
import type { Dataset } from "../data/load.js";
import type { Row } from "./table.js";

/** The map a configuration belongs to, as text: "a=x, b=y" (or "all" without factors). */
export function mapLabelOf(t: ConfigTable, c: number): string {
  return t.roles.factors.length ? t.roles.factors.map((f, i) => `${f}=${t.factorValues[i][c]}`).join(", ") : "all";
}

/**
 * One row per configuration (or per configuration in `only`, positions in the table): factor values, input values,
 * `map` (label), `n` and `values[c]` under the name `column`.
 */
export function configRows(ds: Dataset, column: string, values: ArrayLike<number>, only?: ArrayLike<number>): Row[] {
  const t = ds.table;
  const d = t.roles.inputs.length;
  const rows: Row[] = [];
  const which = only ?? Array.from({ length: t.count }, (_, c) => c);
  for (let i = 0; i < which.length; i++) {
    const c = which[i];
    const r: Row = {};
    t.roles.factors.forEach((f, i) => (r[f] = t.factorValues[i][c]));
    t.roles.inputs.forEach((x, j) => (r[x] = t.inputs[c * d + j]));
    r.map = mapLabelOf(t, c);
    r.n = t.offsets[c + 1] - t.offsets[c];
    r[column] = values[c];
    rows.push(r);
  }
  return rows;
}

/** A configuration's key (factor values, then inputs) as text, matching fits tables' key columns. */
export function configKey(t: ConfigTable, c: number): string {
  const d = t.roles.inputs.length;
  return [...t.factorValues.map((f) => f[c]), ...Array.from(t.inputs.subarray(c * d, (c + 1) * d), (x) => String(x))].join("\u0000");
}

/** A configuration as readable text: "mode=fread; threads=4, freq_khz=1200000" (factors, then inputs; panel headers break at "; "). */
export function configLabel(t: ConfigTable, c: number): string {
  const d = t.roles.inputs.length;
  const f = t.roles.factors.map((f, i) => `${f}=${t.factorValues[i][c]}`).join(", ");
  const x = t.roles.inputs.map((x, j) => `${x}=${t.inputs[c * d + j]}`).join(", ");
  return f ? `${f}; ${x}` : x;
}

/** The dataset a runs-table plot reads: `opts.load`, the shared data flags as the CLI parsed them (ts/cli/flags.ts). */
export function loadForPlot(file: string, opts: Record<string, unknown>): Promise<Dataset> {
  return loadDataset(file, (opts.load as LoadOptions | undefined) ?? { stat: "sd" });
}

/** The value a map figure shows per configuration: the statistic of its runs, or for a map table (--map) its value. */
export function mapValues(ds: Dataset, stat: StatName, mapTable: boolean): { column: string; values: Float64Array } {
  return mapTable ? { column: ds.table.roles.response, values: ds.stats.mean } : { column: stat, values: statValues(ds.stats, stat) };
}
