// P19 `design`: the experimental design as a scatter matrix (seed 000 Fig. 6, seed 001 Fig. 2): for every pair of inputs,
// a mark per pair of levels — filled dots where some configuration was measured, open diamonds where the pair of
// levels is on the grid of levels but was never measured (unseen: predictions there extrapolate the design), and,
// with --at, crosses at the configurations of a prediction table (`varmap predict --at`). Lower triangle; the
// diagonal names the input and its levels.
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { loadForPlot } from "../configs.js";
import { num, readTable, type Row } from "../table.js";
import { titleOf } from "../units.js";
import type { PlotKind } from "./types.js";

export interface DesignPoint {
  /** The pair of inputs: column (x) and row (y). */
  cx: string;
  cy: string;
  x: number;
  y: number;
  status: "measured" | "unseen" | "queried";
  /** Measured configurations with these two levels. */
  configs: number;
}

/** Every pair of inputs (i > j) and every pair of their levels: measured, unseen on the grid, or queried. */
export function designPoints(configs: readonly number[][], inputs: readonly string[], queried: readonly number[][] = []): DesignPoint[] {
  const out: DesignPoint[] = [];
  const levels = inputs.map((_, j) => [...new Set(configs.map((c) => c[j]))].sort((a, b) => a - b));
  for (let i = 1; i < inputs.length; i++)
    for (let j = 0; j < i; j++) {
      const count = new Map<string, number>();
      for (const c of configs) {
        const k = `${c[j]}\u0000${c[i]}`;
        count.set(k, (count.get(k) ?? 0) + 1);
      }
      for (const x of levels[j])
        for (const y of levels[i]) {
          const n = count.get(`${x}\u0000${y}`) ?? 0;
          out.push({ cx: inputs[j], cy: inputs[i], x, y, status: n ? "measured" : "unseen", configs: n });
        }
      const q = new Set<string>();
      for (const c of queried) {
        const k = `${c[j]}\u0000${c[i]}`;
        if (q.has(k) || count.has(k)) continue;
        q.add(k);
        out.push({ cx: inputs[j], cy: inputs[i], x: c[j], y: c[i], status: "queried", configs: 0 });
      }
    }
  return out;
}

