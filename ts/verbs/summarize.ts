// `summarize`: every map and configuration with the statistics of its runs. The CLI
// (ts/cli/commands/summarize.ts) parses the flags into SummarizeOptions and prints the summary.
import { loadDataset, resolveRolesFor, type Dataset, type LoadOptions } from "../data/load.js";
import { aggregateConfigs, type AggregatedDataset } from "../data/aggregate.js";
import { presetOf } from "../data/presets.js";
import type { ColumnRoles } from "../data/types.js";
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
  const data = (await aggregated(file, options.data)) ?? (await loadDataset(file, options.data));
  const columns = summaryColumns(data);
  const out = options.out;
  if (out) await writeTable(out, columns);
  let text = formatMaps(data);
  if (!out) text += "\n" + formatTable(columns);
  return { ...mapSummary(data, file, out), text };
}

/** A summary needs no runs in JS: DuckDB aggregates them (ts/data/aggregate.ts), unless the options need the full read. */
type Summarized = Pick<Dataset, "table" | "maps" | "stats" | "dropped"> & { runs?: number };

async function aggregated(file: string, opts: LoadOptions): Promise<AggregatedDataset | undefined> {
  // --format imports a tool's files; --map reads one row per configuration; "auto" transforms judge the runs.
  if (opts.format || opts.map || opts.logResponse === "auto" || opts.logInputs?.includes("auto")) return undefined;
  let roles: ColumnRoles;
  try {
    roles = await resolveRolesFor(file, opts);
  } catch {
    return undefined; // loadDataset reports it
  }
  return aggregateConfigs(file, roles, {
    stat: opts.stat ?? "sd",
    where: opts.where,
    requirePositive: Boolean(opts.logResponse || opts.requirePositive),
    allowDuplicateRuns: opts.allowDuplicateRuns ?? (opts.preset ? presetOf(opts.preset).allowDuplicateRuns : false),
    logInputs: opts.logInputs,
    note: opts.note,
  });
}

/** Runs kept: the aggregate's count, or the loaded runs. */
function runCount(data: Summarized): number {
  return data.runs ?? data.table.runs.length;
}

/** One row per configuration: factors and inputs under their own names, then the statistics. */
export function summaryColumns(data: Pick<Dataset, "table" | "stats">): Column[] {
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

function mapSummary(data: Summarized, file: string, out?: string) {
  return {
    file,
    out: out ?? null,
    configurations: data.table.count,
    runs: runCount(data),
    dropped: data.dropped,
    maps: data.maps.map((m) => ({ key: m.key, rows: m.rows, inputs: m.inputNames, normalization: m.normalization, stat: m.stat })),
  };
}

function formatMaps(data: Summarized): string {
  const lines = [
    `${data.maps.length} map(s), ${data.table.count} configuration(s), ${runCount(data)} run(s)${data.dropped ? `, ${data.dropped} dropped` : ""}`,
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
