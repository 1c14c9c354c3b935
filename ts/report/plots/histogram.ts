// P9 `histogram`: the runs of a few configurations (seed 001 Figs. 1, 3), Freedman–Diaconis bins, 2×2 panels,
// with each configuration's fitted mixture density (scaled to counts) when a fits table is given.
import { VarmapError } from "../../errors.js";
import { quantile7 } from "../../data/stats.js";
import type { Mixture } from "../../mixture/model.js";
import type { TopLevelSpec } from "../render.js";
import { loadForPlot } from "../configs.js";
import { bestPerFamily, fitsByConfig } from "../fits.js";
import { configRuns, firstConfigs, type ConfigRuns } from "../runs.js";
import { readTable } from "../table.js";
import type { PlotKind } from "./types.js";
import { NUMBER_LABEL, titleOf } from "../units.js";

export interface HistogramPanel {
  label: string;
  runs: ArrayLike<number>;
  /** Fitted density drawn over the bars, with its legend text (e.g. "gamma 3"). */
  density?: { mixture: Mixture; label: string };
}

export interface Bins {
  lo: number;
  width: number;
  counts: number[];
}

/**
 * Fewest bins a histogram gets: 10, or Sturges' ⌈log2 n⌉ + 1 when larger (never more than the runs). FD alone gives
 * 3–5 bins under multimodal runs (the modes widen the IQR), hiding the modes.
 */
export function minBins(n: number): number {
  return Math.min(Math.max(1, n), Math.max(10, Math.ceil(Math.log2(Math.max(1, n)) + 1)));
}

/**
 * Freedman–Diaconis: width 2·IQR·n^(−1/3) (type-7 quartiles), Sturges when the IQR is 0, but never fewer than
 * minBins(n) bins (issue 44 item 5) nor more than 200.
 */
export function fdBins(values: ArrayLike<number>): Bins {
  const v = Float64Array.from(values).sort();
  const n = v.length;
  if (!n) throw new VarmapError("E_PLOT_EMPTY", "a histogram of no runs", { remedy: "select configurations that have runs" });
  const min = v[0],
    max = v[n - 1];
  const range = max - min;
  if (range === 0) return { lo: min - 0.5, width: 1, counts: [n] };
  let width = 2 * (quantile7(v, 0.75) - quantile7(v, 0.25)) * Math.cbrt(1 / n);
  if (!(width > 0)) width = range / Math.ceil(Math.log2(n) + 1);
  let bins = Math.max(1, Math.ceil(range / width));
  const least = minBins(n);
  if (bins < least) (bins = least), (width = range / least);
  if (bins > 200) (bins = 200), (width = range / 200);
  const counts = new Array<number>(bins).fill(0);
  for (const x of v) counts[Math.min(bins - 1, Math.floor((x - min) / width))]++;
  return { lo: min, width, counts };
}

