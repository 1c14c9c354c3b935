// P21 `lines`: a statistic of each configuration's runs (mean throughput, sd, …) against one input, one line per level
// of another column (seed 000 Figs. 1–3 a–c: throughput against threads / file size / record size, a line per
// CPU frequency); the other inputs fixed (--fix, default each at its most common level), a panel per map.
import { VarmapError } from "../../errors.js";
import type { StatName } from "../../data/types.js";
import type { TopLevelSpec } from "../render.js";
import { configRows, loadForPlot, mapValues } from "../configs.js";
import { num, type Cell, type Row } from "../table.js";
import { NUMBER_LABEL, statTitle, titleOf } from "../units.js";
import { parseFix, resolveFix } from "./heatmap.js";
import { short, type PlotKind } from "./types.js";

export interface LinesOptions {
  x: string;
  /** One line per level of this column. */
  series: string;
  /** Column holding the y value. */
  value: string;
  yTitle?: string;
  others?: string[];
  fix?: Record<string, Cell>;
  facet?: string;
  logX?: boolean;
  logY?: boolean;
  title?: string;
}

export function sameCell(a: Cell, b: Cell): boolean {
  return a === b || String(a) === String(b) || (Number.isFinite(num(a)) && num(a) === num(b));
}

/** Levels of a column in numeric order (text after numbers, alphabetically). */
export function levelsOf(rows: readonly Row[], col: string): Cell[] {
  return [...new Set(rows.map((r) => r[col]))].sort((a, b) => {
    const x = num(a),
      y = num(b);
    if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
    if (Number.isFinite(x)) return -1;
    if (Number.isFinite(y)) return 1;
    return String(a).localeCompare(String(b));
  });
}

export function linesSpec(rows: readonly Row[], o: LinesOptions): TopLevelSpec {
  const fix = resolveFix(
    rows,
    (o.others ?? []).filter((c) => c !== o.x && c !== o.series && c !== o.facet),
    o.fix,
  );
  const kept = rows.filter((r) => Object.entries(fix).every(([c, v]) => sameCell(r[c], v)));
  if (!kept.length)
    throw new VarmapError(
      "E_PLOT_EMPTY",
      `no configuration has ${Object.entries(fix)
        .map(([c, v]) => `${c}=${v}`)
        .join(", ")}`,
      { remedy: "choose --fix levels that occur in the data" },
    );
  const seen = new Set<string>();
  for (const r of kept) {
    const k = `${r[o.x]}\u0000${r[o.series]}\u0000${o.facet ? r[o.facet] : ""}`;
    if (seen.has(k))
      throw new VarmapError("E_PLOT_CELLS", `several configurations have ${o.x}=${r[o.x]}, ${o.series}=${r[o.series]}${o.facet ? ` in ${r[o.facet]}` : ""}`, {
        remedy: "fix the other inputs with --fix col=value,… (or choose another --series)",
      });
    seen.add(k);
  }
  const values = kept
    .map((r) => ({ x: num(r[o.x]), y: num(r[o.value]), s: String(r[o.series]), ...(o.facet ? { f: String(r[o.facet]) } : {}), n: num(r.n) }))
    .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && (!o.logX || p.x > 0) && (!o.logY || p.y > 0));
  if (!values.length) throw new VarmapError("E_PLOT_EMPTY", `no configuration has a finite ${o.value}`, { remedy: "check --where and --stat" });
  const series = levelsOf(kept, o.series).map(String);
  const numericSeries = series.every((s) => Number.isFinite(Number(s)));
  const fixed = Object.entries(fix)
    .map(([c, v]) => `${c}=${typeof v === "number" ? short(v, 6) : v}`)
    .join(", ");
  const many = series.length > 10;
  const panel = {
    width: 380,
    height: 240,
    params: [{ name: "zoom", select: { type: "interval", encodings: ["x", "y"] }, bind: "scales" }],
    mark: { type: "line", point: { size: 24 }, strokeWidth: 1.5 },
    encoding: {
      x: {
        field: "x",
        type: "quantitative",
        title: titleOf(o.x),
        scale: o.logX ? { type: "log", base: 2 } : { zero: false },
        axis: { labelExpr: NUMBER_LABEL },
      },
      y: {
        field: "y",
        type: "quantitative",
        title: o.yTitle ?? titleOf(o.value),
        scale: o.logY ? { type: "log" } : { zero: false },
        axis: { labelExpr: NUMBER_LABEL },
      },
      color: {
        field: "s",
        type: numericSeries ? "ordinal" : "nominal",
        title: titleOf(o.series),
        sort: series,
        scale: { scheme: numericSeries ? "viridis" : "tableau10" },
        legend: many ? { columns: 2, symbolLimit: 40 } : {},
      },
      tooltip: [
        { field: "s", title: o.series },
        { field: "x", title: o.x },
        { field: "y", title: o.yTitle ?? o.value, format: ".4~g" },
        { field: "n", title: "runs" },
      ],
    },
  };
  const subtitle = [`one line per ${o.series}`, fixed].filter((t): t is string => !!t);
  const title = { text: o.title ?? `${o.yTitle ?? o.value} against ${o.x}`, subtitle };
  const base = { $schema: "https://vega.github.io/schema/vega-lite/v6.json", title, data: { values } };
  if (!o.facet) return { ...base, ...panel } as TopLevelSpec;
  const facets = [...new Set(values.map((v) => v.f!))];
  return {
    ...base,
    facet: { field: "f", type: "nominal", title: null, sort: facets, header: { labelFontSize: 11, labelLimit: 300 } },
    columns: Math.min(facets.length, 2),
    spec: panel,
  } as TopLevelSpec;
}

