// `summarize`: every map and configuration with the statistics of its runs. The CLI
// (ts/cli/commands/summarize.ts) parses the flags into SummarizeOptions and prints the summary.
import { loadDataset, type Dataset, type LoadOptions } from "../data/load.js";
import { QUANTILE_NAMES } from "../data/types.js";
import { writeTable, type Column } from "../data/write.js";

export interface SummarizeOptions {
  /** Column roles, statistic and transforms of the data. */
  data: LoadOptions;
  /** The configuration table (.csv, .tsv, .json or .parquet); without it the table is in the summary's text. */
  out?: string;
  /** No notes on stderr. */
  quiet?: boolean;
}

export interface SummarizeSummary {
  file: string;
  out: string | null;
  configurations: number;
  runs: number;
  dropped: number;
  maps: { key: Record<string, string>; rows: number; inputs: string[]; normalization: unknown; stat: string }[];
  /** The maps (and, without out, the configuration table) as `varmap summarize` prints them. */
  text: string;
}

export async function runSummarize(file: string, options: SummarizeOptions): Promise<SummarizeSummary> {
  const data = await loadDataset(file, options.data);
  const columns = summaryColumns(data);
  const out = options.out;
  if (out) await writeTable(out, columns);
  let text = formatMaps(data);
  if (!out) text += "\n" + formatTable(columns);
  return { ...mapSummary(data, file, out), text };
}

/** One row per configuration: factors and inputs under their own names, then the statistics. */
export function summaryColumns(data: Dataset): Column[] {
  const { table, stats } = data;
  const d = table.roles.inputs.length;
  const cols: Column[] = [];
  if (table.ids) cols.push({ name: "id", values: table.ids });
  table.roles.factors.forEach((name, f) => cols.push({ name, values: table.factorValues[f], type: "string" }));
  table.roles.inputs.forEach((name, j) => cols.push({ name, values: Float64Array.from({ length: table.count }, (_, c) => table.inputs[c * d + j]) }));
  cols.push({ name: "n", values: stats.n, type: "int" });
  cols.push({ name: "mean", values: stats.mean }, { name: "sd", values: stats.sd }, { name: "var", values: stats.var });
  cols.push({ name: "min", values: stats.min }, { name: "max", values: stats.max });
  for (const q of QUANTILE_NAMES) cols.push({ name: q, values: stats.quantiles[q] });
  cols.push({ name: "skewness", values: stats.skewness }, { name: "ci90", values: stats.ci90 });
  return cols;
}

function mapSummary(data: Dataset, file: string, out?: string) {
  return {
    file,
    out: out ?? null,
    configurations: data.table.count,
    runs: data.table.runs.length,
    dropped: data.dropped,
    maps: data.maps.map((m) => ({ key: m.key, rows: m.rows, inputs: m.inputNames, normalization: m.normalization, stat: m.stat })),
  };
}

function formatMaps(data: Dataset): string {
  const lines = [
    `${data.maps.length} map(s), ${data.table.count} configuration(s), ${data.table.runs.length} run(s)${data.dropped ? `, ${data.dropped} dropped` : ""}`,
  ];
  for (const m of data.maps) {
    const key =
      Object.entries(m.key)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ") || "(all)";
    lines.push(`  ${key}: ${m.rows} configurations, inputs ${m.inputNames.join(", ")}`);
  }
  return lines.join("\n") + "\n";
}

function formatTable(cols: Column[]): string {
  const cell = (v: unknown) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v ?? ""));
  const rows = cols.length ? cols[0].values.length : 0;
  const text = cols.map((c) => [c.name, ...Array.from({ length: rows }, (_, i) => cell(c.values[i]))]);
  const width = text.map((col) => Math.max(...col.map((s) => s.length)));
  const lines: string[] = [];
  for (let i = 0; i <= rows; i++) lines.push(text.map((col, j) => col[i].padStart(width[j])).join("  "));
  return lines.join("\n") + "\n";
}
