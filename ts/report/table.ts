// Tables the plots read: plain rows (column → number or string), from CSV/Parquet/JSON output files, and the
// check every plot kind makes first — the columns it needs, and which verb writes them when they are missing.
import { readFileSync } from "node:fs";
import { VarmapError } from "../errors.js";
import { readFileRows } from "../data/duckdb.js";

export type Cell = number | string;
export type Row = Record<string, Cell>;

/** A cell as a number: numbers as they are, numeric text parsed exactly, anything else NaN. */
export function num(v: Cell | undefined | null): number {
  if (typeof v === "number") return v;
  if (v === undefined || v === null || v === "") return NaN;
  const x = Number(v);
  return Number.isNaN(x) && !/^nan$/i.test(v) ? NaN : x;
}

/** Every row of a CSV, Parquet or JSON (array of objects) table; CSV cells that are numbers become numbers. */
export async function readTable(path: string): Promise<Row[]> {
  if (/\.json$/i.test(path)) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new VarmapError("E_READ", `cannot read the table: ${(e as Error).message.split("\n")[0]}`, {
        location: { file: path },
        remedy: "give a CSV or Parquet file, or a JSON array of objects",
      });
    }
    if (!Array.isArray(data))
      throw new VarmapError("E_READ", "a JSON table must be an array of objects", {
        location: { file: path },
        remedy: "give a CSV or Parquet file, or a JSON array of objects",
      });
    return data as Row[];
  }
  const rows = await readFileRows(path, "the table");
  return rows.map((r) => {
    const out: Row = {};
    for (const [k, v] of Object.entries(r)) out[k] = typeof v === "number" ? v : v === null ? "" : numericText(String(v));
    return out;
  });
}

function numericText(s: string): Cell {
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s.trim())) return Number(s);
  if (/^(nan|-?inf(inity)?)$/i.test(s.trim()))
    return Number(
      s
        .trim()
        .replace(/^(-?)inf(inity)?$/i, "$1Infinity")
        .replace(/^nan$/i, "NaN"),
    );
  return s;
}

/** The columns of a table (those of its first row; every writer of these tables writes rectangular tables). */
export function columnsOf(rows: readonly Row[]): string[] {
  return rows.length ? Object.keys(rows[0]) : [];
}

/**
 * Throws E_PLOT_COLUMNS naming the columns a plot kind needs and does not find, and the verb that writes a table
 * with them. An empty table fails the same way (a plot of nothing is a mistake, not an empty picture).
 */
export function requireColumns(rows: readonly Row[], need: readonly string[], ctx: { kind: string; file?: string; writtenBy: string }): void {
  if (!rows.length)
    throw new VarmapError("E_PLOT_EMPTY", `the table has no rows to plot as '${ctx.kind}'`, {
      location: { file: ctx.file },
      remedy: `give a table written by ${ctx.writtenBy}`,
    });
  const have = new Set(columnsOf(rows));
  const missing = need.filter((c) => !have.has(c));
  if (missing.length)
    throw new VarmapError(
      "E_PLOT_COLUMNS",
      `plot '${ctx.kind}' needs the column${missing.length > 1 ? "s" : ""} ${missing.map((c) => `'${c}'`).join(", ")}, which the table does not have (it has ${[...have].join(", ")})`,
      { location: { file: ctx.file, column: missing[0] }, remedy: `give a table written by ${ctx.writtenBy}` },
    );
}

/**
 * The rows of one configuration of a large long table (samplesize curves: 10⁶ rows), selected in DuckDB so only
 * those rows reach JavaScript (issue 44 item 5: `plot samplesize` took 80–92 s and 834 MB on a 36 MB file).
 * `valueColumns` are the table's per-row values; every other column is a key. `want` (col → value text) defaults
 * to the first row's key. Numbers compare as numbers, text as text.
 */
export async function readConfigRows(
  path: string,
  valueColumns: readonly string[],
  want: Record<string, string> | undefined,
  ctx: { kind: string; writtenBy: string },
): Promise<{ rows: Row[]; keyColumns: string[]; key: Record<string, string> }> {
  const { openDb, fileScan, ident, literal, queryRows } = await import("../data/duckdb.js");
  const db = await openDb();
  try {
    const src = fileScan(path, "all_varchar = true", true);
    let first: Record<string, unknown>[];
    try {
      first = await queryRows(db.con, `SELECT * FROM ${src} LIMIT 1`);
    } catch (e) {
      throw new VarmapError("E_READ", `cannot read the table: ${(e as Error).message.split("\n")[0]}`, {
        location: { file: path },
        remedy: "give a CSV file with a header line, or a Parquet file",
      });
    }
    const head = first.map((r) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(r)) out[k] = typeof v === "number" ? v : v === null ? "" : numericText(String(v));
      return out;
    });
    requireColumns(head, valueColumns, { ...ctx, file: path });
    const keyColumns = columnsOf(head).filter((c) => !valueColumns.includes(c));
    const key = want ?? Object.fromEntries(keyColumns.map((c) => [c, String(head[0][c])]));
    for (const c of Object.keys(key))
      if (!keyColumns.includes(c))
        throw new VarmapError("E_USAGE", `--config: '${c}' is not a key column of the table (${keyColumns.join(", ") || "none"})`, {
          location: { file: path },
          remedy: "name key columns in --config",
        });
    const cond = Object.entries(key).map(([c, v]) => {
      const text = `CAST(${ident(c)} AS VARCHAR) = ${literal(v)}`;
      return Number.isFinite(Number(v)) && v.trim() !== "" ? `(${text} OR TRY_CAST(${ident(c)} AS DOUBLE) = ${Number(v)})` : text;
    });
    const raw = await queryRows(db.con, `SELECT * FROM ${src}${cond.length ? ` WHERE ${cond.join(" AND ")}` : ""}`);
    const rows = raw.map((r) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(r)) out[k] = typeof v === "number" ? v : v === null ? "" : numericText(String(v));
      return out;
    });
    return { rows, keyColumns, key };
  } finally {
    db.close();
  }
}
