// P16 `whatif`: the candidates of `varmap whatif` on two criteria (default predicted mean vs predicted cv, as
// seed 004 Figs. 8–9 trade time against cost), the Pareto front (pareto = true) connected and drawn on top, and the
// best --top candidates by the objective labelled with their rank.
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import type { PlotKind } from "./types.js";

const WRITTEN_BY = "`varmap whatif … --out whatif.csv` (add --pareto a,b for the front)";

export interface WhatifOptions {
  x: string;
  y: string;
  /** Candidates labelled with their rank (rank 1..top). */
  top: number;
  logX?: boolean;
  logY?: boolean;
  title?: string;
}

export function whatifSpec(rows: readonly Row[], o: WhatifOptions): TopLevelSpec {
  const hasPareto = columnsOf(rows).includes("pareto");
  const pts = rows
    .map((r) => ({ x: num(r[o.x]), y: num(r[o.y]), rank: num(r.rank), pareto: hasPareto && String(r.pareto) === "true" }))
    .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && (!o.logX || p.x > 0) && (!o.logY || p.y > 0));
  if (!pts.length)
    throw new VarmapError("E_PLOT_EMPTY", `no candidate has finite ${o.x} and ${o.y}`, {
      remedy: "check the whatif table (invalid predictions are not ranked)",
    });
  const front = pts.filter((p) => p.pareto).sort((a, b) => a.x - b.x || a.y - b.y);
  const top = pts.filter((p) => p.rank >= 1 && p.rank <= o.top).sort((a, b) => a.rank - b.rank);
  const sx = o.logX ? { type: "log" } : { zero: false },
    sy = o.logY ? { type: "log" } : { zero: false };
  const x = { field: "x", type: "quantitative", title: o.x, scale: sx, axis: { format: "~s" } };
  const y = { field: "y", type: "quantitative", title: o.y, scale: sy, axis: { format: "~g" } };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: o.title ?? `What-if: ${o.y} against ${o.x}`,
      subtitle: `${pts.length} candidate(s)${front.length ? `; red: the Pareto front (${front.length})` : ""}; labels: the ${top.length} best by the objective`,
    },
    width: 480,
    height: 340,
    layer: [
      { data: { values: pts.filter((p) => !p.pareto) }, mark: { type: "point", size: 14, color: "#7f7f7f", opacity: 0.5 }, encoding: { x, y } },
      ...(front.length
        ? [
            {
              data: { values: front },
              mark: { type: "line", color: "#d62728", strokeWidth: 1.5 },
              encoding: { x, y, order: { field: "x", type: "quantitative" } },
            },
            { data: { values: front }, mark: { type: "point", filled: true, size: 30, color: "#d62728" }, encoding: { x, y } },
          ]
        : []),
      { data: { values: top }, mark: { type: "point", shape: "diamond", filled: true, size: 60, color: "#1f4e9c" }, encoding: { x, y } },
      {
        data: { values: top.map((p) => ({ ...p, label: `#${p.rank}` })) },
        mark: { type: "text", align: "left", dx: 6, dy: -6, fontSize: 11, color: "#1f4e9c" },
        encoding: { x, y, text: { field: "label" } },
      },
    ],
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "whatif",
  id: "P16",
  description: "what-if candidates on two criteria, the Pareto front connected, the best by the objective labelled",
  writtenBy: WRITTEN_BY,
  flags: [
    { flag: "--x <col>", description: "criterion on the x axis", default: "pred_mean" },
    { flag: "--y <col>", description: "criterion on the y axis", default: "pred_cv" },
    { flag: "--top <n>", description: "candidates labelled with their rank", default: "5" },
    { flag: "--log-x", description: "logarithmic x axis" },
    { flag: "--log-y", description: "logarithmic y axis" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const top = Number(opts.top ?? 5);
    if (!Number.isInteger(top) || top < 0 || top > 100)
      throw new VarmapError("E_USAGE", `--top '${opts.top}' is not a count from 0 to 100`, { remedy: "e.g. --top 5" });
    const rows = await readTable(file);
    const x = String(opts.x ?? "pred_mean"),
      y = String(opts.y ?? "pred_cv");
    requireColumns(rows, [x, y, "rank"], { kind: "whatif", file, writtenBy: WRITTEN_BY });
    return whatifSpec(rows, { x, y, top, logX: !!opts.logX, logY: !!opts.logY, title: opts.title as string | undefined });
  },
};
