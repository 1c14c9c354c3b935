// P6 `predicted-vs-measured`: predicted against measured statistic for held-out configurations (seed 000
// Figs. 7–9): log–log scatter, y = x line, colour and shape by method, each method's ARE in the legend.
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import type { PlotKind } from "./types.js";
import { NUMBER_LABEL } from "../units.js";

export interface PvmPoint {
  measured: number;
  prediction: number;
  method: string;
  facet?: string;
  /** The configuration, as text (tooltips). */
  config?: string;
}

export const PVM_WRITTEN_BY =
  "`varmap predict` or `varmap cv --splits … --predictions` (prediction column), joined with --truth (a map table with the measured column)";

/** Mean |pred − measured| / measured over the points (seed 000 eq. 1). */
export function areOf(points: readonly PvmPoint[]): number {
  let s = 0;
  for (const p of points) s += Math.abs(p.prediction - p.measured) / p.measured;
  return points.length ? s / points.length : NaN;
}

export function pvmSpec(points: readonly PvmPoint[], opts: { title?: string; measuredTitle?: string; log?: boolean } = {}): TopLevelSpec {
  const log = opts.log ?? true;
  // ARE over every point with a positive measured value and a finite prediction; only those also > 0 can be drawn on log axes.
  const scored = points.filter((p) => Number.isFinite(p.measured) && Number.isFinite(p.prediction) && p.measured > 0);
  const usable = scored.filter((p) => !log || p.prediction > 0);
  if (!usable.length)
    throw new VarmapError("E_PLOT_EMPTY", "no point with a positive measured value and a finite (positive, on log axes) prediction", {
      remedy: "check the prediction and measured columns, or use --linear",
    });
  const methods = [...new Set(usable.map((p) => p.method))];
  const label = new Map(methods.map((m) => [m, `${m} (ARE ${(100 * areOf(scored.filter((p) => p.method === m))).toFixed(2)}%)`]));
  const hidden = scored.length - usable.length;
  let lo = Infinity,
    hi = -Infinity;
  for (const p of usable) (lo = Math.min(lo, p.measured, p.prediction)), (hi = Math.max(hi, p.measured, p.prediction));
  const facets = [...new Set(usable.map((p) => p.facet ?? ""))];
  const values: Record<string, number | string>[] = usable.map((p) => ({
    layer: "point",
    // 6 significant digits drawn (the ARE in the legend is computed from the full values): a figure of 10³ points
    // stays small.
    m: Number(p.measured.toPrecision(6)),
    p: Number(p.prediction.toPrecision(6)),
    method: label.get(p.method)!,
    f: p.facet ?? "",
    ...(p.config ? { config: p.config } : {}),
  }));
  for (const f of facets) values.push({ layer: "diag", m: lo, p: lo, f }, { layer: "diag", m: hi, p: hi, f });
  const scale = log ? { type: "log" } : { zero: false };
  const title = opts.measuredTitle ?? "measured";
  const side = facets.length > 1 ? 250 : 320;
  const axis = { labelExpr: NUMBER_LABEL };
  const panel = {
    width: side,
    height: side,
    layer: [
      {
        params: [{ name: "zoom", select: "interval", bind: "scales" }],
        transform: [{ filter: "datum.layer === 'diag'" }],
        mark: { type: "line", color: "#555", strokeDash: [4, 3], strokeWidth: 1, clip: true },
        encoding: { x: { field: "m", type: "quantitative", scale, title, axis }, y: { field: "p", type: "quantitative", scale, title: "predicted", axis } },
      },
      {
        transform: [{ filter: "datum.layer === 'point'" }],
        mark: { type: "point", size: 22, opacity: 0.65, strokeWidth: 1.2, clip: true },
        encoding: {
          x: { field: "m", type: "quantitative" },
          y: { field: "p", type: "quantitative" },
          color: { field: "method", type: "nominal", title: "method", sort: methods.map((m) => label.get(m)), scale: { scheme: "tableau10" } },
          shape: { field: "method", type: "nominal", sort: methods.map((m) => label.get(m)) },
          tooltip: [
            ...(usable.some((p) => p.config) ? [{ field: "config", title: "configuration" }] : []),
            { field: "method" },
            { field: "m", title, format: ".4~g" },
            { field: "p", title: "predicted", format: ".4~g" },
          ],
        },
      },
    ],
  };
  const head = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: opts.title ?? "Predicted vs measured",
      subtitle: `${usable.length} point(s)${log ? ", log–log" : ""}; dashed: y = x${hidden ? `; ${hidden} non-positive prediction(s) not drawn (counted in the ARE)` : ""}`,
    },
    data: { values },
  };
  if (facets.length === 1) return { ...head, ...panel } as TopLevelSpec;
  return { ...head, facet: { field: "f", type: "nominal", title: null, sort: facets }, columns: Math.min(4, facets.length), spec: panel } as TopLevelSpec;
}

