// `varmap summarize <file>`: every map and configuration with the statistics of its runs.
import type { Command } from "commander";
import { dataOptionsFromFlags } from "../flags.js";
import { addDataOptions } from "../options.js";
import { loadDataset, type Dataset } from "../../data/load.js";
import { QUANTILE_NAMES } from "../../data/types.js";
import { writeTable, type Column } from "../../data/write.js";

export function register(program: Command): void {
  const cmd = program
    .command("summarize")
    .description("configurations and maps with their statistics")
    .argument("<file>", "runs table (.csv, .tsv or .parquet), one row per run (or per configuration with --map)");
  addDataOptions(cmd)
    .option("--out <path>", "write the configuration table to .csv, .tsv, .json or .parquet instead of stdout")
    .option("--json", "print a machine-readable summary of the maps on stdout")
    .option("--quiet", "no notes on stderr")
    .action(async (file: string, opts: Record<string, unknown>) => {
      const data = await loadDataset(file, dataOptionsFromFlags(opts));
      const columns = summaryColumns(data);
      const out = opts.out as string | undefined;
      if (out) await writeTable(out, columns);
      if (opts.json) {
        process.stdout.write(JSON.stringify(mapSummary(data, file, out), null, 2) + "\n");
        return;
      }
      process.stdout.write(formatMaps(data));
      if (!out) process.stdout.write("\n" + formatTable(columns));
      else if (!opts.quiet) process.stderr.write(`varmap: wrote ${data.table.count} configurations to ${out}\n`);
    });
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
