// P1 `heatmap`: a statistic of each configuration's runs over two inputs (seed 000 Figs. 1–3 d–f): a rectangle
// per (x, y) level pair, colour = statistic; the other inputs fixed (--fix, default each at its most common
// level), one panel per map.
import { VarmapError } from "../../errors.js";
import type { StatName } from "../../data/types.js";
import type { TopLevelSpec } from "../render.js";
import { configRows, loadForPlot, mapValues } from "../configs.js";
import { num, requireColumns, type Cell, type Row } from "../table.js";
import { short, type PlotKind } from "./types.js";

export interface HeatmapOptions {
  x: string;
  y: string;
  /** Column holding the colour value (e.g. sd). */
  value: string;
  /** Other inputs, each fixed to one level (those missing from `fix` at their most common level). */
  others?: string[];
  fix?: Record<string, Cell>;
  /** One panel per value of this column (e.g. map). */
  facet?: string;
  logColor?: boolean;
  title?: string;
  /** A line above the fixed levels in the subtitle (e.g. the map shown). */
  context?: string;
  /** Cell size in pixels. */
  cell?: number;
}

/** The level each other input is held at: given ones, else the most common among the rows left (ties: largest). */
export function resolveFix(rows: readonly Row[], others: readonly string[], given: Record<string, Cell> = {}): Record<string, Cell> {
  const fix: Record<string, Cell> = {};
  let left = rows;
  for (const col of others) {
    if (col in given) fix[col] = given[col];
    else {
      const counts = new Map<string, { v: Cell; n: number }>();
      for (const r of left) {
        const k = String(r[col]);
        const c = counts.get(k) ?? counts.set(k, { v: r[col], n: 0 }).get(k)!;
        c.n++;
      }
      const best = [...counts.values()].sort((a, b) => b.n - a.n || num(b.v) - num(a.v) || String(b.v).localeCompare(String(a.v)))[0];
      if (!best) break;
      fix[col] = best.v;
    }
    left = left.filter((r) => same(r[col], fix[col]));
  }
  return fix;
}

function same(a: Cell, b: Cell): boolean {
  return a === b || String(a) === String(b) || (Number.isFinite(num(a)) && num(a) === num(b));
}

export function heatmapSpec(rows: readonly Row[], o: HeatmapOptions): TopLevelSpec {
  const fix = resolveFix(
    rows,
    (o.others ?? []).filter((c) => c !== o.x && c !== o.y && c !== o.facet),
    o.fix,
  );
  const kept = rows.filter((r) => Object.entries(fix).every(([c, v]) => same(r[c], v)));
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
    const k = `${r[o.x]}\u0000${r[o.y]}\u0000${o.facet ? r[o.facet] : ""}`;
    if (seen.has(k))
      throw new VarmapError("E_PLOT_CELLS", `several configurations fall in the cell ${o.x}=${r[o.x]}, ${o.y}=${r[o.y]}${o.facet ? ` of ${r[o.facet]}` : ""}`, {
        remedy: "fix the other inputs with --fix col=value,… (or choose other --x/--y)",
      });
    seen.add(k);
  }
  const levels = (c: string) => [...new Set(kept.map((r) => r[c]))].sort((a, b) => num(a) - num(b) || String(a).localeCompare(String(b)));
  const xs = levels(o.x),
    ys = levels(o.y).reverse();
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  const cw = o.cell ?? clamp(Math.floor(440 / xs.length), 16, 48),
    ch = o.cell ?? clamp(Math.floor(320 / ys.length), 12, 32);
  const values = kept.map((r) => ({ x: r[o.x], y: r[o.y], v: num(r[o.value]), ...(o.facet ? { f: String(r[o.facet]) } : {}) }));
  const fixed = Object.entries(fix)
    .map(([c, v]) => `${c}=${typeof v === "number" ? short(v, 6) : v}`)
    .join(", ");
  const panel = {
    width: cw * xs.length,
    height: ch * ys.length,
    mark: { type: "rect", stroke: "white", strokeWidth: 0.5 },
    encoding: {
      x: { field: "x", type: "ordinal", title: o.x, sort: xs, axis: { labelAngle: 0 } },
      y: { field: "y", type: "ordinal", title: o.y, sort: ys, axis: { labelOverlap: "greedy" } },
      color: {
        field: "v",
        type: "quantitative",
        title: o.value,
        scale: { scheme: "viridis", ...(o.logColor ? { type: "log" } : {}) },
        legend: { format: ".3~s" },
      },
      tooltip: [
        { field: "x", title: o.x },
        { field: "y", title: o.y },
        { field: "v", title: o.value, format: ".4~g" },
      ],
    },
  };
  const subtitle = [o.context, fixed].filter((t): t is string => !!t);
  const title = { text: o.title ?? `${o.value} by ${o.x} and ${o.y}`, ...(subtitle.length ? { subtitle } : {}) };
  const base = { $schema: "https://vega.github.io/schema/vega-lite/v6.json", title, data: { values } };
  if (!o.facet) return { ...base, ...panel } as TopLevelSpec;
  const facets = [...new Set(values.map((v) => v.f!))];
  return {
    ...base,
    facet: { field: "f", type: "nominal", title: null, sort: facets, header: { labelFontSize: 11, labelLimit: 300 } },
    columns: Math.min(facets.length, 3),
    spec: panel,
  } as TopLevelSpec;
}

