// P12 `gev`: the four diagnostic panels of a GEV fit (seed 002 Fig. 2, ismev gev.diag): probability plot,
// quantile plot (both against the diagonal), return level against return period (log axis) with its 95% band in
// blue and the runs outside it in red, and a 20-bin histogram of the runs with the fitted density. The title
// gives μ ± SE, σ ± SE, ξ ± SE to 4 significant digits. Reads `varmap gev --diagnostics` output (and gev.csv).
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import { short, type PlotKind } from "./types.js";

export interface GevParamsSe {
  loc: number;
  scale: number;
  shape: number;
  se_loc: number;
  se_scale: number;
  se_shape: number;
}

const DIAG_WRITTEN_BY = "`varmap gev … --diagnostics diag.csv` (columns kind, x, y, lo, hi, outlier)";
const FIT_WRITTEN_BY = "`varmap gev … --out gev.csv` (columns loc, scale, shape, se_loc, se_scale, se_shape)";

/** "μ = 11.18 ± 0.01139, σ = 0.2048 ± 0.008187, ξ = −0.0005783 ± 0.03298" (4 significant digits). */
export function gevTitle(p: GevParamsSe): string {
  const v = (x: number) => short(x, 4).replace(/^-/, "−");
  return `μ = ${v(p.loc)} ± ${v(p.se_loc)}, σ = ${v(p.scale)} ± ${v(p.se_scale)}, ξ = ${v(p.shape)} ± ${v(p.se_shape)}`;
}

/** The four panels from one configuration's diagnostics rows (kind, x, y, lo, hi, outlier). */
export function gevSpec(diag: readonly Row[], fit: GevParamsSe | undefined, opts: { title?: string; label?: string; unit?: string } = {}): TopLevelSpec {
  // Axis titles with units (issue 44 item 5): the runs' unit when given (--unit), return periods in runs.
  const u = opts.unit ? ` (${opts.unit})` : "";
  const of = (kind: string) =>
    diag.filter((r) => r.kind === kind).map((r) => ({ x: num(r.x), y: num(r.y), lo: num(r.lo), hi: num(r.hi), outlier: String(r.outlier) === "true" }));
  const pp = of("pp"),
    qq = of("qq"),
    pts = of("rl_point"),
    curve = of("rl_curve"),
    dens = of("density");
  if (!pp.length || !qq.length || !curve.length || !dens.length)
    throw new VarmapError("E_PLOT_EMPTY", "the diagnostics have no pp, qq, rl_curve or density rows for this configuration", {
      remedy: `give rows written by ${DIAG_WRITTEN_BY}`,
    });
  // The runs are the quantile plot's empirical values; 20 equal-width bins as seed 002 Fig. 2 draws.
  const runs = qq.map((r) => r.y);
  const lo = Math.min(...runs),
    hi = Math.max(...runs),
    w = (hi - lo) / 20 || 1;
  const counts = new Array<number>(20).fill(0);
  for (const x of runs) counts[Math.min(19, Math.floor((x - lo) / w))]++;
  const bins = counts.map((c, i) => ({ x0: lo + i * w, x1: lo + (i + 1) * w, d: c / (runs.length * w) }));
  const diagonal = (a: number, b: number) => [
    { x: a, y: a },
    { x: b, y: b },
  ];
  const qlo = Math.min(...qq.map((r) => Math.min(r.x, r.y))),
    qhi = Math.max(...qq.map((r) => Math.max(r.x, r.y)));
  const q = (field: string, title: string, extra: object = {}) => ({ field, type: "quantitative", title, scale: { zero: false }, ...extra });
  const size = { width: 260, height: 220 };
  const panel = (title: string, layer: object[]) => ({ ...size, title: { text: title, fontSize: 12 }, layer });
  const dot = { type: "point", filled: true, size: 14, color: "#222" };
  const dash = { type: "line", color: "#888", strokeDash: [4, 3] };
  const label = opts.label ? `${opts.label}: ` : "";
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: opts.title ?? `${label}GEV fit diagnostics`, ...(fit ? { subtitle: gevTitle(fit) } : {}) },
    columns: 2,
    concat: [
      panel("Probability plot", [
        { data: { values: diagonal(0, 1) }, mark: dash, encoding: { x: q("x", "empirical probability"), y: q("y", "model probability") } },
        {
          data: { values: pp },
          mark: dot,
          encoding: { x: q("x", "empirical probability", { scale: { domain: [0, 1] } }), y: q("y", "model probability", { scale: { domain: [0, 1] } }) },
        },
      ]),
      panel("Quantile plot", [
        { data: { values: diagonal(qlo, qhi) }, mark: dash, encoding: { x: q("x", `model quantile${u}`), y: q("y", `empirical quantile${u}`) } },
        { data: { values: qq }, mark: dot, encoding: { x: q("x", `model quantile${u}`), y: q("y", `empirical quantile${u}`) } },
      ]),
      panel("Return level", [
        {
          data: { values: curve },
          mark: { type: "area", color: "#9ecae1", opacity: 0.6 },
          encoding: { x: q("x", "return period (runs)", { scale: { type: "log" } }), y: q("lo", `return level${u}`), y2: { field: "hi" } },
        },
        {
          data: { values: curve },
          mark: { type: "line", color: "#08519c" },
          encoding: { x: q("x", "return period (runs)", { scale: { type: "log" } }), y: q("y", `return level${u}`) },
        },
        {
          data: { values: pts },
          mark: { type: "point", filled: true, size: 14 },
          encoding: {
            x: q("x", "return period (runs)", { scale: { type: "log" } }),
            y: q("y", `return level${u}`),
            color: { field: "outlier", type: "nominal", scale: { domain: [false, true], range: ["#222", "#d62728"] }, legend: null },
          },
        },
      ]),
      panel("Density", [
        {
          data: { values: bins },
          mark: { type: "rect", color: "#c6dbef", stroke: "#6b8fb5", strokeWidth: 0.5 },
          encoding: {
            x: q("x0", `run value${u}`),
            x2: { field: "x1" },
            y: q("d", opts.unit ? `density (per ${opts.unit})` : "density", { scale: { zero: true } }),
            y2: { datum: 0 },
          },
        },
        {
          data: { values: dens },
          mark: { type: "line", color: "#08519c", strokeWidth: 1.6 },
          encoding: { x: q("x", `run value${u}`), y: q("y", opts.unit ? `density (per ${opts.unit})` : "density", { scale: { zero: true } }) },
        },
      ]),
    ],
  } as TopLevelSpec;
}