/** Default x: the input with the most levels; default series: the next one (other than x). */
export function defaultLines(rows: readonly Row[], inputs: readonly string[], given: { x?: string; series?: string }): { x: string; series: string } {
  const ranked = [...inputs].map((c) => ({ c, n: new Set(rows.map((r) => String(r[c]))).size })).sort((a, b) => b.n - a.n);
  const x = given.x ?? ranked.find((e) => e.c !== given.series)?.c;
  const series = given.series ?? ranked.find((e) => e.c !== x)?.c;
  if (!x || !series || x === series)
    throw new VarmapError("E_USAGE", `a lines plot needs two different columns for --x and --series (the inputs are ${inputs.join(", ")})`, {
      remedy: "give --x and --series, e.g. --x threads --series freq_khz",
    });
  return { x, series };
}

export const plot: PlotKind = {
  kind: "lines",
  id: "P21",
  description: "a statistic against one input, one line per level of another (000 Figs. 1–3 a–c), a panel per map",
  writtenBy: "any runs table with its column flags (--preset or --factors/--inputs/--response), or a map table with --map",
  dataFlags: true,
  flags: [
    { flag: "--x <col>", description: "input on the x axis (default: the input with the most levels)" },
    { flag: "--series <col>", description: "one line per level of this input or factor (default: the input with the next most levels)" },
    { flag: "--fix <col=value,…>", description: "levels of the other inputs (default: each at its most common level)" },
    { flag: "--log-x", description: "logarithmic (base 2) x axis" },
    { flag: "--log-y", description: "logarithmic y axis" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const fix = parseFix(opts.fix);
    const stat = ((opts.stat as string) ?? "sd") as StatName;
    const ds = await loadForPlot(file, opts);
    const { inputs, factors, response } = ds.table.roles;
    const { column, values } = mapValues(ds, stat, !!opts.map);
    const rows = configRows(ds, column, values);
    const cols = [...inputs, ...factors];
    for (const c of [opts.x, ...Object.keys(fix)].filter((c): c is string => typeof c === "string"))
      if (!inputs.includes(c))
        throw new VarmapError("E_USAGE", `'${c}' is not one of the inputs (${inputs.join(", ")})`, { remedy: "name an input column in --x and --fix" });
    if (typeof opts.series === "string" && !cols.includes(opts.series))
      throw new VarmapError("E_USAGE", `--series '${opts.series}' is not an input or factor (${cols.join(", ")})`, { remedy: "e.g. --series freq_khz" });
    const { x, series } = defaultLines(rows, inputs, { x: opts.x as string | undefined, series: opts.series as string | undefined });
    const facetCol = factors.includes(series) ? undefined : "map";
    const maps = new Set(rows.map((r) => r.map)).size;
    return linesSpec(rows, {
      x,
      series,
      value: column,
      yTitle: opts.map ? titleOf(column) : statTitle(stat, response),
      others: inputs,
      fix,
      facet: facetCol && maps > 1 ? facetCol : undefined,
      logX: !!opts.logX,
      logY: !!opts.logY,
      title: opts.title as string | undefined,
    });
  },
};