/** Joins prediction rows with truth rows on their common columns (other than the measured one). */
export function joinTruth(pred: readonly Row[], truth: readonly Row[], measured: string, file?: string): Row[] {
  const pc = new Set(columnsOf(pred));
  const on = columnsOf(truth).filter((c) => pc.has(c) && c !== measured && c !== "prediction");
  if (!on.length)
    throw new VarmapError("E_PLOT_JOIN", "the predictions and the --truth table share no key column", {
      location: { file },
      remedy: "give a truth table with the predictions' key columns (e.g. index, or the factor and input columns)",
    });
  const key = (r: Row) => on.map((c) => (Number.isFinite(num(r[c])) ? String(num(r[c])) : String(r[c]))).join("\u0000");
  const byKey = new Map(truth.map((r) => [key(r), r]));
  const out: Row[] = [];
  for (const r of pred) {
    const t = byKey.get(key(r));
    if (!t)
      throw new VarmapError("E_PLOT_JOIN", `no --truth row has ${on.map((c) => `${c}=${r[c]}`).join(", ")}`, {
        location: { file },
        remedy: "give the measured values of every predicted configuration",
      });
    out.push({ ...r, [measured]: t[measured] });
  }
  return out;
}

export function pvmPoints(rows: readonly Row[], measured: string, facet?: string): PvmPoint[] {
  const hasMethod = columnsOf(rows).includes("method");
  return rows.map((r) => ({
    measured: num(r[measured]),
    prediction: num(r.prediction),
    method: hasMethod ? String(r.method) : "prediction",
    ...(facet ? { facet: String(r[facet]) } : {}),
  }));
}

export const plot: PlotKind = {
  kind: "predicted-vs-measured",
  id: "P6",
  description: "predicted vs measured statistic, log–log, y = x line, ARE per method in the legend",
  writtenBy: PVM_WRITTEN_BY,
  flags: [
    { flag: "--measured <col>", description: "column of measured values (in the table or in --truth)", default: "measured" },
    { flag: "--truth <table>", description: "table of measured values joined on the common key columns (e.g. a map table with index and sd)" },
    { flag: "--facet <col>", description: "one panel per value of this column" },
    { flag: "--linear", description: "linear instead of logarithmic axes" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const measured = String(opts.measured ?? "measured");
    let rows = await readTable(file);
    requireColumns(rows, ["prediction"], { kind: "predicted-vs-measured", file, writtenBy: PVM_WRITTEN_BY });
    if (typeof opts.truth === "string") {
      const truth = await readTable(opts.truth);
      requireColumns(truth, [measured], {
        kind: "predicted-vs-measured",
        file: opts.truth,
        writtenBy: "`varmap summarize … --out map.csv` (a map table with the measured statistic)",
      });
      rows = joinTruth(rows, truth, measured, opts.truth);
    }
    const facet = opts.facet as string | undefined;
    requireColumns(rows, ["prediction", measured, ...(facet ? [facet] : [])], { kind: "predicted-vs-measured", file, writtenBy: PVM_WRITTEN_BY });
    return pvmSpec(pvmPoints(rows, measured, facet), { title: opts.title as string | undefined, measuredTitle: `measured ${measured}`, log: !opts.linear });
  },
};
