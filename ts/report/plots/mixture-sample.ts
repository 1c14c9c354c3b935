// P20 `mixture-sample`: histograms of random samples drawn from a fitted mixture (seed 001 Fig. 3: samples from normal
// mixtures of 2 to 5 components look like the real runs of Fig. 1). The mixtures come from a fits table (`varmap
// mixture` fits.csv or `varmap refit` distributions.csv): one configuration (--config), its BIC-best fit, or the best
// fit of each k in --k (and family in --family); each panel one sample of --n runs (default: the configuration's
// run count) with the mixture's density over it. Seeded: the same --seed draws the same samples.
import { VarmapError } from "../../errors.js";
import { FAMILY_NAMES } from "../../mixture/families.js";
import { mulberry32Open } from "../../util/mulberry32.js";
import { FITS_WRITTEN_BY, mixtureOf, type FitEntry } from "../fits.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import { selectConfig } from "./gev.js";
import { histogramSpec, type HistogramPanel } from "./histogram.js";
import type { PlotKind } from "./types.js";

/** The key columns of a fits table: those before its `n` (or `family`) column. */
export function fitsKeyColumns(rows: readonly Row[]): string[] {
  const cols = columnsOf(rows);
  const end = cols.indexOf("n") >= 0 ? cols.indexOf("n") : cols.indexOf("family");
  return end > 0 ? cols.slice(0, end) : [];
}

/** The fits of one configuration chosen for sampling: the best by BIC of each (family, k) asked for. */
export function chooseFits(rows: readonly Row[], opts: { families?: string[]; ks?: number[] }): FitEntry[] {
  const all = rows
    .filter((r) => r.family && r.params)
    .map((r) => ({ family: String(r.family), k: num(r.k), bic: num(r.bic), params: String(r.params) }))
    .filter((r) => Number.isFinite(r.bic));
  const mine = all.filter((r) => (!opts.families || opts.families.includes(r.family)) && (!opts.ks || opts.ks.includes(r.k)));
  if (!mine.length)
    throw new VarmapError(
      "E_PLOT_EMPTY",
      `the configuration has no finite fit${opts.families ? ` of ${opts.families.join(", ")}` : ""}${opts.ks ? ` with k in ${opts.ks.join(", ")}` : ""}`,
      {
        remedy: "choose --family and --k among the fits of the table",
      },
    );
  const groups = new Map<string, (typeof mine)[number]>();
  // Without --k: the single BIC-best fit; with --k: the best of each k (over the families asked for).
  for (const r of mine) {
    const g = opts.ks ? String(r.k) : "best";
    const cur = groups.get(g);
    if (!cur || r.bic < cur.bic) groups.set(g, r);
  }
  return [...groups.values()]
    .sort((a, b) => a.k - b.k)
    .map((r) => ({ family: r.family as FitEntry["family"], k: r.k, bic: r.bic, mixture: mixtureOf(r.family, r.params, "") }));
}

/** Panels: `samples` samples of `n` draws from each fit, seeded by `seed` (a stream per panel). */
export function samplePanels(fits: readonly FitEntry[], n: number, samples: number, seed: number): HistogramPanel[] {
  const panels: HistogramPanel[] = [];
  fits.forEach((f, i) => {
    for (let s = 0; s < samples; s++) {
      const next = mulberry32Open((seed * 1009 + i * 101 + s) >>> 0);
      panels.push({
        label: `${f.family}, k = ${f.k}${samples > 1 ? `; sample ${s + 1}` : ""} (n = ${n})`,
        runs: f.mixture.sample(n, next),
        density: { mixture: f.mixture, label: `${f.family} ${f.k}` },
      });
    }
  });
  return panels;
}

function intList(v: unknown, flag: string, lo: number, hi: number): number[] | undefined {
  if (typeof v !== "string") return undefined;
  const out = v.split(",").map((s) => Number(s.trim()));
  if (out.some((x) => !Number.isInteger(x) || x < lo || x > hi))
    throw new VarmapError("E_USAGE", `${flag} '${v}' is not a list of integers from ${lo} to ${hi}`, { remedy: `e.g. ${flag} 2,3,4,5` });
  return out;
}

export const plot: PlotKind = {
  kind: "mixture-sample",
  id: "P20",
  description: "histograms of random samples from a configuration's fitted mixture(s), the density over each (001 Fig. 3)",
  writtenBy: FITS_WRITTEN_BY,
  flags: [
    { flag: "--config <col=value,…>", description: "the configuration whose fits are sampled (default: the first in the table)" },
    { flag: "--family <names>", description: `families to consider (${FAMILY_NAMES.join(", ")}; default: all in the table)` },
    { flag: "--k <list>", description: "one panel per number of components (the best fit of each k), e.g. 2,3,4,5 (default: the BIC-best fit only)" },
    { flag: "--n <runs>", description: "draws per sample (default: the configuration's run count n)" },
    { flag: "--samples <count>", description: "samples per fit (default: 4 for one fit, 1 for several)" },
    { flag: "--seed <s>", description: "seed of the draws (an integer)", default: "1" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const ks = intList(opts.k, "--k", 1, 16);
    const nGiven = intList(opts.n, "--n", 2, 1_000_000)?.[0];
    const samplesGiven = intList(opts.samples, "--samples", 1, 36)?.[0];
    const seed = Number(opts.seed ?? 1);
    if (!Number.isSafeInteger(seed)) throw new VarmapError("E_USAGE", `--seed '${opts.seed}' is not an integer`, { remedy: "e.g. --seed 7" });
    const families = typeof opts.family === "string" ? opts.family.split(",").map((s) => s.trim()) : undefined;
    for (const f of families ?? [])
      if (!(FAMILY_NAMES as readonly string[]).includes(f))
        throw new VarmapError("E_USAGE", `--family '${f}' is not a family (${FAMILY_NAMES.join(", ")})`, { remedy: "e.g. --family normal" });
    const rows = await readTable(file);
    requireColumns(rows, ["family", "k", "bic", "params"], { kind: "mixture-sample", file, writtenBy: FITS_WRITTEN_BY });
    const keyCols = fitsKeyColumns(rows);
    const sel = selectConfig(rows, keyCols, opts.config, file);
    const fits = chooseFits(sel.rows, { families, ks });
    const n = nGiven ?? (Number.isFinite(num(sel.rows[0].n)) ? num(sel.rows[0].n) : 40);
    const samples = samplesGiven ?? (fits.length > 1 ? 1 : 4);
    if (fits.length * samples > 36)
      throw new VarmapError("E_USAGE", `${fits.length * samples} panels (fits × --samples) is more than 36`, { remedy: "fewer --k values or --samples" });
    return histogramSpec(samplePanels(fits, n, samples, seed), {
      title: (opts.title as string | undefined) ?? `Samples from the fitted mixture${fits.length > 1 ? "s" : ""} of ${sel.label}`,
      xTitle: "sampled run value",
      subtitle: `${samples} sample(s) of ${n} draws from each fit (seed ${seed}); red: the mixture's density, scaled to counts`,
    });
  },
};