/** --config "col=value,…" → the rows of that configuration (default: the first configuration in the table). */
export function selectConfig(
  rows: readonly Row[],
  keyCols: readonly string[],
  sel: unknown,
  file: string,
): { rows: Row[]; label: string; key: Record<string, string> } {
  let want: Record<string, string>;
  if (typeof sel === "string" && sel.trim()) {
    want = {};
    for (const part of sel.split(",")) {
      const [k, ...v] = part.split("=");
      if (!k?.trim() || !v.length)
        throw new VarmapError("E_USAGE", `--config '${sel}' is not a list of col=value`, { remedy: "e.g. --config sample_id=xi_0.15" });
      want[k.trim()] = v.join("=").trim();
    }
  } else want = Object.fromEntries(keyCols.map((c) => [c, String(rows[0][c])]));
  const matches = (r: Row) => Object.entries(want).every(([c, v]) => String(r[c]) === v || num(r[c]) === Number(v));
  const mine = rows.filter(matches);
  if (!mine.length)
    throw new VarmapError(
      "E_PLOT_EMPTY",
      `no configuration has ${Object.entries(want)
        .map(([c, v]) => `${c}=${v}`)
        .join(", ")}`,
      { location: { file }, remedy: "name a configuration of the table in --config" },
    );
  return {
    rows: mine,
    key: want,
    label: Object.entries(want)
      .map(([c, v]) => `${c}=${v}`)
      .join(", "),
  };
}

const DIAG_COLUMNS = ["kind", "x", "y", "lo", "hi", "outlier"];

export const plot: PlotKind = {
  kind: "gev",
  id: "P12",
  description: "GEV diagnostics of one configuration: probability, quantile, return level (95% band, outliers red), 20-bin density; title μ, σ, ξ ± SE",
  writtenBy: DIAG_WRITTEN_BY,
  flags: [
    { flag: "--fits <gev.csv>", description: "the fits (gev.csv) for the title's μ ± SE, σ ± SE, ξ ± SE" },
    { flag: "--config <col=value,…>", description: "the configuration to draw (default: the first in the table)" },
    { flag: "--title <text>", description: "figure title" },
    { flag: "--unit <text>", description: "unit of the runs for the axis titles, e.g. KB/s (the diagnostics do not record it)" },
  ],
  async fromFile(file, opts) {
    const diag = await readTable(file);
    requireColumns(diag, DIAG_COLUMNS, { kind: "gev", file, writtenBy: DIAG_WRITTEN_BY });
    const keyCols = columnsOf(diag).filter((c) => !DIAG_COLUMNS.includes(c));
    const sel = selectConfig(diag, keyCols, opts.config, file);
    let fit: GevParamsSe | undefined;
    if (typeof opts.fits === "string") {
      const fits = await readTable(opts.fits);
      const need = ["loc", "scale", "shape", "se_loc", "se_scale", "se_shape"];
      requireColumns(fits, need, { kind: "gev", file: opts.fits, writtenBy: FIT_WRITTEN_BY });
      const row = fits.find((r) => Object.entries(sel.key).every(([c, v]) => String(r[c]) === v || num(r[c]) === Number(v)));
      if (!row)
        throw new VarmapError("E_PLOT_JOIN", `the fits have no row for ${sel.label}`, {
          location: { file: opts.fits },
          remedy: "give the gev.csv written with these diagnostics",
        });
      fit = Object.fromEntries(need.map((c) => [c, num(row[c])])) as unknown as GevParamsSe;
    }
    return gevSpec(sel.rows, fit, { title: opts.title as string | undefined, label: sel.label, unit: typeof opts.unit === "string" ? opts.unit : undefined });
  },
};
