// P1 `heatmap`: a statistic of each configuration's runs over two inputs (seed 000 Figs. 1–3 d–f): a rectangle
// per (x, y) level pair, colour = statistic; the other inputs fixed (--fix, default each at its most common
// level), one panel per map.
import { VarmapError } from "../../errors.js";
import type { StatName } from "../../data/types.js";
import type { TopLevelSpec } from "../render.js";
import { configRows, loadForPlot, mapValues } from "../configs.js";
import { num, requireColumns, type Cell, type Row } from "../table.js";
import { short, type PlotKind } from "./types.js";
import { NUMBER_LABEL, statTitle, titleOf } from "../units.js";

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
  /** Colour title (default: the value column with its unit). */
  colorTitle?: string;
  /** A diverging colour scale centred on 0 (differences, --diff). */
  diverging?: boolean;
  /** A column naming each configuration, carried into the data as `cfg` (the report's click-to-histogram). */
  id?: string;
}

/** A Vega label expression naming level i of `levels` (axis values are level indices). */
function levelLabels(levels: readonly Cell[]): string {
  const text = levels.map((v) => (typeof v === "number" ? short(v, 6) : String(v)));
  return `${JSON.stringify(text)}[datum.value] || ''`;
}

/** --diff "col=a,b" → { column, a, b }. */
export function parseDiff(s: unknown): { column: string; a: string; b: string } | undefined {
  if (s === undefined) return undefined;
  const m = typeof s === "string" ? /^\s*([^=]+?)\s*=\s*([^,]+?)\s*,\s*([^,]+?)\s*$/.exec(s) : null;
  if (!m)
    throw new VarmapError("E_USAGE", `--diff '${String(s)}' is not col=a,b`, {
      remedy: "e.g. --diff threads=256,64 (the change from threads=256 to threads=64)",
    });
  return { column: m[1], a: m[2], b: m[3] };
}

/**
 * The change of a value between two settings of one column (seed 000 Fig. 4: the change in variance from 256 down
 * to 64 threads): for every configuration with `column` = a that has a twin with `column` = b (same values of all
 * `keys`), one row with the twin's value minus its own under `value`, the other columns as they are.
 */