export function histogramSpec(panels: readonly HistogramPanel[], opts: { title?: string; xTitle?: string; subtitle?: string } = {}): TopLevelSpec {
  if (!panels.length) throw new VarmapError("E_PLOT_EMPTY", "no configurations to plot", { remedy: "select configurations with --where" });
  const values: Record<string, number | string>[] = [];
  for (const p of panels) {
    const b = fdBins(p.runs);
    // Panels by index (the labels, long, are in the header's expression once, not in every row).
    const config = panels.indexOf(p);
    b.counts.forEach((count, i) => values.push({ layer: "bar", config, x0: b.lo + i * b.width, x1: b.lo + (i + 1) * b.width, count }));
    if (p.density) {
      // The density over the runs' range only (the axis stays on the data: issue 44 item 5), finely enough for
      // spiky components (400 points).
      const n = p.runs.length,
        hi = b.lo + b.counts.length * b.width;
      for (let i = 0; i <= 400; i++) {
        const x = b.lo + ((hi - b.lo) * i) / 400;
        const y = n * b.width * p.density.mixture.pdf(x);
        values.push({ layer: "density", config, x: Number(x.toPrecision(6)), count: Number.isFinite(y) ? Number(y.toPrecision(4)) : 0, fit: p.density.label });
      }
    }
  }
  const hasDensity = panels.some((p) => p.density);
  const panel = {
    width: 300,
    height: 180,
    layer: [
      {
        transform: [{ filter: "datum.layer === 'bar'" }],
        mark: { type: "rect", color: "#9bb7d4", stroke: "#4a6f96", strokeWidth: 0.5 },
        encoding: {
          x: {
            field: "x0",
            type: "quantitative",
            title: opts.xTitle ?? "run value",
            scale: { zero: false, nice: false },
            axis: { labelExpr: NUMBER_LABEL, labelOverlap: true },
          },
          x2: { field: "x1" },
          y: { field: "count", type: "quantitative", title: "runs per bin" },
          y2: { datum: 0 },
        },
      },
      ...(hasDensity
        ? [
            {
              transform: [{ filter: "datum.layer === 'density'" }],
              mark: { type: "line", color: "#c0392b", strokeWidth: 1.8 },
              encoding: { x: { field: "x", type: "quantitative" }, y: { field: "count", type: "quantitative" }, detail: { field: "fit" } },
            },
            {
              transform: [{ filter: "datum.layer === 'density'" }, { aggregate: [{ op: "max", field: "x", as: "xr" }], groupby: ["config", "fit"] }],
              mark: { type: "text", align: "right", baseline: "top", dx: -4, dy: 4, color: "#c0392b", fontSize: 11 },
              encoding: { x: { field: "xr", type: "quantitative" }, y: { value: 0 }, text: { field: "fit" } },
            },
          ]
        : []),
    ],
  };
  const labels = JSON.stringify(panels.map((p) => p.label));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: opts.title ?? "Runs per configuration",
      subtitle:
        opts.subtitle ??
        `Freedman–Diaconis bins (at least ${minBins(Math.min(...panels.map((p) => p.runs.length)))})${hasDensity ? "; red: the fitted mixture density (BIC-best), scaled to counts" : ""}`,
    },
    data: { values },
    facet: {
      field: "config",
      type: "ordinal",
      title: null,
      header: { labelFontSize: 11, labelLimit: 0, labelExpr: `split(${labels}[datum.value], '; ')` },
    },
    columns: Math.min(2, panels.length),
    spec: panel,
    resolve: { scale: { x: "independent", y: "independent" } },
  } as TopLevelSpec;
}

/** Panels for the chosen configurations' runs, each with its BIC-best fit from `fits` when given. */
export function histogramPanels(sel: readonly ConfigRuns[], fits?: ReturnType<typeof fitsByConfig>): HistogramPanel[] {
  return sel.map((c) => {
    const best = fits?.get(c.key) ? bestPerFamily(fits.get(c.key)!)[0] : undefined;
    return { label: c.label, runs: c.runs, ...(best ? { density: { mixture: best.mixture, label: `${best.family} ${best.k}` } } : {}) };
  });
}

export const plot: PlotKind = {
  kind: "histogram",
  id: "P9",
  description: "runs of chosen configurations (--where), Freedman–Diaconis bins, with fitted densities (--fits)",
  writtenBy: "any runs table with its column flags (--preset or --factors/--inputs/--response)",
  dataFlags: true,
  flags: [
    { flag: "--fits <table>", description: "fitted mixtures to draw: `varmap mixture` fits.csv or `varmap refit` distributions.csv" },
    { flag: "--configs <n>", description: "configurations plotted (the first n after --where)", default: "4" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const max = Number(opts.configs ?? 4);
    if (!Number.isInteger(max) || max < 1 || max > 36)
      throw new VarmapError("E_USAGE", `--configs '${opts.configs}' is not a count from 1 to 36`, { remedy: "e.g. --configs 4" });
    const ds = await loadForPlot(file, opts);
    const t = ds.table;
    const fits = typeof opts.fits === "string" ? fitsByConfig(await readTable(opts.fits), [...t.roles.factors, ...t.roles.inputs], opts.fits) : undefined;
    const sel = configRuns(ds, firstConfigs(ds, max));
    return histogramSpec(histogramPanels(sel, fits), { title: opts.title as string | undefined, xTitle: titleOf(t.roles.response) });
  },
};
