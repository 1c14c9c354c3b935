// P11 `samplesize`: Γ_q(n), the relative standard error of the q-quantile from n runs, against n, a line per q
// (seed 001 Fig. 6); horizontal rules at the targets τ, and vertical rules at n*, the smallest n on the curve with
// |Γ_q(n)| ≤ τ, for each q and τ. Reads one configuration of `varmap samplesize --curves` (key columns, q, n, gamma_q).
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { num, readConfigRows, type Row } from "../table.js";
import { short, type PlotKind } from "./types.js";

export const SAMPLESIZE_WRITTEN_BY = "`varmap samplesize … --curves curves.csv` (columns q, n, gamma_q)";

export interface GammaPoint {
  q: number;
  n: number;
  gamma: number;
}

/** n* per (q, τ): the smallest n of the curve with |Γ_q(n)| ≤ τ (none when the curve never gets there). */
export function nStar(points: readonly GammaPoint[], taus: readonly number[]): { q: number; tau: number; n: number }[] {
  const qs = [...new Set(points.map((p) => p.q))].sort((a, b) => a - b);
  const out: { q: number; tau: number; n: number }[] = [];
  for (const q of qs) {
    const curve = points.filter((p) => p.q === q && Number.isFinite(p.gamma)).sort((a, b) => a.n - b.n);
    for (const tau of taus) {
      const hit = curve.find((p) => Math.abs(p.gamma) <= tau);
      if (hit) out.push({ q, tau, n: hit.n });
    }
  }
  return out;
}

export function samplesizeSpec(points: readonly GammaPoint[], opts: { taus?: number[]; title?: string; label?: string } = {}): TopLevelSpec {
  const taus0 = opts.taus ?? [0.5, 0.1];
  const pts = thinCurves(points, taus0)
    .filter((p) => Number.isFinite(p.gamma) && Number.isFinite(p.n) && p.n > 0)
    .map((p) => ({ q: p.q, n: p.n, gamma: Math.abs(p.gamma), curve: `q = ${short(p.q)}` }));
  if (!pts.length)
    throw new VarmapError("E_PLOT_EMPTY", "the curves have no finite Γ_q(n)", {
      remedy: `check the samplesize fit (a singular information matrix gives empty curves); tables come from ${SAMPLESIZE_WRITTEN_BY}`,
    });
  const taus = opts.taus ?? [0.5, 0.1];
  const stars = nStar(pts, taus).map((s) => ({ ...s, curve: `q = ${short(s.q)}`, label: `n* = ${s.n} (q = ${short(s.q)}, τ = ${short(s.tau)})` }));
  const curves = [...new Set(pts.map((p) => p.curve))];
  const log = pts.every((p) => p.gamma > 0);
  const x = { field: "n", type: "quantitative", title: "runs n", scale: { type: "log" } };
  const colour = { field: "curve", type: "nominal", title: "quantile", sort: curves, scale: { scheme: "tableau10" } };
  const tauRows = taus.map((tau) => ({ tau, label: `τ = ${short(tau)}` }));
  const about = `|Γ_q(n)|, relative standard error of the q-quantile from n runs; dashed: the targets τ; rules: n*, the fewest runs that meet τ`;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: opts.title ?? "Runs needed for the quantiles", subtitle: opts.label ? [opts.label, about] : about },
    width: 460,
    height: 280,
    layer: [
      {
        data: { values: pts },
        mark: { type: "line", strokeWidth: 2 },
        encoding: {
          x,
          y: { field: "gamma", type: "quantitative", title: "|Γ_q(n)| (relative SE of x_q, fraction)", scale: log ? { type: "log" } : { zero: true } },
          color: colour,
          tooltip: [{ field: "curve" }, { field: "n" }, { field: "gamma", format: ".4g" }],
        },
      },
      { data: { values: tauRows }, mark: { type: "rule", color: "#555", strokeDash: [5, 3] }, encoding: { y: { field: "tau", type: "quantitative" } } },
      {
        data: { values: tauRows },
        mark: { type: "text", align: "right", baseline: "bottom", dy: -2, color: "#555", fontSize: 10 },
        encoding: { y: { field: "tau", type: "quantitative" }, x: { value: 456 }, text: { field: "label" } },
      },
      ...(stars.length
        ? [
            {
              data: { values: stars },
              mark: { type: "rule", strokeWidth: 1 },
              encoding: { x: { field: "n", type: "quantitative" }, color: colour, tooltip: [{ field: "label" }] },
            },
          ]
        : []),
    ],
  } as TopLevelSpec;
}

