// P13 `interference`: throughput drop (or dilation) of each probe under each signal (seed 003 Figs. 5, 7, 9,
// 10, 12–14): grouped bars, a panel per probe, the signal on the x axis, a bar per level of --color (chunk size),
// bootstrap intervals as error bars when pairs.csv has them; other factors held at one level (--fix).
import { VarmapError } from "../../errors.js";
import type { TopLevelSpec } from "../render.js";
import { columnsOf, num, readTable, requireColumns, type Cell, type Row } from "../table.js";
import { parseFix, resolveFix } from "./heatmap.js";
import type { PlotKind } from "./types.js";

const WRITTEN_BY = "`varmap interference … --out pairs.csv`";
/** pairs.csv columns that are results, not factors. */
const RESULT_COLUMNS = new Set([
  "probe",
  "signal",
  "instance",
  "b_alone",
  "b_int",
  "degradation",
  "dilation",
  "ci_lo",
  "ci_hi",
  "n_alone",
  "n_int",
  "sd_ratio",
  "mixture_int",
  "mixture_alone",
  "multimodal",
  "relation",
  "dent",
  "serialized_share",
]);

export interface InterferenceOptions {
  value: "degradation" | "dilation";
  /** Column giving a bar per level within each signal (default chunk_mib when present). */
  color?: string;
  /** Factors held at one level (the rest of the factors at their most common level). */
  fix?: Record<string, Cell>;
  factors: string[];
  title?: string;
}

export function interferenceSpec(rows: readonly Row[], o: InterferenceOptions): TopLevelSpec {
  const others = o.factors.filter((f) => f !== o.color);
  const fix = resolveFix(rows, others, o.fix);
  const kept = rows.filter((r) => Object.entries(fix).every(([c, v]) => String(r[c]) === String(v)));
  if (!kept.length)
    throw new VarmapError(
      "E_PLOT_EMPTY",
      `no pair has ${Object.entries(fix)
        .map(([c, v]) => `${c}=${v}`)
        .join(", ")}`,
      { remedy: "choose --fix levels that occur in pairs.csv" },
    );
  // A self-pair has two rows (instances): their mean, as matrix.csv does.
  const cells = new Map<string, { probe: string; signal: string; level: string; sum: number; n: number; lo: number; hi: number }>();
  for (const r of kept) {
    const level = o.color ? String(r[o.color]) : "";
    const k = `${r.probe}\u0000${r.signal}\u0000${level}`;
    const c = cells.get(k) ?? cells.set(k, { probe: String(r.probe), signal: String(r.signal), level, sum: 0, n: 0, lo: NaN, hi: NaN }).get(k)!;
    c.sum += num(r[o.value]);
    c.n++;
    if (c.n === 1) (c.lo = num(r.ci_lo)), (c.hi = num(r.ci_hi));
    else c.lo = c.hi = NaN; // no single interval for a mean of two instances
  }
  const values = [...cells.values()].map((c) => ({
    probe: c.probe,
    signal: c.signal,
    level: c.level,
    v: c.sum / c.n,
    ...(o.value === "degradation" && Number.isFinite(c.lo) ? { lo: c.lo, hi: c.hi } : {}),
  }));
  const levels = [...new Set(values.map((v) => v.level))].sort((a, b) => num(a) - num(b) || a.localeCompare(b));
  const signals = [...new Set(values.map((v) => v.signal))].sort();
  const fixed = Object.entries(fix)
    .map(([c, v]) => `${c}=${v}`)
    .join(", ");
  const title = o.value === "degradation" ? "throughput drop (%)" : "runtime dilation (%)";
  const x = { field: "signal", type: "nominal", title: "signal", sort: signals, axis: { labelAngle: 0 } };
  const color = o.color ? { field: "level", type: "ordinal", title: o.color, sort: levels, scale: { scheme: "blues" } } : { value: "#4c78a8" };
  const hasCi = values.some((v) => "lo" in v);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: o.title ?? `Interference: ${title} of each probe under each signal`, ...(fixed ? { subtitle: fixed } : {}) },
    data: { values },
    facet: { field: "probe", type: "nominal", title: "probe", sort: [...new Set(values.map((v) => v.probe))].sort() },
    spec: {
      width: { step: 14 },
      height: 200,
      layer: [
        {
          mark: { type: "bar" },
          encoding: {
            x,
            xOffset: { field: "level", type: "ordinal", sort: levels },
            y: { field: "v", type: "quantitative", title },
            color,
            tooltip: [{ field: "probe" }, { field: "signal" }, { field: "level", title: o.color ?? "level" }, { field: "v", title, format: ".1f" }],
          },
        },
        ...(hasCi
          ? [
              {
                mark: { type: "rule", color: "#333" },
                encoding: { x, xOffset: { field: "level", type: "ordinal", sort: levels }, y: { field: "lo", type: "quantitative" }, y2: { field: "hi" } },
              },
            ]
          : []),
      ],
    },
  } as TopLevelSpec;
}

export const plot: PlotKind = {
  kind: "interference",
  id: "P13",
  description: "throughput drop (or dilation) of each probe under each signal: grouped bars, a panel per probe",
  writtenBy: WRITTEN_BY,
  flags: [
    { flag: "--value <name>", description: "degradation (drop %) or dilation (runtime %)", default: "degradation" },
    { flag: "--color <col>", description: "a bar per level of this factor within each signal (default: chunk_mib when present)" },
    { flag: "--fix <col=value,…>", description: "levels of the other factors (default: each at its most common level)" },
    { flag: "--title <text>", description: "figure title" },
  ],
  async fromFile(file, opts) {
    const value = String(opts.value ?? "degradation");
    if (value !== "degradation" && value !== "dilation")
      throw new VarmapError("E_USAGE", `--value '${value}' is not degradation or dilation`, { remedy: "e.g. --value dilation" });
    const fix = parseFix(opts.fix);
    const rows = await readTable(file);
    requireColumns(rows, ["probe", "signal", value], { kind: "interference", file, writtenBy: WRITTEN_BY });
    const factors = columnsOf(rows).filter((c) => !RESULT_COLUMNS.has(c));
    const color = typeof opts.color === "string" ? opts.color : factors.includes("chunk_mib") ? "chunk_mib" : undefined;
    for (const c of [color, ...Object.keys(fix)].filter((c): c is string => !!c))
      if (!factors.includes(c))
        throw new VarmapError("E_USAGE", `'${c}' is not a factor of pairs.csv (${factors.join(", ")})`, {
          remedy: "name a factor column in --color and --fix",
        });
    return interferenceSpec(rows, { value, color, fix, factors, title: opts.title as string | undefined });
  },
};
