// P8 `convergence`: the confidence interval of one configuration against the number of runs m (seed 000 Fig. 10):
// the measured band [lower, upper] on top, the predicted one (when `varmap convergence --predict` wrote w_pred)
// below; vertical rules at the convergence points m_ℓ labelled "75% at 24"; dashed, the analytic baseline (the
// interval with s held at its value from all N runs, whose shape depends on m, N and the level only).
// Reads the long table of `varmap convergence --curves` (key columns, m, w, lower, upper, c[, w_pred, c_pred]).
import { VarmapError } from "../../errors.js";
import { ciFactors, convergencePoint, type CiKind } from "../../convergence/convergence.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import { selectConfig } from "./gev.js";
import { short, type PlotKind } from "./types.js";

export const CONVERGENCE_WRITTEN_BY = "`varmap convergence … --curves curves.csv` (columns m, w, lower, upper, c; w_pred, c_pred with --predict)";
const CURVE_COLUMNS = ["m", "w", "lower", "upper", "c", "w_pred", "c_pred", "err"];

export interface ConvergencePoint {
  m: number;
  w: number;
  lower: number;
  upper: number;
  c: number;
  w_pred?: number;
  c_pred?: number;
}

export interface ConvergenceOpts {
  /** The interval `varmap convergence --ci` computed (sd: chi-square interval of σ; mean: Student t). */
  ci?: CiKind;
  /** Its confidence level (`--level`, default 0.9 as the verb's). */
  level?: number;
  /** Convergence levels to mark (default 0.75, 0.9). */
  levels?: number[];
  title?: string;
  label?: string;
}

/** The analytic band: the interval at N scaled by the CI factors at m over those at N (s, and the mean, fixed). */
export function analyticBand(pts: readonly ConvergencePoint[], ci: CiKind, level: number): { m: number; lower: number; upper: number }[] {
  const last = pts[pts.length - 1];
  const fN = ciFactors(ci, last.m, level);
  if (ci === "sd")
    return pts.map((p) => {
      const f = ciFactors(ci, p.m, level);
      return { m: p.m, lower: (last.lower * f.lower) / fN.lower, upper: (last.upper * f.upper) / fN.upper };
    });
  const centre = 0.5 * (last.lower + last.upper),
    half = 0.5 * (last.upper - last.lower);
  return pts.map((p) => {
    const h = ciFactors(ci, p.m, level).upper / fN.upper;
    return { m: p.m, lower: centre - half * h, upper: centre + half * h };
  });
}

/** The predicted band: the measured interval rescaled to the predicted width (sd: ∝ s) or recentred (mean: ± w_pred/2). */
function predictedBand(pts: readonly ConvergencePoint[], ci: CiKind): { m: number; lower: number; upper: number }[] {
  return pts
    .filter((p) => Number.isFinite(p.w_pred))
    .map((p) => {
      if (ci === "sd") return { m: p.m, lower: (p.lower * p.w_pred!) / p.w, upper: (p.upper * p.w_pred!) / p.w };
      const centre = 0.5 * (p.lower + p.upper);
      return { m: p.m, lower: centre - p.w_pred! / 2, upper: centre + p.w_pred! / 2 };
    });
}

