// P16 `whatif`: the candidates of `varmap whatif` on two criteria (default predicted mean vs predicted cv, as
// seed 004 Figs. 8–9 trade time against cost), the Pareto front (pareto = true) connected and drawn on top, and the
// best --top candidates by the objective labelled with their rank.
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import type { PlotKind } from "./types.js";
import { NUMBER_LABEL, titleOf, unitOf } from "../units.js";

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

/** A label's box in pixels (left, top, right, bottom). */
type Box = [number, number, number, number];

const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * Places rank labels ("#3") next to their points without overlapping one another or the labelled points (issue 44
 * item 5: labels printed on top of each other): for each point in rank order, the first free spot of 8 directions
 * at growing distance; a label with no free spot within 4 steps is left out (and counted).
 */
export function placeLabels(
  pts: readonly { px: number; py: number; text: string }[],
  size: { width: number; height: number },
  charWidth = 7,
  lineHeight = 12,
): { placed: { i: number; left: number; top: number; moved: boolean }[]; dropped: number[] } {
  const taken: Box[] = pts.map((p) => [p.px - 4, p.py - 4, p.px + 4, p.py + 4]);
  const placed: { i: number; left: number; top: number; moved: boolean }[] = [];
  const dropped: number[] = [];
  const dirs = [
    [1, -1],
    [1, 1],
    [-1, -1],
    [-1, 1],
    [1, 0],
    [-1, 0],
    [0, -1],
    [0, 1],
  ];
  pts.forEach((p, i) => {
    const w = charWidth * p.text.length,
      h = lineHeight;
    for (let step = 1; step <= 4; step++) {
      for (const [dx, dy] of dirs) {
        const cx = p.px + dx * (4 + (step - 1) * 10) + (dx > 0 ? 0 : dx < 0 ? -w : -w / 2);
        const cy = p.py + dy * (4 + (step - 1) * 8) + (dy > 0 ? 0 : dy < 0 ? -h : -h / 2);
        const box: Box = [cx, cy, cx + w, cy + h];
        if (box[0] < 0 || box[1] < 0 || box[2] > size.width || box[3] > size.height) continue;
        if (taken.some((t) => overlaps(t, box))) continue;
        taken.push(box);
        placed.push({ i, left: cx, top: cy, moved: step > 1 });
        return;
      }
    }
    dropped.push(i);
  });
  return { placed, dropped };
}

