// P10 `probability`: probability plots of a few configurations (seed 001 Fig. 5): the runs' ECDF (black steps)
// and, for each family, the CDF of its BIC-best k; labels "gamma 4", with * on the overall BIC winner.
import { VarmapError } from "../../errors.js";
import type { Mixture } from "../../mixture/model.js";
import type { TopLevelSpec } from "../render.js";
import { loadForPlot } from "../configs.js";
import { bestPerFamily, fitsByConfig, FITS_WRITTEN_BY } from "../fits.js";
import { configRuns, firstConfigs } from "../runs.js";
import { readTable } from "../table.js";
import type { PlotKind } from "./types.js";
import { NUMBER_LABEL, titleOf } from "../units.js";

export interface ProbabilityPanel {
  label: string;
  runs: ArrayLike<number>;
  /** Curves in legend order (best BIC first). */
  curves: { family: string; k: number; overall: boolean; mixture: Mixture }[];
}

const FAMILY_COLORS: Record<string, string> = {
  normal: "#1f77b4",
  gamma: "#ff7f0e",
  weibull: "#2ca02c",
  lognormal: "#d62728",
  loglogistic: "#9467bd",
  frechet: "#8c564b",
};

export function probabilitySpec(panels: readonly ProbabilityPanel[], opts: { title?: string; xTitle?: string } = {}): TopLevelSpec {
  if (!panels.length) throw new VarmapError("E_PLOT_EMPTY", "no configurations to plot", { remedy: "select configurations with --where" });
  const values: Record<string, number | string>[] = [];
  const families = new Set<string>();
  for (const p of panels) {
    const v = Float64Array.from(p.runs).sort();
    const n = v.length;
    if (!n) continue;
    values.push({ config: p.label, series: "ECDF", x: v[0], F: 0 });
    v.forEach((x, i) => values.push({ config: p.label, series: "ECDF", x, F: (i + 1) / n }));
    const pad = 0.05 * (v[n - 1] - v[0] || Math.abs(v[0]) || 1);
    const lo = v[0] - pad,
      hi = v[n - 1] + pad;
    p.curves.forEach((c, rank) => {
      families.add(c.family);
      for (let i = 0; i <= 160; i++) {
        const x = lo + ((hi - lo) * i) / 160;
        values.push({ config: p.label, series: c.family, x, F: c.mixture.cdf(x) });
      }
      values.push({ config: p.label, series: c.family, label: `${c.family} ${c.k}${c.overall ? "*" : ""}`, rank, layer: "label" });
    });
  }
  const fams = [...families];
  const domain = ["ECDF", ...fams],
    range = ["#000000", ...fams.map((f) => FAMILY_COLORS[f] ?? "#777")];
  const color = { field: "series", type: "nominal", title: null, scale: { domain, range }, legend: { orient: "bottom", direction: "horizontal" } };
  const panel = {
    width: 300,
    height: 200,
    layer: [
      {
        transform: [{ filter: "datum.series !== 'ECDF' && datum.layer !== 'label'" }],
        mark: { type: "line", strokeWidth: 1.4, opacity: 0.9 },
        encoding: {
          x: { field: "x", type: "quantitative", title: opts.xTitle ?? "run value", scale: { zero: false, nice: false }, axis: { labelExpr: NUMBER_LABEL } },
          y: { field: "F", type: "quantitative", title: "CDF", scale: { domain: [0, 1] } },
          color,
        },
      },
      {
        transform: [{ filter: "datum.series === 'ECDF'" }],
        mark: { type: "line", interpolate: "step-after", strokeWidth: 1.6 },
        encoding: { x: { field: "x", type: "quantitative" }, y: { field: "F", type: "quantitative" }, color },
      },
      {
        transform: [{ filter: "datum.layer === 'label'" }, { calculate: "0.96 - 0.085 * datum.rank", as: "ly" }],
        mark: { type: "text", align: "left", baseline: "middle", x: 6, fontSize: 11, fontWeight: "bold" },
        encoding: { y: { field: "ly", type: "quantitative" }, text: { field: "label" }, color },
      },
    ],
  };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: opts.title ?? "Probability plots",
      subtitle: "ECDF of the runs (black) and each family's BIC-best mixture CDF; * marks the overall BIC winner",
    },
    data: { values },
    facet: {
      field: "config",
      type: "nominal",
      title: null,
      sort: panels.map((p) => p.label),
      header: { labelFontSize: 11, labelLimit: 0, labelExpr: "split(datum.label, '; ')" },
    },
    columns: Math.min(2, panels.length),
    spec: panel,
    resolve: { scale: { x: "independent" } },
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "probability",
  id: "P10",
  description: "ECDF of chosen configurations' runs with each family's best-k mixture CDF (--fits)",
  writtenBy: "any runs table with its column flags, plus --fits from " + FITS_WRITTEN_BY,
  dataFlags: true,
  flags: [
    { flag: "--fits <table>", description: "fitted mixtures: `varmap mixture` fits.csv (every family) or `varmap refit` distributions.csv (the best)" },
    { flag: "--configs <n>", description: "configurations plotted (the first n after --where)", default: "4" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    if (typeof opts.fits !== "string")
      throw new VarmapError("E_USAGE", "probability needs --fits <table>", { remedy: `give the fits written by ${FITS_WRITTEN_BY}` });
    const max = Number(opts.configs ?? 4);
    if (!Number.isInteger(max) || max < 1 || max > 36)
      throw new VarmapError("E_USAGE", `--configs '${opts.configs}' is not a count from 1 to 36`, { remedy: "e.g. --configs 4" });
    const fitRows = await readTable(opts.fits);
    const ds = await loadForPlot(file, opts);
    const t = ds.table;
    const fits = fitsByConfig(fitRows, [...t.roles.factors, ...t.roles.inputs], opts.fits);
    const panels = configRuns(ds, firstConfigs(ds, max)).map((c) => ({ label: c.label, runs: c.runs, curves: bestPerFamily(fits.get(c.key) ?? []) }));
    if (panels.every((p) => !p.curves.length))
      throw new VarmapError("E_FITS", `the fits table has no fit for the selected configurations (${panels[0].label}, …)`, {
        location: { file: opts.fits },
        remedy: "give fits of the same data file (same factor and input columns), or select fitted configurations with --where",
      });
    return probabilitySpec(panels, { title: opts.title as string | undefined, xTitle: titleOf(t.roles.response) });
  },
};