/** --fix "a=1,b=x" → { a: 1, b: "x" } (numbers where they parse). */
export function parseFix(s: unknown): Record<string, Cell> {
  if (typeof s !== "string" || !s.trim()) return {};
  const out: Record<string, Cell> = {};
  for (const part of s.split(",")) {
    const m = /^\s*([^=]+?)\s*=\s*(.*?)\s*$/.exec(part);
    if (!m) throw new VarmapError("E_USAGE", `--fix '${s}' is not a list of col=value`, { remedy: "e.g. --fix fsize_kb=1024,rsize_kb=32" });
    out[m[1]] = m[2] !== "" && Number.isFinite(Number(m[2])) ? Number(m[2]) : m[2];
  }
  return out;
}

/** Default axes: inputs ranked by their number of levels; y the most, x the next (seed 000 plots freq × threads). */
export function defaultAxes(rows: readonly Row[], inputs: readonly string[], given: { x?: string; y?: string } = {}): { x: string; y: string } {
  const ranked = [...inputs]
    .map((c) => ({ c, n: new Set(rows.map((r) => String(r[c]))).size }))
    .sort((a, b) => b.n - a.n)
    .map((e) => e.c);
  const y = given.y ?? ranked.find((c) => c !== given.x);
  const x = given.x ?? ranked.find((c) => c !== y);
  if (!x || !y || x === y)
    throw new VarmapError("E_USAGE", `a heatmap needs two different inputs, the data has ${inputs.join(", ")}`, {
      remedy: "give --inputs with at least two columns, and different --x and --y",
    });
  return { x, y };
}

export const plot: PlotKind = {
  kind: "heatmap",
  id: "P1",
  description: "a statistic of each configuration's runs over two inputs, one panel per map",
  writtenBy: "any runs table with its column flags (--preset or --factors/--inputs/--response), or a map table with --map",
  dataFlags: true,
  flags: [
    { flag: "--x <col>", description: "input on the x axis (default: the input with the second most levels)" },
    { flag: "--y <col>", description: "input on the y axis (default: the input with the most levels)" },
    { flag: "--fix <col=value,…>", description: "levels of the other inputs (default: each at its most common level)" },
    { flag: "--log-color", description: "logarithmic colour scale" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const fix = parseFix(opts.fix);
    const stat = ((opts.stat as string) ?? "sd") as StatName;
    const ds = await loadForPlot(file, opts);
    const inputs = ds.table.roles.inputs;
    const { column, values } = mapValues(ds, stat, !!opts.map);
    const rows = configRows(ds, column, values);
    for (const c of [opts.x, opts.y, ...Object.keys(fix)].filter((c): c is string => typeof c === "string"))
      if (!inputs.includes(c))
        throw new VarmapError("E_USAGE", `'${c}' is not one of the inputs (${inputs.join(", ")})`, { remedy: "name an input column in --x, --y and --fix" });
    const { x, y } = defaultAxes(rows, inputs, { x: opts.x as string | undefined, y: opts.y as string | undefined });
    requireColumns(rows, [x, y, column], { kind: "heatmap", file, writtenBy: plot.writtenBy });
    const maps = new Set(rows.map((r) => r.map)).size;
    return heatmapSpec(rows, {
      x,
      y,
      value: column,
      others: inputs,
      fix,
      facet: maps > 1 ? "map" : undefined,
      logColor: !!opts.logColor,
      title: (opts.title as string | undefined) ?? (opts.map ? `${column} by ${x} and ${y}` : `${stat} of ${ds.table.roles.response} by ${x} and ${y}`),
    });
  },
};
