// Output files for every verb: written to a temporary file in the target's directory and renamed into place,
// so a failure never leaves a partial file behind. Tables go to CSV, TSV, JSON or Parquet by extension; numbers are
// written in JavaScript's shortest round-trip form (String(x)), so they read back exactly.
import { closeSync, fsyncSync, openSync, rmSync } from "node:fs";
import { writeAll, writeFileAll } from "./io.js";
import { VarmapError } from "../errors.js";
import { ident, literal, openDb } from "./duckdb.js";
import { csvQuote, tempPathFor, writeAtomic, writeFileAtomic } from "./atomic.js";
export { csvQuote };

export type CellValue = number | string | null;

export interface Column {
  name: string;
  values: ArrayLike<CellValue>;
  /** Parquet type; default: "string" when any value is a string, "int" for Int32Array, else "double". */
  type?: "double" | "int" | "string";
}

export type TableFormat = "csv" | "tsv" | "json" | "parquet";

/** The output paths a table can be written to: what tableFormat accepts. */
export const TABLE_OUTPUT = /\.(csv|tsv|tab|json|parquet)$/i;
export const TABLE_OUTPUT_EXTENSIONS = ".csv, .tsv, .json or .parquet";

export function tableFormat(path: string, flag = "the output path"): TableFormat {
  if (/\.parquet$/i.test(path)) return "parquet";
  if (/\.json$/i.test(path)) return "json";
  if (/\.csv$/i.test(path)) return "csv";
  if (/\.(tsv|tab)$/i.test(path)) return "tsv";
  throw new VarmapError("E_USAGE", `cannot tell the output format of '${path}'`, { remedy: `end ${flag} in ${TABLE_OUTPUT_EXTENSIONS}` });
}

// The atomic writer (temp file, fsync, rename) is in atomic.ts (no DuckDB: the job engine's workers use it).
export { tempPathFor, writeAtomic, writeFileAtomic };

/** Writes a JSON document atomically (NaN and ±Infinity become null, as JSON has no such numbers). */
export async function writeJsonAtomic(path: string, obj: unknown): Promise<void> {
  await writeAtomic(path, (tmp) => writeFileAll(tmp, JSON.stringify(obj, null, 2) + "\n"));
}

/** Writes text atomically. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  await writeAtomic(path, (tmp) => writeFileAll(tmp, text));
}

/** Writes a table (columns of equal length) as CSV, TSV, JSON (array of row objects) or Parquet, by extension. */
export async function writeTable(path: string, columns: Column[]): Promise<void> {
  const format = tableFormat(path);
  const rows = columns.length ? columns[0].values.length : 0;
  for (const c of columns) {
    if (c.values.length !== rows) throw new Error(`writeTable: column '${c.name}' has ${c.values.length} values, expected ${rows}`);
  }
  await writeAtomic(path, async (tmp) => {
    if (format === "json") writeJsonTableFile(tmp, columns, rows);
    else if (format === "csv" || format === "tsv") writeCsvFile(tmp, columns, rows, format === "tsv" ? "\t" : ",");
    else await writeParquetFile(tmp, columns, rows);
  });
}

// Result files of the job engine (results.jsonl's tables: are.csv, ks.csv, …): the same quoting rule, numbers
// rounded so that native and wasm runs write the same text.

/** Significant digits kept in result values (ARE and its summaries). See formatValue. */
export const RESULT_DIGITS = 10;

/**
 * A result value as written: rounded to RESULT_DIGITS significant digits, then the shortest representation that
 * reads back to that double. Kernels agree across backends to ~1e-12 relative, far below the 5e-11 step, so
 * native and wasm runs write the same text (a value would have to sit within 1e-12 of a rounding boundary to
 * differ). Non-finite values are written as NaN / Infinity / -Infinity.
 */
export function roundResult(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(RESULT_DIGITS));
}

export function formatValue(x: number): string {
  return String(roundResult(x));
}

/** One CSV field of a result file: numbers rounded (formatValue), text quoted by data/write.ts's rule. */
export function csvField(v: string | number): string {
  return csvQuote(typeof v === "number" ? formatValue(v) : v);
}

export function csvRow(r: readonly (string | number)[]): string {
  return r.map(csvField).join(",");
}

export function csvText(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [header, ...rows].map(csvRow).join("\n") + "\n";
}

