// P7 `are`: cross-validated ARE (%) against the training fraction p, one line per method (seed 000 Table 2).
// Reads `varmap cv`'s are.csv (per map: averaged over maps, as Table 2 is) or its table2.csv.
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import type { PlotKind } from "./types.js";

export interface AreRow {
  method: string;
  p: number;
  /** Mean ARE over maps, as a fraction (0.1 = 10%). */
  are: number;
}

export const ARE_WRITTEN_BY = "`varmap cv … --out DIR` (DIR/are.csv or DIR/table2.csv)";

/** Table 2's points from are.csv rows (method, p, are_mean per map) or table2.csv rows (p, are_<method>). */
export function areRows(rows: readonly Row[], file?: string): AreRow[] {
  const cols = columnsOf(rows);
  if (cols.includes("p") && !cols.includes("method") && cols.some((c) => c.startsWith("are_"))) {
    const methods = cols.filter((c) => c.startsWith("are_")).map((c) => c.slice(4));
    return rows.flatMap((r) => methods.map((m) => ({ method: m, p: num(r.p), are: num(r[`are_${m}`]) }))).filter((r) => Number.isFinite(r.are));
  }
  requireColumns(rows, ["method", "p", "are_mean"], { kind: "are", file, writtenBy: ARE_WRITTEN_BY });
  // As Table 2 does (ts/cv/table2.ts): at each p, only the maps every method scored (the factor columns before
  // `method` name the map), so every line averages the same maps.
  const factors = cols.slice(0, cols.indexOf("method"));
  const mapAt = (r: Row): string => JSON.stringify([num(r.p), ...factors.map((f) => String(r[f]))]);
  const methodCount = new Set(rows.map((r) => String(r.method))).size;
  const scored = new Map<string, number>();
  for (const r of rows) if (Number.isFinite(num(r.are_mean))) scored.set(mapAt(r), (scored.get(mapAt(r)) ?? 0) + 1);
  const sums = new Map<string, { method: string; p: number; s: number; n: number }>();
  for (const r of rows) {
    const v = num(r.are_mean);
    if (!Number.isFinite(v) || scored.get(mapAt(r)) !== methodCount) continue; // a map some method failed: left out for all
    const key = `${r.method}\u0000${num(r.p)}`;
    const c = sums.get(key) ?? sums.set(key, { method: String(r.method), p: num(r.p), s: 0, n: 0 }).get(key)!;
    c.s += v;
    c.n++;
  }
  return [...sums.values()].map((c) => ({ method: c.method, p: c.p, are: c.s / c.n }));
}

export function areSpec(points: readonly AreRow[], opts: { title?: string; log?: boolean } = {}): TopLevelSpec {
  if (!points.length)
    throw new VarmapError("E_PLOT_EMPTY", "no finite ARE values to plot", { remedy: "check that the cv run finished (are.csv has are_mean values)" });
  const methods = [...new Set(points.map((p) => p.method))];
  // A baseline (e.g. mean) can be 50× worse than the predictors: a log axis keeps every line readable then.
  const pos = points.map((p) => p.are).filter((a) => a > 0);
  const log = opts.log ?? (pos.length === points.length && Math.max(...pos) / Math.min(...pos) > 20);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: opts.title ?? "Cross-validated ARE (Table 2)",
      subtitle: `mean absolute relative error on the held-out configurations, averaged over maps${log ? "; log scale" : ""}`,
    },
    width: 420,
    height: 260,
    data: { values: points.map((p) => ({ method: p.method, p: p.p, are: 100 * p.are })) },
    mark: { type: "line", point: { filled: true, size: 45 }, strokeWidth: 2 },
    encoding: {
      x: { field: "p", type: "quantitative", title: "training fraction p", scale: { zero: false }, axis: { format: ".1f" } },
      y: { field: "are", type: "quantitative", title: "ARE (%)", scale: log ? { type: "log" } : { zero: true }, axis: { format: "~g" } },
      color: { field: "method", type: "nominal", title: "method", sort: methods, scale: { scheme: "tableau10" } },
      shape: { field: "method", type: "nominal", sort: methods },
      tooltip: [{ field: "method" }, { field: "p" }, { field: "are", format: ".2f", title: "ARE (%)" }],
    },
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "are",
  id: "P7",
  description: "ARE (%) vs training fraction p, a line per method (Table 2)",
  writtenBy: ARE_WRITTEN_BY,
  flags: [{ flag: "--title <text>", description: "figure title" }],
  async fromFile(file, opts) {
    return areSpec(areRows(await readTable(file), file), { title: opts.title as string | undefined });
  },
};