export function diffRows(rows: readonly Row[], d: { column: string; a: string; b: string }, keys: readonly string[], value: string): Row[] {
  const isLevel = (v: Cell, lv: string) => String(v) === lv || (Number.isFinite(num(v)) && num(v) === Number(lv));
  const others = keys.filter((k) => k !== d.column);
  const keyOf = (r: Row) => others.map((k) => String(r[k])).join("\u0000");
  const bs = new Map<string, Row>();
  for (const r of rows) if (isLevel(r[d.column], d.b)) bs.set(keyOf(r), r);
  const out: Row[] = [];
  for (const r of rows) {
    if (!isLevel(r[d.column], d.a)) continue;
    const twin = bs.get(keyOf(r));
    if (!twin) continue;
    out.push({ ...r, [d.column]: `${d.a}→${d.b}`, [value]: num(twin[value]) - num(r[value]), from: num(r[value]), to: num(twin[value]) });
  }
  const levels = new Set(rows.map((r) => String(r[d.column])));
  for (const lv of [d.a, d.b])
    if (![...levels].some((l) => isLevel(l, lv)))
      throw new VarmapError("E_USAGE", `--diff: ${d.column} has no level ${lv} (levels: ${[...levels].slice(0, 12).join(", ")})`, {
        remedy: "name two levels that occur in the data",
      });
  if (!out.length)
    throw new VarmapError("E_PLOT_EMPTY", `no configuration at ${d.column}=${d.a} has a twin at ${d.column}=${d.b}`, {
      remedy: "choose two levels measured at the same other settings",
    });
  return out;
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
    ysUp = levels(o.y),
    ys = [...ysUp].reverse();
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  const cw = o.cell ?? clamp(Math.floor(440 / xs.length), 16, 48),
    ch = o.cell ?? clamp(Math.floor(320 / ys.length), 12, 32);
  const values = kept.map((r) => ({
    x: r[o.x],
    y: r[o.y],
    v: num(r[o.value]),
    ...(o.facet ? { f: String(r[o.facet]) } : {}),
    ...Object.fromEntries(Object.keys(fix).map((c) => [`k_${c}`, r[c]])),
    ...(o.diverging ? { from: num(r.from), to: num(r.to) } : {}),
    ...(r.n !== undefined ? { n: num(r.n) } : {}),
    ...(o.id ? { cfg: String(r[o.id]) } : {}),
    xi: xs.findIndex((v) => same(v, r[o.x])),
    yi: ysUp.findIndex((v) => same(v, r[o.y])),
  }));
  const fixed = Object.entries(fix)
    .map(([c, v]) => `${c}=${typeof v === "number" ? short(v, 6) : v}`)
    .join(", ");
  // A diverging scale symmetric about 0 (white = no change), whatever the sign of the changes.
  const spread = Math.max(...values.map((v) => Math.abs(v.v)).filter(Number.isFinite), Number.MIN_VALUE);
  const panel = {
    width: cw * xs.length,
    height: ch * ys.length,
    ...(o.facet ? {} : { params: [{ name: "zoom", select: { type: "interval", encodings: ["x", "y"] }, bind: "scales" }] }),
    transform: [
      { calculate: "datum.xi - 0.5", as: "x0" },
      { calculate: "datum.xi + 0.5", as: "x1" },
      { calculate: "datum.yi - 0.5", as: "y0" },
      { calculate: "datum.yi + 0.5", as: "y1" },
    ],
    mark: { type: "rect", stroke: "white", strokeWidth: 0.5, clip: true },
    encoding: {
      // Level indices on linear scales (a rectangle from i − ½ to i + ½), labelled with the levels: a heat map that
      // zooms and pans like a scatter plot (scale-bound interval selection), which band scales cannot.
      x: {
        field: "x0",
        type: "quantitative",
        title: titleOf(o.x),
        scale: { domain: [-0.5, xs.length - 0.5], nice: false, zero: false },
        axis: { values: xs.map((_, i) => i), labelExpr: levelLabels(xs), labelAngle: 0, grid: false, labelOverlap: "greedy" },
      },
      x2: { field: "x1" },
      y: {
        field: "y0",
        type: "quantitative",
        title: titleOf(o.y),
        scale: { domain: [-0.5, ysUp.length - 0.5], nice: false, zero: false },
        axis: { values: ysUp.map((_, i) => i), labelExpr: levelLabels(ysUp), grid: false, labelOverlap: "greedy" },
      },
      y2: { field: "y1" },
      color: {
        field: "v",
        type: "quantitative",
        title: o.colorTitle ?? titleOf(o.value),
        scale: o.diverging ? { scheme: "redblue", reverse: true, domain: [-spread, spread] } : { scheme: "viridis", ...(o.logColor ? { type: "log" } : {}) },
        legend: { labelExpr: NUMBER_LABEL, titleLimit: 320 },
      },
      tooltip: [
        ...(o.facet ? [{ field: "f", title: "map" }] : []),
        { field: "x", title: o.x },
        { field: "y", title: o.y },
        ...Object.keys(fix).map((c) => ({ field: `k_${c}`, title: c })),
        { field: "v", title: o.colorTitle ?? o.value, format: ".4~g" },
        ...(o.diverging
          ? [
              { field: "from", format: ".4~g" },
              { field: "to", format: ".4~g" },
            ]
          : []),
        { field: "n", title: "runs" },
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
    { flag: "--diff <col=a,b>", description: "colour = the change of the statistic from col=a to col=b (000 Fig. 4; e.g. --stat var --diff threads=256,64)" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const fix = parseFix(opts.fix);
    const stat = ((opts.stat as string) ?? "sd") as StatName;
    const ds = await loadForPlot(file, opts);
    const inputs = ds.table.roles.inputs;
    const { column, values } = mapValues(ds, stat, !!opts.map);
    const diff = parseDiff(opts.diff);
    const { factors } = ds.table.roles;
    if (diff && !inputs.includes(diff.column) && !factors.includes(diff.column))
      throw new VarmapError("E_USAGE", `--diff: '${diff.column}' is not an input or factor (${[...inputs, ...factors].join(", ")})`, {
        remedy: "e.g. --diff threads=256,64",
      });
    if (diff && opts.logColor)
      throw new VarmapError("E_USAGE", "--log-color does not apply to --diff (differences can be negative)", { remedy: "drop --log-color" });
    let rows = configRows(ds, column, values);
    if (diff) rows = diffRows(rows, diff, [...factors, ...inputs], column);
    if (diff && factors.includes(diff.column)) for (const r of rows) r.map = factors.map((f) => `${f}=${r[f]}`).join(", ");
    const axisInputs = diff ? inputs.filter((c) => c !== diff.column) : inputs;
    for (const c of [opts.x, opts.y, ...Object.keys(fix)].filter((c): c is string => typeof c === "string"))
      if (!inputs.includes(c))
        throw new VarmapError("E_USAGE", `'${c}' is not one of the inputs (${inputs.join(", ")})`, { remedy: "name an input column in --x, --y and --fix" });
    if (diff && [opts.x, opts.y, ...Object.keys(fix)].includes(diff.column))
      throw new VarmapError("E_USAGE", `--diff column '${diff.column}' cannot also be --x, --y or fixed`, { remedy: "choose the axes among the other inputs" });
    const { x, y } = defaultAxes(rows, axisInputs, { x: opts.x as string | undefined, y: opts.y as string | undefined });
    requireColumns(rows, [x, y, column], { kind: "heatmap", file, writtenBy: plot.writtenBy });
    const maps = new Set(rows.map((r) => r.map)).size;
    const what = opts.map ? titleOf(column) : statTitle(stat, ds.table.roles.response);
    return heatmapSpec(rows, {
      x,
      y,
      value: column,
      others: axisInputs,
      fix,
      facet: maps > 1 ? "map" : undefined,
      logColor: !!opts.logColor,
      diverging: !!diff,
      colorTitle: diff ? `change in ${stat}` : what,
      context: diff ? `change from ${diff.column}=${diff.a} to ${diff.column}=${diff.b} (value at ${diff.b} minus value at ${diff.a})` : undefined,
      title:
        (opts.title as string | undefined) ??
        (diff ? `Change in ${what} from ${diff.column}=${diff.a} to ${diff.b}, by ${x} and ${y}` : `${what} by ${x} and ${y}`),
    });
  },
};