/** The table as CSV text (header line, then one line per row). */
export function tableCsv(columns: Column[]): string {
  const rows = columns.length ? columns[0].values.length : 0;
  const lines = [columns.map((c) => csvCell(c.name)).join(",")];
  for (let i = 0; i < rows; i++) lines.push(columns.map((c) => csvCell(c.values[i])).join(","));
  return lines.join("\n") + "\n";
}

export function csvCell(v: CellValue | undefined): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return String(v); // shortest round-trip; NaN, Infinity, -Infinity read back in DuckDB
  return v === "" ? '""' : csvQuote(v); // "" stays distinct from a missing value
}

/** A cell of a tab-separated file: quoted (as CSV quotes) when it holds a tab, a quote or a line break. */
export function tsvCell(v: CellValue | undefined): string {
  if (typeof v !== "string") return csvCell(v);
  return v === "" || /["\t\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

function writeCsvFile(path: string, columns: Column[], rows: number, sep: "," | "\t" = ","): void {
  const cell = sep === "," ? csvCell : tsvCell;
  const fd = openSync(path, "w");
  try {
    let buf = columns.map((c) => cell(c.name)).join(sep) + "\n";
    for (let i = 0; i < rows; i++) {
      buf += columns.map((c) => cell(c.values[i])).join(sep) + "\n";
      if (buf.length > 1 << 20) {
        writeAll(fd, buf, path);
        buf = "";
      }
    }
    writeAll(fd, buf, path);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of tableJson, row by row through a 1 MB buffer (issue 44 item 18: the whole document as one string, with
 * one object per row, took 200 MB more than the table at 95,000 rows).
 */
function writeJsonTableFile(path: string, columns: Column[], rows: number): void {
  if (rows === 0) {
    writeFileAll(path, tableJson(columns, 0));
    return;
  }
  const fd = openSync(path, "w");
  try {
    let buf = "[\n";
    for (let i = 0; i < rows; i++) {
      const rec: Record<string, CellValue> = {};
      for (const c of columns) {
        const v = c.values[i];
        rec[c.name] = typeof v === "number" && !Number.isFinite(v) ? null : v;
      }
      // JSON.stringify(array, null, 1) indents each element by one more space.
      buf += " " + JSON.stringify(rec, null, 1).replaceAll("\n", "\n ") + (i + 1 < rows ? ",\n" : "\n");
      if (buf.length > 1 << 20) {
        writeAll(fd, buf, path);
        buf = "";
      }
    }
    writeAll(fd, buf + "]\n", path);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function tableJson(columns: Column[], rows: number): string {
  const out: Record<string, CellValue>[] = [];
  for (let i = 0; i < rows; i++) {
    const rec: Record<string, CellValue> = {};
    for (const c of columns) {
      const v = c.values[i];
      rec[c.name] = typeof v === "number" && !Number.isFinite(v) ? null : v;
    }
    out.push(rec);
  }
  return JSON.stringify(out, null, 1) + "\n";
}

function columnType(c: Column): "double" | "int" | "string" {
  if (c.type) return c.type;
  if (c.values instanceof Int32Array) return "int";
  for (let i = 0; i < c.values.length; i++) if (typeof c.values[i] === "string") return "string";
  return "double";
}

const SQL_TYPE = { double: "DOUBLE", int: "BIGINT", string: "VARCHAR" } as const;

/** Parquet through DuckDB: the table as exact CSV to a temporary file, then COPY with declared column types. */
async function writeParquetFile(path: string, columns: Column[], rows: number): Promise<void> {
  const csv = tempPathFor(path, ".csv");
  try {
    writeCsvFile(csv, columns, rows);
    await csvToParquet(
      csv,
      path,
      columns.map((c) => ({ name: c.name, type: columnType(c) })),
    );
  } finally {
    rmSync(csv, { force: true });
  }
}

/** Converts a CSV file with a header to Parquet, reading each column as the given type. */
export async function csvToParquet(csv: string, parquet: string, columns: { name: string; type: "double" | "int" | "string" }[]): Promise<void> {
  const db = await openDb();
  try {
    const types = columns.map((c) => `${literal(c.name)}: '${SQL_TYPE[c.type]}'`).join(", ");
    const cols = columns.map((c) => ident(c.name)).join(", ");
    await db.con.run(
      `COPY (SELECT ${cols} FROM read_csv(${literal(csv)}, header = true, auto_detect = false, columns = {${types}}, ` +
        `quote = '"', escape = '"', delim = ',')) TO ${literal(parquet)} (FORMAT parquet, COMPRESSION zstd)`,
    );
  } finally {
    db.close();
  }
}