export function designSpec(
  points: readonly DesignPoint[],
  inputs: readonly string[],
  o: { title?: string; log?: readonly string[]; configs?: number } = {},
): TopLevelSpec {
  if (inputs.length < 2)
    throw new VarmapError("E_USAGE", `a design plot needs two inputs or more (the data has ${inputs.join(", ") || "none"})`, {
      remedy: "give --inputs with two columns or more",
    });
  const size = inputs.length > 3 ? 150 : 200;
  const statuses = ["measured", "unseen", "queried"].filter((s) => points.some((p) => p.status === s));
  const cell = (cx: string, cy: string, showX: boolean, showY: boolean) => {
    const logX = o.log?.includes(cx),
      logY = o.log?.includes(cy);
    return {
      width: size,
      height: size,
      data: { values: points.filter((p) => p.cx === cx && p.cy === cy) },
      mark: { type: "point", size: 70, strokeWidth: 1.6 },
      encoding: {
        x: {
          field: "x",
          type: "quantitative",
          title: showX ? titleOf(cx) : null,
          scale: logX ? { type: "log", base: 2, padding: 10 } : { zero: false, padding: 10 },
          axis: { labels: showX, tickCount: 5, labelExpr: "abs(datum.value) >= 1e4 ? format(datum.value, '.2~s') : format(datum.value, '~g')" },
        },
        y: {
          field: "y",
          type: "quantitative",
          title: showY ? titleOf(cy) : null,
          scale: logY ? { type: "log", base: 2, padding: 10 } : { zero: false, padding: 10 },
          axis: { labels: showY, tickCount: 5, labelExpr: "abs(datum.value) >= 1e4 ? format(datum.value, '.2~s') : format(datum.value, '~g')" },
        },
        color: {
          field: "status",
          type: "nominal",
          title: "combination",
          sort: statuses,
          scale: { domain: ["measured", "unseen", "queried"], range: ["#1f4e9c", "#c0392b", "#e69f00"] },
        },
        shape: {
          field: "status",
          type: "nominal",
          title: "combination",
          sort: statuses,
          scale: { domain: ["measured", "unseen", "queried"], range: ["circle", "diamond", "cross"] },
        },
        fill: { condition: { test: "datum.status === 'measured'", value: "#1f4e9c" }, value: "transparent" },
        tooltip: [
          { field: "x", title: cx },
          { field: "y", title: cy },
          { field: "status", title: "combination" },
          { field: "configs", title: "measured configurations" },
        ],
      },
    };
  };
  const rowsOut = [];
  for (let i = 1; i < inputs.length; i++) {
    const cells = [];
    for (let j = 0; j < inputs.length - 1; j++) {
      if (j < i) cells.push(cell(inputs[j], inputs[i], i === inputs.length - 1, j === 0));
      else
        cells.push({
          width: size,
          height: size,
          mark: { type: "text", fontSize: 12, color: "#888" },
          data: { values: [{}] },
          encoding: { text: { value: "" } },
        });
    }
    rowsOut.push({ hconcat: cells });
  }
  const n = {
    m: points.filter((p) => p.status === "measured").length,
    u: points.filter((p) => p.status === "unseen").length,
    q: points.filter((p) => p.status === "queried").length,
  };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: o.title ?? "The design: measured and unseen combinations of the inputs",
      subtitle: `${o.configs !== undefined ? `${o.configs} configurations; ` : ""}each panel a pair of inputs; dots: measured pairs of levels (${n.m}), diamonds: pairs on the grid never measured (${n.u})${n.q ? `, crosses: queried off the design (${n.q})` : ""}`,
    },
    vconcat: rowsOut,
    resolve: { scale: { color: "shared", shape: "shared" } },
    config: { view: { stroke: "#ccc" } },
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "design",
  id: "P19",
  description: "scatter matrix of the design: measured and unseen combinations of each pair of inputs (000 Fig. 6, 001 Fig. 2)",
  writtenBy: "any runs table with its column flags (--preset or --factors/--inputs/--response), or a map table with --map",
  dataFlags: true,
  flags: [
    { flag: "--at <table>", description: "configurations to predict (the table given to `varmap predict --at`), marked as queried" },
    { flag: "--log <cols>", description: "inputs on base-2 logarithmic axes (comma-separated)" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const ds = await loadForPlot(file, opts);
    const t = ds.table;
    const inputs = t.roles.inputs;
    const d = inputs.length;
    const configs = Array.from({ length: t.count }, (_, c) => Array.from(t.inputs.subarray(c * d, (c + 1) * d)));
    let queried: number[][] = [];
    if (typeof opts.at === "string") {
      const rows: Row[] = await readTable(opts.at);
      const missing = inputs.filter((c) => rows.length && !(c in rows[0]));
      if (missing.length)
        throw new VarmapError("E_PLOT_COLUMNS", `--at table lacks the input column(s) ${missing.join(", ")}`, {
          location: { file: opts.at },
          remedy: "give the table given to varmap predict --at",
        });
      queried = rows.map((r) => inputs.map((c) => num(r[c])));
    }
    const log = typeof opts.log === "string" ? opts.log.split(",").map((s) => s.trim()) : [];
    for (const c of log)
      if (!inputs.includes(c))
        throw new VarmapError("E_USAGE", `--log '${c}' is not one of the inputs (${inputs.join(", ")})`, { remedy: "e.g. --log fsize_kb,rsize_kb" });
    return designSpec(designPoints(configs, inputs, queried), inputs, { title: opts.title as string | undefined, log, configs: t.count });
  },
};