export function whatifSpec(rows: readonly Row[], o: WhatifOptions): TopLevelSpec {
  const hasPareto = columnsOf(rows).includes("pareto");
  const all = rows
    .map((r) => ({
      x: num(r[o.x]),
      y: num(r[o.y]),
      rank: num(r.rank),
      pareto: hasPareto && String(r.pareto) === "true",
      invalid: String(r.invalid_prediction) === "true",
    }))
    .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && (!o.logX || p.x > 0) && (!o.logY || p.y > 0));
  if (!all.length)
    throw new VarmapError("E_PLOT_EMPTY", `no candidate has finite ${o.x} and ${o.y}`, {
      remedy: "check the whatif table (invalid predictions are not ranked)",
    });
  // Ranked candidates are the feasible ones (whatif ranks and sorts fronts among feasible candidates only); the
  // others (constraints not met) are drawn apart, so the front is seen to cover feasible candidates only.
  const feasible = all.filter((p) => p.rank >= 1);
  const infeasible = all.filter((p) => !(p.rank >= 1) && !p.invalid);
  const pts = feasible.length ? feasible : all;
  const front = pts.filter((p) => p.pareto).sort((a, b) => a.x - b.x || a.y - b.y);
  const top = pts.filter((p) => p.rank >= 1 && p.rank <= o.top).sort((a, b) => a.rank - b.rank);
  // Explicit domains (5 % padding) so label positions can be computed in pixels.
  const W = 480,
    H = 340;
  const dom = (v: number[], log?: boolean): [number, number] => {
    const lo = Math.min(...v),
      hi = Math.max(...v);
    if (log) {
      const r = hi / lo > 1 ? Math.pow(hi / lo, 0.05) : 1.1;
      return [lo / r, hi * r];
    }
    const pad = hi > lo ? 0.05 * (hi - lo) : Math.abs(lo) * 0.05 || 1;
    return [lo - pad, hi + pad];
  };
  const dx = dom(
    all.map((p) => p.x),
    o.logX,
  );
  const dy = dom(
    all.map((p) => p.y),
    o.logY,
  );
  const t = (v: number, log?: boolean) => (log ? Math.log(v) : v);
  const px = (v: number) => ((t(v, o.logX) - t(dx[0], o.logX)) / (t(dx[1], o.logX) - t(dx[0], o.logX))) * W;
  const py = (v: number) => H - ((t(v, o.logY) - t(dy[0], o.logY)) / (t(dy[1], o.logY) - t(dy[0], o.logY))) * H;
  const inv = (p: number, d: [number, number], log?: boolean) => {
    const v = t(d[0], log) + p * (t(d[1], log) - t(d[0], log));
    return log ? Math.exp(v) : v;
  };
  const { placed, dropped } = placeLabels(
    top.map((p) => ({ px: px(p.x), py: py(p.y), text: `#${p.rank}` })),
    { width: W, height: H },
  );
  const labels = placed.map((l) => ({
    lx: inv(l.left / W, dx, o.logX),
    ly: inv((H - (l.top + 6)) / H, dy, o.logY),
    label: `#${top[l.i].rank}`,
  }));
  const leaders = placed
    .filter((l) => l.moved)
    .map((l) => ({ x: top[l.i].x, y: top[l.i].y, x2: inv((l.left + 7) / W, dx, o.logX), y2: inv((H - (l.top + 6)) / H, dy, o.logY) }));
  const sx = { ...(o.logX ? { type: "log" } : { zero: false }), domain: dx, nice: false },
    sy = { ...(o.logY ? { type: "log" } : { zero: false }), domain: dy, nice: false };
  const x = { field: "x", type: "quantitative", title: titleOf(o.x, unitOfCriterion(o.x)), scale: sx, axis: { labelExpr: NUMBER_LABEL } };
  const y = { field: "y", type: "quantitative", title: titleOf(o.y, unitOfCriterion(o.y)), scale: sy, axis: { labelExpr: NUMBER_LABEL } };
  const tooltip = [
    { field: "rank", title: "rank" },
    { field: "x", title: o.x, format: ".4~g" },
    { field: "y", title: o.y, format: ".4~g" },
  ];
  const about = [
    `${pts.length} ${feasible.length ? "feasible " : ""}candidate(s)${front.length ? `; red: the Pareto front (${front.length}) of the feasible candidates` : ""}; labels: the ${top.length} best by the objective${dropped.length ? ` (${dropped.length} label(s) left out: no room)` : ""}`,
    ...(infeasible.length ? [`grey ×: ${infeasible.length} candidate(s) that miss the constraints (not ranked, not in the front)`] : []),
  ];
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: o.title ?? `What-if: ${o.y} against ${o.x}`, subtitle: about },
    width: W,
    height: H,
    layer: [
      {
        params: [{ name: "zoom", select: "interval", bind: "scales" }],
        data: { values: pts.filter((p) => !p.pareto) },
        mark: { type: "point", size: 14, color: "#7f7f7f", opacity: 0.5, clip: true },
        encoding: { x, y, tooltip },
      },
      ...(infeasible.length
        ? [{ data: { values: infeasible }, mark: { type: "point", shape: "cross", size: 16, color: "#bbbbbb", clip: true }, encoding: { x, y, tooltip } }]
        : []),
      ...(front.length
        ? [
            {
              data: { values: front },
              mark: { type: "line", color: "#d62728", strokeWidth: 1.5, clip: true },
              encoding: { x, y, order: { field: "x", type: "quantitative" } },
            },
            { data: { values: front }, mark: { type: "point", filled: true, size: 30, color: "#d62728", clip: true }, encoding: { x, y, tooltip } },
          ]
        : []),
      { data: { values: top }, mark: { type: "point", shape: "diamond", filled: true, size: 60, color: "#1f4e9c", clip: true }, encoding: { x, y, tooltip } },
      ...(leaders.length
        ? [
            {
              data: { values: leaders },
              mark: { type: "rule", color: "#1f4e9c", strokeWidth: 0.6, opacity: 0.7, clip: true },
              encoding: { x, y, x2: { field: "x2" }, y2: { field: "y2" } },
            },
          ]
        : []),
      {
        data: { values: labels },
        mark: { type: "text", align: "left", baseline: "middle", fontSize: 11, color: "#1f4e9c", clip: true },
        encoding: { x: { ...x, field: "lx" }, y: { ...y, field: "ly" }, text: { field: "label" } },
      },
    ],
  } as TopLevelSpec;
}

/** Units of whatif's criteria columns: cv and ranks none, runs "runs"; others from their names. */
function unitOfCriterion(col: string): string | undefined {
  if (col === "runs_needed") return "runs";
  if (/cv$/.test(col) || col === "objective" || col === "rank") return undefined;
  return unitOf(col);
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
