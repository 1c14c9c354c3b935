// P18 `box`: box plots of the runs per level of one input (seed 000 Fig. 5: throughput per thread count at a fixed
// frequency and file size): each box pools the runs of the configurations at that level, the other inputs fixed
// (--fix, default each at its most common level; --pool: all levels pooled), a panel per map. The five numbers are
// computed here (type-7 quartiles, whiskers to the furthest run within 1.5 IQR, Tukey's rule), so the figure
// carries a few numbers per box, not every run.
import { VarmapError } from "../../errors.js";
import { quantile7 } from "../../data/stats.js";
import type { Dataset } from "../../data/load.js";
import type { TopLevelSpec } from "../render.js";
import { loadForPlot, mapLabelOf } from "../configs.js";
import type { Cell, Row } from "../table.js";
import { NUMBER_LABEL, titleOf } from "../units.js";
import { parseFix, resolveFix } from "./heatmap.js";
import { levelsOf, sameCell } from "./lines.js";
import { short, type PlotKind } from "./types.js";

export interface BoxStats {
  level: string;
  facet?: string;
  n: number;
  configs: number;
  q1: number;
  median: number;
  q3: number;
  lo: number;
  hi: number;
  outliers: number[];
}

/** Tukey's box of a set of values: quartiles (type 7), whiskers to the furthest values within 1.5 IQR, the rest outliers. */
export function boxOf(values: ArrayLike<number>): Omit<BoxStats, "level" | "facet" | "configs"> {
  const v = Float64Array.from(values).filter(Number.isFinite).sort();
  if (!v.length) throw new VarmapError("E_PLOT_EMPTY", "a box of no runs", { remedy: "check --where and --fix" });
  const q1 = quantile7(v, 0.25),
    q3 = quantile7(v, 0.75),
    iqr = q3 - q1;
  const lo = v.find((x) => x >= q1 - 1.5 * iqr)!,
    hi = [...v].reverse().find((x) => x <= q3 + 1.5 * iqr)!;
  return { n: v.length, q1, median: quantile7(v, 0.5), q3, lo, hi, outliers: Array.from(v.filter((x) => x < lo || x > hi)) };
}

/** At most `max` outliers per box (evenly spaced in sorted order, the extremes kept): a figure stays small. */
function thin(v: number[], max: number): number[] {
  if (v.length <= max) return v;
  return Array.from({ length: max }, (_, i) => v[Math.round((i * (v.length - 1)) / (max - 1))]);
}

export interface BoxOptions {
  x: string;
  yTitle: string;
  title?: string;
  subtitle?: string[];
  logY?: boolean;
  /** Outliers drawn per box at most. */
  maxOutliers?: number;
}

export function boxSpec(boxes: readonly BoxStats[], o: BoxOptions): TopLevelSpec {
  if (!boxes.length) throw new VarmapError("E_PLOT_EMPTY", "no runs to draw", { remedy: "check --where and --fix" });
  const levels = [...new Set(boxes.map((b) => b.level))];
  const max = o.maxOutliers ?? 60;
  const boxRows = boxes.map(({ outliers, ...b }) => ({ ...b, outliers: outliers.length }));
  const out = boxes.flatMap((b) => thin(b.outliers, max).map((y) => ({ level: b.level, facet: b.facet, y })));
  const thinned = boxes.some((b) => b.outliers.length > max);
  const x = { field: "level", type: "ordinal", title: titleOf(o.x), sort: levels, axis: { labelAngle: 0 } };
  const yScale = o.logY ? { type: "log" } : { zero: false };
  const yAxis = { labelExpr: NUMBER_LABEL };
  const tooltip = [
    { field: "level", title: o.x },
    { field: "n", title: "runs" },
    { field: "configs", title: "configurations" },
    { field: "median", format: ".4~g" },
    { field: "q1", title: "lower quartile", format: ".4~g" },
    { field: "q3", title: "upper quartile", format: ".4~g" },
    { field: "lo", title: "lower whisker", format: ".4~g" },
    { field: "hi", title: "upper whisker", format: ".4~g" },
    { field: "outliers", title: "outliers" },
  ];
  const layer = [
    {
      data: { values: boxRows },
      mark: { type: "rule", color: "#333" },
      encoding: { x, y: { field: "lo", type: "quantitative", title: o.yTitle, scale: yScale, axis: yAxis }, y2: { field: "hi" }, tooltip },
    },
    {
      data: { values: boxRows },
      mark: { type: "bar", size: 18, color: "#9bb7d4", stroke: "#33506e", strokeWidth: 0.8 },
      encoding: { x, y: { field: "q1", type: "quantitative" }, y2: { field: "q3" }, tooltip },
    },
    {
      data: { values: boxRows },
      mark: { type: "tick", size: 18, thickness: 2, color: "#1b2a3a" },
      encoding: { x, y: { field: "median", type: "quantitative" }, tooltip },
    },
    ...(out.length
      ? [
          {
            data: { values: out },
            mark: { type: "point", size: 12, color: "#c0392b", opacity: 0.6 },
            encoding: {
              x,
              y: { field: "y", type: "quantitative" },
              tooltip: [
                { field: "level", title: o.x },
                { field: "y", title: "run", format: ".4~g" },
              ],
            },
          },
        ]
      : []),
  ];
  const facets = [...new Set(boxes.map((b) => b.facet).filter((f): f is string => !!f))];
  const about = `box: quartiles, line: median, whiskers: furthest run within 1.5 IQR, red: outliers${thinned ? ` (at most ${max} per box drawn)` : ""}`;
  const title = { text: o.title ?? `Runs by ${o.x}`, subtitle: [...(o.subtitle ?? []), about] };
  const panel = { width: Math.max(200, Math.min(560, 34 * levels.length)), height: 240, layer };
  if (facets.length <= 1) return { $schema: "https://vega.github.io/schema/vega-lite/v6.json", title, ...panel } as TopLevelSpec;
  // One panel per map: the layers' data carry the facet, so each map is a vconcat'ed copy filtered to it.
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title,
    columns: 2,
    concat: facets.map((f) => ({
      title: { text: f, fontSize: 11, fontWeight: "normal" },
      ...panel,
      layer: layer.map((l) => ({ ...l, data: { values: (l.data.values as { facet?: string }[]).filter((d) => d.facet === f) } })),
    })),
  } as TopLevelSpec;
}

