// Reads the interference runs table (C.2.1) and the optional time-slice table (C.2.5) into records. The tables
// are small (one row per instance per execution), so every column is read as text through DuckDB and parsed
// here: factor values stay exactly as written (so "16" matches "16"), and each bad value is reported with its
// file row.
import { statSync } from "node:fs";
import { VarmapError } from "../errors.js";
import { fileScan, ident, openDb, queryRows } from "../data/duckdb.js";
import type { RunRecord, SliceRecord } from "./types.js";

export interface RunColumns {
  experiment: string;
  app: string;
  instance?: string;
  factors: string[];
  run?: string;
  /** Required unless every execution has time slices. */
  response?: string;
  noise?: string;
  where?: string;
}

/** Every row of `file` as strings (null for empty cells), with its 1-based file row (header = 1). */
async function readText(
  file: string,
  wanted: string[] | ((columns: string[]) => string[]),
  what: string,
  where?: string,
): Promise<{ row: number; cells: (string | null)[] }[]> {
  let size = 0;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error("not a file");
    size = st.size;
  } catch {
    throw new VarmapError("E_FILE_NOT_FOUND", `cannot read the ${what}`, { location: { file }, remedy: "check the path" });
  }
  if (size === 0) throw new VarmapError("E_EMPTY_FILE", `the ${what} is empty`, { location: { file, row: 1 }, remedy: "give a CSV with a header row" });
  const scan = fileScan(file, `quote = '"', escape = '"', all_varchar = true`);
  const db = await openDb({ onlyFiles: [file] }); // --where may read this file only (issue 14, item 14)
  try {
    let columns: string[];
    try {
      columns = (await queryRows(db.con, `DESCRIBE SELECT * FROM ${scan}`)).map((r) => String(r.column_name));
    } catch (e) {
      throw new VarmapError("E_BAD_FILE", `cannot parse the ${what}: ${String((e as Error).message).split("\n")[0]}`, {
        location: { file },
        remedy: "give a CSV with a header row (or a Parquet file)",
        cause: e,
      });
    }
    const needed = typeof wanted === "function" ? wanted(columns) : wanted;
    for (const c of needed) {
      if (!columns.includes(c))
        throw new VarmapError("E_MISSING_COLUMN", `column '${c}' not found in the ${what} (it has: ${columns.join(", ")})`, {
          location: { file, row: 1, column: c },
          remedy: "name existing columns with --experiment/--app/--instance/--factors/--run/--response/--noise",
        });
    }
    const sel = needed.map((c, i) => `CAST(${ident(c)} AS VARCHAR) AS c${i}`).join(", ");
    // rowid of a table created from the scan is the record's position in the file (insertion order is kept).
    try {
      await db.con.run(`CREATE TEMP TABLE t AS SELECT * FROM ${scan}`);
    } catch (e) {
      throw new VarmapError("E_BAD_FILE", `cannot read the ${what}: ${String((e as Error).message).split("\n")[0]}`, {
        location: { file },
        remedy: "check the file format",
        cause: e,
      });
    }
    let filter = "";
    if (where) {
      filter = ` WHERE COALESCE((${where}), false)`;
      try {
        await db.con.run(`SELECT count(*) FROM t${filter}`);
      } catch (e) {
        throw new VarmapError("E_BAD_WHERE", `the --where predicate is not valid SQL over this file: ${String((e as Error).message).split("\n")[0]}`, {
          location: { file },
          remedy: `write a SQL boolean expression over the columns (${columns.join(", ")})`,
          cause: e,
        });
      }
    }
    // Column-wise: one JS array per column rather than one object per row.
    const reader = await db.con.runAndReadAll(`SELECT (rowid + 2)::INTEGER AS __row${sel ? ", " + sel : ""} FROM t${filter} ORDER BY rowid`);
    const [rowCol, ...cells] = reader.getColumnsJS() as unknown[][];
    // A header-only file (or a --where that keeps no row) gives no columns at all: no rows, which callers refuse.
    if (rowCol === undefined) return [];
    return rowCol.map((row, k) => ({
      row: Number(row),
      cells: cells.map((col) => {
        const v = col[k];
        return v === null || v === undefined || v === "" ? null : String(v);
      }),
    }));
  } finally {
    db.close();
  }
}

