// `plan`: learning curves of a replayed campaign (issue 43): map ARE (%) over the configurations not yet measured
// against the runs spent (as a share of the dataset's runs), one line per strategy (adaptive, random, space-filling).
// Reads the table `varmap plan --replay RUNS --out curves.csv` writes.
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { num, readTable, requireColumns, type Row } from "../table.js";
import type { PlotKind } from "./types.js";

export const PLAN_WRITTEN_BY = "`varmap plan --replay RUNS --out curves.csv`";

export function planSpec(rows: readonly Row[], opts: { title?: string } = {}): TopLevelSpec {
  const points = rows
    .map((r) => ({ strategy: String(r.strategy), fraction: num(r.fraction), are: num(r.are) }))
    .filter((p) => Number.isFinite(p.fraction) && Number.isFinite(p.are));
  if (!points.length)
    throw new VarmapError("E_PLOT_EMPTY", "no finite ARE values to plot", { remedy: "check that the replay finished (curves.csv has are values)" });
  const strategies = ["adaptive", "random", "space-filling"].filter((s) => points.some((p) => p.strategy === s));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: opts.title ?? "Replayed campaign: map error against runs spent",
      subtitle: "ARE over the configurations not yet measured (truth: all the dataset's runs)",
    },
    width: 420,
    height: 260,
    data: { values: points.map((p) => ({ ...p, fraction: 100 * p.fraction, are: 100 * p.are })) },
    mark: { type: "line", point: { filled: true, size: 30 }, strokeWidth: 2 },
    encoding: {
      x: { field: "fraction", type: "quantitative", title: "runs spent (% of the dataset's runs)", scale: { zero: true } },
      y: { field: "are", type: "quantitative", title: "map ARE (%)", scale: { zero: true }, axis: { format: "~g" } },
      color: { field: "strategy", type: "nominal", title: "strategy", sort: strategies, scale: { scheme: "tableau10" } },
      shape: { field: "strategy", type: "nominal", sort: strategies },
      tooltip: [{ field: "strategy" }, { field: "fraction", format: ".1f", title: "runs (%)" }, { field: "are", format: ".2f", title: "ARE (%)" }],
    },
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "plan",
  id: "P22",
  description: "learning curves of a replayed campaign: map ARE (%) vs runs spent, a line per strategy",
  writtenBy: PLAN_WRITTEN_BY,
  flags: [{ flag: "--title <text>", description: "figure title" }],
  async fromFile(file, opts) {
    const rows = await readTable(file);
    requireColumns(rows, ["strategy", "fraction", "are"], { kind: "plan", file, writtenBy: PLAN_WRITTEN_BY });
    return planSpec(rows, { title: opts.title as string | undefined });
  },
};