function taus(v: unknown): number[] | undefined {
  if (typeof v !== "string") return undefined;
  const t = v.split(",").map(Number);
  if (t.some((x) => !(x > 0)))
    throw new VarmapError("E_USAGE", `--threshold '${v}' is not a list of positive targets`, { remedy: "e.g. --threshold 0.5,0.1 (as given to samplesize)" });
  return t;
}

export const plot: PlotKind = {
  kind: "samplesize",
  id: "P11",
  description: "Γ_q(n) vs n for each q of one configuration, rules at the targets τ and at n* (001 Fig. 6)",
  writtenBy: SAMPLESIZE_WRITTEN_BY,
  flags: [
    { flag: "--config <col=value,…>", description: "the configuration to draw (default: the first in the table)" },
    { flag: "--threshold <taus>", description: "targets τ for |Γ_q(n)|", default: "0.5,0.1" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const t = taus(opts.threshold);
    // Only the chosen configuration's rows are read (DuckDB filters the file), and each curve is thinned to at most
    // MAX_CURVE_POINTS points: a 36 MB curves file no longer passes through JavaScript and Vega whole.
    const want = parseConfig(opts.config);
    const { rows, key } = await readConfigRows(file, ["q", "n", "gamma_q"], want, { kind: "samplesize", writtenBy: SAMPLESIZE_WRITTEN_BY });
    const label = Object.entries(key)
      .map(([c, v]) => `${c}=${v}`)
      .join(", ");
    if (!rows.length)
      throw new VarmapError("E_PLOT_EMPTY", `no configuration has ${label}`, { location: { file }, remedy: "name a configuration of the table in --config" });
    return samplesizeSpec(gammaRows(rows), { taus: t, title: opts.title as string | undefined, label });
  },
};

/** --config "a=x,b=y" → { a: "x", b: "y" } (undefined when not given). */
export function parseConfig(sel: unknown): Record<string, string> | undefined {
  if (typeof sel !== "string" || !sel.trim()) return undefined;
  const want: Record<string, string> = {};
  for (const part of sel.split(",")) {
    const [k, ...v] = part.split("=");
    if (!k?.trim() || !v.length)
      throw new VarmapError("E_USAGE", `--config '${sel}' is not a list of col=value`, { remedy: "e.g. --config threads=4,freq_khz=1200000" });
    want[k.trim()] = v.join("=").trim();
  }
  return want;
}

/** Most points a Γ curve keeps: beyond it, every n on a log-spaced grid plus every n* (what the figure draws). */
export const MAX_CURVE_POINTS = 1000;

/** The points of each curve thinned to about MAX_CURVE_POINTS, log-spaced in n, the n* of every τ kept. */
export function thinCurves(points: readonly GammaPoint[], taus: readonly number[]): GammaPoint[] {
  const out: GammaPoint[] = [];
  const stars = new Set(nStar(points, taus).map((s) => `${s.q} ${s.n}`));
  for (const q of [...new Set(points.map((p) => p.q))]) {
    const curve = points.filter((p) => p.q === q).sort((a, b) => a.n - b.n);
    if (curve.length <= MAX_CURVE_POINTS) {
      out.push(...curve);
      continue;
    }
    const lo = Math.log(Math.max(curve[0].n, 1e-9)),
      hi = Math.log(curve[curve.length - 1].n);
    let next = -Infinity;
    curve.forEach((p, i) => {
      const at = Math.log(Math.max(p.n, 1e-9));
      if (i === 0 || i === curve.length - 1 || at >= next || stars.has(`${q} ${p.n}`)) {
        out.push(p);
        if (at >= next) next = at + (hi - lo) / (MAX_CURVE_POINTS - 1);
      }
    });
  }
  return out;
}

export function gammaRows(rows: readonly Row[]): GammaPoint[] {
  return rows.map((r) => ({ q: num(r.q), n: num(r.n), gamma: num(r.gamma_q) }));
}