function number(cell: string | null, file: string, row: number, column: string, what: string): number | null {
  if (cell === null) return null;
  const v = Number(cell.trim());
  if (!Number.isFinite(v) || cell.trim() === "")
    throw new VarmapError("E_BAD_VALUE", `'${cell}' is not a finite number (${what})`, {
      location: { file, row, column },
      remedy: `give a number in column '${column}'`,
    });
  return v;
}

function text(cell: string | null, file: string, row: number, column: string): string {
  if (cell === null)
    throw new VarmapError("E_BAD_VALUE", `empty value in column '${column}'`, {
      location: { file, row, column },
      remedy: `fill in column '${column}' on every row`,
    });
  return cell;
}

export async function readRuns(file: string, cols: RunColumns): Promise<RunRecord[]> {
  const names = [
    cols.experiment,
    cols.app,
    ...(cols.instance ? [cols.instance] : []),
    ...cols.factors,
    ...(cols.run ? [cols.run] : []),
    ...(cols.response ? [cols.response] : []),
    ...(cols.noise ? [cols.noise] : []),
  ];
  const dup = names.find((c, i) => names.indexOf(c) !== i);
  if (dup)
    throw new VarmapError("E_USAGE", `column '${dup}' is given two roles`, {
      remedy: "give each column one role (--experiment, --app, --instance, --factors, --run, --response, --noise)",
    });
  const rows = await readText(file, names, "runs table", cols.where);
  if (rows.length === 0)
    throw new VarmapError("E_EMPTY_FILE", "the runs table has no data rows (after --where)", {
      location: { file, row: 2 },
      remedy: "give one row per instance per execution",
    });
  return rows.map(({ row, cells }) => {
    let k = 0;
    const experiment = text(cells[k++], file, row, cols.experiment);
    const app = text(cells[k++], file, row, cols.app);
    const instance = cols.instance ? text(cells[k++], file, row, cols.instance) : null;
    const factors = cols.factors.map((_f) => cells[k++] ?? "");
    const run = cols.run ? number(cells[k++], file, row, cols.run, "run index") : null;
    const value = cols.response ? number(cells[k++], file, row, cols.response, "response") : null;
    const noise = cols.noise ? number(cells[k++], file, row, cols.noise, "noise ratio") : null;
    return { row, experiment, app, instance, factors, run, value, noise };
  });
}

export interface SliceColumns {
  experiment: string;
  app: string;
  instance?: string;
}

/** The slice table: experiment/app/instance columns named as in the runs table, `slice`, `bytes` or `ops`, optional `server_bytes`. */
export async function readSlices(file: string, cols: SliceColumns): Promise<SliceRecord[]> {
  let volume = "bytes";
  let hasServer = false;
  const rows = await readText(
    file,
    (columns) => {
      // The volume column: bytes, else ops (e.g. OpenFOAM's file closes).
      volume = columns.includes("bytes") || !columns.includes("ops") ? "bytes" : "ops";
      hasServer = columns.includes("server_bytes");
      return [cols.experiment, cols.app, ...(cols.instance ? [cols.instance] : []), "slice", volume, ...(hasServer ? ["server_bytes"] : [])];
    },
    "slice table",
  );
  return rows.map(({ row, cells }) => {
    let k = 0;
    const experiment = text(cells[k++], file, row, cols.experiment);
    const app = text(cells[k++], file, row, cols.app);
    const instance = cols.instance ? text(cells[k++], file, row, cols.instance) : null;
    const slice = number(text(cells[k++], file, row, "slice"), file, row, "slice", "slice index")!;
    if (!Number.isInteger(slice))
      throw new VarmapError("E_BAD_VALUE", `slice index ${slice} is not an integer`, {
        location: { file, row, column: "slice" },
        remedy: "number the time slices 0, 1, 2, … (their length is --slice-seconds)",
      });
    const bytes = number(text(cells[k++], file, row, volume), file, row, volume, "slice volume")!;
    if (bytes < 0)
      throw new VarmapError("E_BAD_VALUE", `negative ${volume} ${bytes}`, {
        location: { file, row, column: volume },
        remedy: `give the ${volume} written in the slice (≥ 0)`,
      });
    const serverBytes = hasServer ? number(cells[k++], file, row, "server_bytes", "server bytes") : null;
    return { row, experiment, app, instance, slice, bytes, serverBytes };
  });
}
