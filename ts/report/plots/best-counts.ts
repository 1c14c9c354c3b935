// `best-counts`: how often each family and each k wins by BIC (seed 001 Tables 4–5) as stacked bars.
// Reads `varmap refit` distributions.csv (one best model per configuration) or `varmap mixture` fits (best = true).
import { VarmapError } from "../../errors.js";
import { FAMILY_NAMES } from "../../mixture/families.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Row } from "../table.js";
import type { PlotKind } from "./types.js";

export interface BestCount {
  family: string;
  k: number;
  count: number;
}

const WRITTEN_BY = "`varmap refit` (distributions.csv) or `varmap mixture … --out fits.csv`";

/** Counts of the BIC-best (family, k) over configurations. */
export function bestCounts(rows: readonly Row[], file?: string): BestCount[] {
  requireColumns(rows, ["family", "k"], { kind: "best-counts", file, writtenBy: WRITTEN_BY });
  const onlyBest = columnsOf(rows).includes("best");
  const counts = new Map<string, BestCount>();
  for (const r of rows) {
    if (onlyBest && String(r.best) !== "true") continue;
    if (!r.family) continue; // no finite fit
    const key = `${r.family}\u0000${num(r.k)}`;
    const c = counts.get(key) ?? counts.set(key, { family: String(r.family), k: num(r.k), count: 0 }).get(key)!;
    c.count++;
  }
  const order = (f: string) => ((FAMILY_NAMES as readonly string[]).indexOf(f) + 100) % 100;
  return [...counts.values()].sort((a, b) => order(a.family) - order(b.family) || a.family.localeCompare(b.family) || a.k - b.k);
}

export function bestCountsSpec(counts: readonly BestCount[], opts: { title?: string } = {}): TopLevelSpec {
  if (!counts.length) throw new VarmapError("E_PLOT_EMPTY", "no configuration has a best fit", { remedy: "check the fits table" });
  const families = [...new Set(counts.map((c) => c.family))];
  const total = counts.reduce((s, c) => s + c.count, 0);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: opts.title ?? "BIC-best family and number of components", subtitle: `${total} configuration(s)` },
    width: Math.max(240, 60 * families.length),
    height: 220,
    data: { values: counts.map((c) => ({ ...c, kLabel: `k = ${c.k}` })) },
    mark: { type: "bar", stroke: "white", strokeWidth: 0.5 },
    encoding: {
      x: { field: "family", type: "nominal", sort: families, title: "best family", axis: { labelAngle: 0 } },
      y: { field: "count", type: "quantitative", title: "configurations", stack: "zero" },
      color: { field: "kLabel", type: "ordinal", title: "best k", scale: { scheme: "blues" } },
      order: { field: "k", type: "quantitative" },
      tooltip: [{ field: "family" }, { field: "k" }, { field: "count" }],
    },
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "best-counts",
  id: "T4–5",
  description: "BIC-best family × number of components counts (seed 001 Tables 4–5), stacked bars",
  writtenBy: WRITTEN_BY,
  flags: [{ flag: "--title <text>", description: "figure title" }],
  async fromFile(file, opts) {
    return bestCountsSpec(bestCounts(await readTable(file), file), { title: opts.title as string | undefined });
  },
};
