// `effects`: what drives a map's statistic (issue 45). From `varmap effects` outputs: the ANOVA table (bars of
// partial η² per term, type II, one panel per map), the importance table (bars of the ARE increase when an input
// is permuted, per method), or the partial-dependence table (mean prediction against each input, one line per method).
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, type Row } from "../table.js";
import type { PlotKind } from "./types.js";

const WRITTEN_BY = "`varmap effects` (--out anova.csv, --importance-out, or --pd-out)";
const NOT_KEY = new Set([
  "term",
  "df",
  "ss_type1",
  "f_type1",
  "p_type1",
  "ss_type2",
  "f_type2",
  "p_type2",
  "partial_eta2",
  "method",
  "input",
  "importance_are",
  "importance_sd",
  "length_scale",
  "mars_terms",
  "value",
  "prediction",
]);

/** The map label of a row: its factor columns (every column the effects tables do not define). */
function mapLabel(r: Row, keys: string[]): string {
  return keys.map((k) => `${k}=${r[k]}`).join(" ") || "(all)";
}

export function effectsSpec(rows: readonly Row[], opts: { title?: string; file?: string } = {}): TopLevelSpec {
  const cols = columnsOf(rows);
  const keys = cols.filter((c) => !NOT_KEY.has(c));
  const schema = "https://vega.github.io/schema/vega-lite/v6.json";
  const facet = (n: number) => (n > 1 ? { row: { field: "map", type: "nominal" as const, title: null } } : {});
  if (cols.includes("partial_eta2")) {
    const data = rows
      .filter((r) => r.term !== "Residuals" && Number.isFinite(num(r.partial_eta2)))
      .map((r) => ({ map: mapLabel(r, keys), term: String(r.term), eta2: num(r.partial_eta2), p: num(r.p_type2), df: num(r.df), band: band(num(r.p_type2)) }));
    if (!data.length)
      throw new VarmapError("E_PLOT_EMPTY", "the ANOVA table has no term with a partial η²", { location: { file: opts.file }, remedy: "check the table" });
    const maps = new Set(data.map((d) => d.map)).size;
    return {
      $schema: schema,
      title: {
        text: opts.title ?? "Effects on the map statistic (ANOVA, type II)",
        subtitle: "partial η² = SS / (SS + SS residual); 1 = the term explains all it can",
      },
      data: { values: data },
      ...(maps > 1 ? { facet: facet(maps), spec: barSpec() } : barSpec()),
    } as TopLevelSpec;
  }
  if (cols.includes("importance_are")) {
    const data = rows.map((r) => ({ map: mapLabel(r, keys), method: String(r.method), input: String(r.input), are: 100 * num(r.importance_are) }));
    const maps = new Set(data.map((d) => d.map)).size;
    const spec = {
      width: 320,
      height: { step: 18 },
      mark: "bar",
      encoding: {
        y: { field: "input", type: "nominal", title: "input", sort: "-x", axis: { labelLimit: 320 } },
        yOffset: { field: "method" },
        x: { field: "are", type: "quantitative", title: "ARE increase when permuted (percentage points)" },
        color: { field: "method", type: "nominal", title: "model" },
        tooltip: [{ field: "map" }, { field: "method" }, { field: "input" }, { field: "are", format: ".3g", title: "ARE increase (pp)" }],
      },
    };
    return {
      $schema: schema,
      title: { text: opts.title ?? "Permutation importance", subtitle: "how much worse each model predicts when one input is shuffled" },
      data: { values: data },
      ...(maps > 1 ? { facet: facet(maps), spec } : spec),
    } as TopLevelSpec;
  }
  if (cols.includes("prediction") && cols.includes("value")) {
    const data = rows.map((r) => ({
      map: mapLabel(r, keys),
      method: String(r.method),
      input: String(r.input),
      value: num(r.value),
      prediction: num(r.prediction),
    }));
    return {
      $schema: schema,
      title: { text: opts.title ?? "Partial dependence", subtitle: "mean prediction over the map's configurations with one input set to each value" },
      data: { values: data },
      facet: {
        column: { field: "input", type: "nominal", title: null },
        ...(new Set(data.map((d) => d.map)).size > 1 ? { row: { field: "map", type: "nominal", title: null } } : {}),
      },
      resolve: { scale: { x: "independent" } },
      spec: {
        width: 180,
        height: 160,
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "value", type: "quantitative", title: "input value", scale: { zero: false } },
          y: { field: "prediction", type: "quantitative", title: "predicted statistic", scale: { zero: false } },
          color: { field: "method", type: "nominal", title: "model" },
          tooltip: [{ field: "method" }, { field: "input" }, { field: "value" }, { field: "prediction", format: ".4g" }],
        },
      },
    } as TopLevelSpec;
  }
  throw new VarmapError("E_PLOT_COLUMNS", "not an effects table: it has neither partial_eta2, importance_are nor value/prediction columns", {
    location: { file: opts.file },
    remedy: `give a table written by ${WRITTEN_BY}`,
  });
}

const BANDS = ["< 0.001", "< 0.01", "< 0.05", ">= 0.05"];
const band = (p: number) => (p < 0.001 ? BANDS[0] : p < 0.01 ? BANDS[1] : p < 0.05 ? BANDS[2] : BANDS[3]);

function barSpec() {
  return {
    width: 320,
    height: { step: 20 },
    mark: "bar",
    encoding: {
      y: { field: "term", type: "nominal", sort: "-x", title: "term", axis: { labelLimit: 320 } },
      x: { field: "eta2", type: "quantitative", title: "partial η²", scale: { domain: [0, 1] } },
      color: { field: "band", type: "ordinal", title: "p (type II)", sort: BANDS, scale: { domain: BANDS, scheme: "blues", reverse: true } },
      tooltip: [{ field: "map" }, { field: "term" }, { field: "df" }, { field: "eta2", format: ".4f", title: "partial η²" }, { field: "p", format: ".3g" }],
    },
  };
}

export const plot: PlotKind = {
  kind: "effects",
  id: "P45",
  description: "ANOVA partial η² per term, permutation importance, or partial dependence (from `varmap effects`)",
  writtenBy: WRITTEN_BY,
  flags: [{ flag: "--title <text>", description: "figure title" }],
  async fromFile(file, opts) {
    return effectsSpec(await readTable(file), { title: opts.title as string | undefined, file });
  },
};