export function convergenceSpec(points: readonly ConvergencePoint[], opts: ConvergenceOpts = {}): TopLevelSpec {
  const pts = [...points].filter((p) => Number.isFinite(p.m) && Number.isFinite(p.lower) && Number.isFinite(p.upper)).sort((a, b) => a.m - b.m);
  if (pts.length < 2)
    throw new VarmapError("E_PLOT_EMPTY", "the curve has fewer than two finite points", { remedy: `give rows written by ${CONVERGENCE_WRITTEN_BY}` });
  const ci = opts.ci ?? "sd",
    level = opts.level ?? 0.9,
    levels = opts.levels ?? [0.75, 0.9];
  const m0 = pts[0].m;
  const analytic = analyticBand(pts, ci, level);
  const analyticC = (() => {
    const w = analytic.map((a) => a.upper - a.lower),
      w0 = w[0],
      wN = w[w.length - 1];
    return w.map((v) => (w0 - v) / (w0 - wN));
  })();
  const pred = predictedBand(pts, ci);
  const rulesOf = (c: number[], kind: string) =>
    levels
      .map((l) => ({ level: l, m: convergencePoint(c, m0, l), kind }))
      .filter((r) => Number.isFinite(r.m))
      .map((r) => ({ ...r, label: `${short(100 * r.level, 3)}% at ${r.m}` }));
  const x = { field: "m", type: "quantitative", title: "runs m", scale: { zero: false } };
  const y = (title: string) => ({ field: "lower", type: "quantitative", title, scale: { zero: false } });
  const panel = (title: string, band: { m: number; lower: number; upper: number }[], c: number[], colour: string) => {
    const rules = rulesOf(c, title);
    return {
      width: 460,
      height: 200,
      title: { text: title, fontSize: 12 },
      layer: [
        {
          data: { values: band },
          mark: { type: "area", color: colour, opacity: 0.35 },
          encoding: { x, y: y(`${Math.round(100 * level)}% CI of the ${ci === "sd" ? "sd" : "mean"}`), y2: { field: "upper" } },
        },
        ...["lower", "upper"].map((f) => ({
          data: { values: band },
          mark: { type: "line", color: colour, strokeWidth: 1.5 },
          encoding: { x, y: { ...y(""), field: f } },
        })),
        ...["lower", "upper"].map((f) => ({
          data: { values: analytic },
          mark: { type: "line", color: "#555", strokeDash: [5, 3], strokeWidth: 1 },
          encoding: { x, y: { ...y(""), field: f } },
        })),
        ...(rules.length
          ? [
              { data: { values: rules }, mark: { type: "rule", color: "#d62728", strokeWidth: 1 }, encoding: { x: { field: "m", type: "quantitative" } } },
              {
                data: { values: rules },
                mark: { type: "text", align: "left", dx: 3, dy: 2, baseline: "top", color: "#d62728", fontSize: 10, y: 0 },
                encoding: { x: { field: "m", type: "quantitative" }, text: { field: "label" } },
              },
            ]
          : []),
      ],
    };
  };
  const measured = panel(
    "Measured",
    pts,
    pts.map((p) => p.c),
    "#4c78a8",
  );
  const panels = [measured];
  if (pred.length)
    panels.push(
      panel(
        "Predicted",
        pred,
        pts.filter((p) => Number.isFinite(p.w_pred)).map((p) => p.c_pred ?? NaN),
        "#f58518",
      ),
    );
  const analyticRules = rulesOf(analyticC, "analytic")
    .map((r) => `${short(100 * r.level, 3)}% at ${r.m}`)
    .join(", ");
  const label = opts.label ? `${opts.label}: ` : "";
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: opts.title ?? `${label}CI convergence`,
      subtitle: `band: ${Math.round(100 * level)}% CI from m runs; dashed: analytic baseline (s fixed at N${analyticRules ? `; ${analyticRules}` : ""})`,
    },
    vconcat: panels,
    resolve: { scale: { y: "shared", x: "shared" } },
  } as TopLevelSpec;
}

function levelsOf(v: unknown): number[] | undefined {
  if (typeof v !== "string") return undefined;
  const ls = v.split(",").map(Number);
  if (!ls.length || ls.some((l) => !(l > 0 && l <= 1)))
    throw new VarmapError("E_USAGE", `--levels '${v}' is not a list of levels in (0, 1]`, { remedy: "e.g. --levels 0.75,0.9" });
  return ls;
}

export const plot: PlotKind = {
  kind: "convergence",
  id: "P8",
  description: "CI band of one configuration vs runs m, measured and predicted, rules at m_75/m_90, dashed analytic baseline (Fig. 10)",
  writtenBy: CONVERGENCE_WRITTEN_BY,
  flags: [
    { flag: "--config <col=value,…>", description: "the configuration to draw (default: the first in the table)" },
    { flag: "--ci <kind>", description: "the interval the curves were computed with: sd | mean", default: "sd" },
    { flag: "--level <l>", description: "its confidence level", default: "0.9" },
    { flag: "--levels <list>", description: "convergence levels to mark", default: "0.75,0.9" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const ci = (opts.ci ?? "sd") as string;
    if (ci !== "sd" && ci !== "mean") throw new VarmapError("E_USAGE", `--ci '${ci}' is not sd or mean`, { remedy: "give the --ci the convergence run used" });
    const level = Number(opts.level ?? 0.9);
    if (!(level > 0 && level < 1)) throw new VarmapError("E_USAGE", `--level '${String(opts.level)}' is not in (0, 1)`, { remedy: "e.g. --level 0.9" });
    const levels = levelsOf(opts.levels);
    const rows = await readTable(file);
    requireColumns(rows, ["m", "w", "lower", "upper", "c"], { kind: "convergence", file, writtenBy: CONVERGENCE_WRITTEN_BY });
    const keyCols = columnsOf(rows).filter((c) => !CURVE_COLUMNS.includes(c));
    const sel = selectConfig(rows, keyCols, opts.config, file);
    return convergenceSpec(convergenceRows(sel.rows), { ci, level, levels, title: opts.title as string | undefined, label: sel.label });
  },
};

export function convergenceRows(rows: readonly Row[]): ConvergencePoint[] {
  return rows.map((r) => ({ m: num(r.m), w: num(r.w), lower: num(r.lower), upper: num(r.upper), c: num(r.c), w_pred: num(r.w_pred), c_pred: num(r.c_pred) }));
}