/** Boxes of a dataset's runs per level of `x` (and per map), the other inputs fixed unless `pool`. */
export function boxesOf(ds: Dataset, x: string, opts: { fix?: Record<string, Cell>; pool?: boolean } = {}): { boxes: BoxStats[]; fixed: Record<string, Cell> } {
  const t = ds.table;
  const d = t.roles.inputs.length;
  const xi = t.roles.inputs.indexOf(x);
  if (xi < 0) throw new VarmapError("E_USAGE", `'${x}' is not one of the inputs (${t.roles.inputs.join(", ")})`, { remedy: "name an input column in --x" });
  const rows: Row[] = [];
  for (let c = 0; c < t.count; c++) {
    const r: Row = { c, map: mapLabelOf(t, c) };
    t.roles.inputs.forEach((name, j) => (r[name] = t.inputs[c * d + j]));
    rows.push(r);
  }
  const others = t.roles.inputs.filter((c) => c !== x);
  const fixed = opts.pool ? (opts.fix ?? {}) : resolveFix(rows, others, opts.fix);
  const kept = rows.filter((r) => Object.entries(fixed).every(([c, v]) => sameCell(r[c], v)));
  if (!kept.length)
    throw new VarmapError(
      "E_PLOT_EMPTY",
      `no configuration has ${Object.entries(fixed)
        .map(([c, v]) => `${c}=${v}`)
        .join(", ")}`,
      {
        remedy: "choose --fix levels that occur in the data",
      },
    );
  const levels = levelsOf(kept, x);
  const maps = [...new Set(kept.map((r) => String(r.map)))];
  const boxes: BoxStats[] = [];
  for (const m of maps)
    for (const lv of levels) {
      const mine = kept.filter((r) => r.map === m && sameCell(r[x], lv));
      if (!mine.length) continue;
      const vals: number[] = [];
      for (const r of mine) {
        const c = r.c as number;
        for (let i = t.offsets[c]; i < t.offsets[c + 1]; i++) vals.push(t.runs[i]);
      }
      boxes.push({ level: String(lv), ...(maps.length > 1 ? { facet: m } : {}), configs: mine.length, ...boxOf(vals) });
    }
  return { boxes, fixed };
}

export const plot: PlotKind = {
  kind: "box",
  id: "P18",
  description: "box plots of the runs per level of one input (000 Fig. 5), the other inputs fixed, a panel per map",
  writtenBy: "any runs table with its column flags (--preset or --factors/--inputs/--response)",
  dataFlags: true,
  flags: [
    { flag: "--x <col>", description: "input whose levels get a box each (default: the input with the fewest levels above 1)" },
    { flag: "--fix <col=value,…>", description: "levels of the other inputs (default: each at its most common level)" },
    { flag: "--pool", description: "pool the runs of every level of the other inputs (except those given in --fix)" },
    { flag: "--log-y", description: "logarithmic y axis" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    if (opts.map) throw new VarmapError("E_USAGE", "a box plot needs the runs, not a map table (--map)", { remedy: "give the runs table without --map" });
    const fix = parseFix(opts.fix);
    const ds = await loadForPlot(file, opts);
    const t = ds.table;
    const inputs = t.roles.inputs;
    let x = opts.x as string | undefined;
    if (!x) {
      const d = inputs.length;
      const n = inputs.map((_, j) => new Set(Array.from({ length: t.count }, (_, c) => t.inputs[c * d + j])).size);
      const order = inputs.map((c, j) => ({ c, n: n[j] })).filter((e) => e.n > 1 && !(e.c in fix));
      order.sort((a, b) => a.n - b.n);
      x = order[0]?.c ?? inputs[0];
    }
    for (const c of Object.keys(fix))
      if (!inputs.includes(c))
        throw new VarmapError("E_USAGE", `'${c}' is not one of the inputs (${inputs.join(", ")})`, { remedy: "name input columns in --fix" });
    const { boxes, fixed } = boxesOf(ds, x, { fix, pool: !!opts.pool });
    const fixedText = Object.entries(fixed)
      .map(([c, v]) => `${c}=${typeof v === "number" ? short(v, 6) : v}`)
      .join(", ");
    return boxSpec(boxes, {
      x,
      yTitle: titleOf(t.roles.response),
      logY: !!opts.logY,
      title: opts.title as string | undefined,
      subtitle: [opts.pool ? `runs pooled over the other inputs${fixedText ? ` (${fixedText})` : ""}` : fixedText].filter(Boolean),
    });
  },
};
