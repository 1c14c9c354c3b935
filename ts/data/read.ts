// Reads a long-format table of runs (CSV or Parquet) into a ConfigTable: configurations grouped and sorted in
// SQL (by factors, then inputs), each configuration's runs ordered by the run column, then by file row, as one
// flat Float64Array with Int32Array offsets. Every bad input is a VarmapError naming file, row and column.
//
// Row numbers: DuckDB's `row_number() OVER ()` without ORDER BY is a streaming window that preserves the scan
// order (preserve_insertion_order is on by default), so __row is the record's position in the file; the header
// is row 1, the first record row 2.
import { statSync } from "node:fs";
import { VarmapError } from "../errors.js";
import { formatOf, ident, literal, openDb, queryRows, streamDoubles, type Db } from "./duckdb.js";
import type { ColumnRoles, ConfigTable } from "./types.js";

export interface ReadOptions {
  /** SQL predicate selecting rows before anything else. */
  where?: string;
  /** Responses must be > 0 (log scale or a positive distribution family); `positiveReason` says which. */
  requirePositive?: boolean;
  positiveReason?: string;
  /** An id column to keep per configuration (map tables). */
  idColumn?: string;
  /** Accept repeated run indices within a configuration (noted, not fatal). */
  allowDuplicateRuns?: boolean;
  note?: (msg: string) => void;
}

const RUN_REMEDY = "give each run of a configuration its own index in the run column, or drop --run to order runs by file row";

export async function readConfigTable(file: string, roles: ColumnRoles, opts: ReadOptions = {}): Promise<ConfigTable> {
  checkFile(file);
  const db = await openDb();
  try {
    return await readWith(db, file, roles, opts);
  } finally {
    db.close();
  }
}

function checkFile(file: string): void {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error("not a file");
    size = st.size;
  } catch {
    throw new VarmapError("E_FILE_NOT_FOUND", `cannot read input file`, { location: { file }, remedy: "check the path" });
  }
  if (size === 0) {
    throw new VarmapError("E_EMPTY_FILE", "the file is empty", {
      location: { file, row: 1 },
      remedy: "give a CSV with a header row and one row per run, or a Parquet file",
    });
  }
}

function scanOf(file: string, typed?: Record<string, string>): string {
  if (formatOf(file) === "parquet") return `read_parquet(${literal(file)})`;
  if (!typed) return `read_csv(${literal(file)}, header = true)`;
  const types = Object.entries(typed)
    .map(([c, t]) => `${literal(c)}: '${t}'`)
    .join(", ");
  // store_rejects: a value that does not parse as its type is recorded with its file line instead of failing
  // the whole scan with a message we cannot locate.
  return `read_csv(${literal(file)}, header = true, store_rejects = true, types = {${types}})`;
}

async function readWith(db: Db, file: string, roles: ColumnRoles, opts: ReadOptions): Promise<ConfigTable> {
  const { con } = db;
  const isCsv = formatOf(file) === "csv";
  let columns: string[];
  try {
    columns = (await queryRows(con, `DESCRIBE SELECT * FROM ${scanOf(file)}`)).map((r) => String(r.column_name));
  } catch (e) {
    throw new VarmapError("E_BAD_FILE", `cannot parse the file as ${isCsv ? "CSV" : "Parquet"}: ${firstLine(e)}`, {
      location: { file },
      remedy: "check the file format (CSV with a header row, or Parquet; the extension decides)",
      cause: e,
    });
  }
  const wanted = [...roles.factors, ...roles.inputs, ...(roles.run ? [roles.run] : []), roles.response, ...(opts.idColumn ? [opts.idColumn] : [])];
  for (const c of wanted) {
    if (!columns.includes(c)) {
      throw new VarmapError("E_MISSING_COLUMN", `column '${c}' not found (the file has: ${columns.join(", ")})`, {
        location: { file, row: 1, column: c },
        remedy: "name existing columns with --factors/--inputs/--response/--run/--id, or pick the right --preset",
      });
    }
  }

  const typed: Record<string, string> = {};
  for (const c of roles.factors) typed[c] = "VARCHAR";
  for (const c of [...roles.inputs, roles.response, ...(roles.run ? [roles.run] : [])]) typed[c] = "DOUBLE";
  if (opts.idColumn) typed[opts.idColumn] = "VARCHAR";

  const f = roles.factors.map((_, i) => `__f${i}`);
  const x = roles.inputs.map((_, i) => `__x${i}`);
  const sel = [
    ...roles.factors.map((c, i) => `COALESCE(CAST(${ident(c)} AS VARCHAR), '') AS ${f[i]}`),
    ...roles.inputs.map((c, i) => `TRY_CAST(${ident(c)} AS DOUBLE) AS ${x[i]}`),
    roles.run ? `TRY_CAST(${ident(roles.run)} AS DOUBLE) AS __run` : `NULL::DOUBLE AS __run`,
    `TRY_CAST(${ident(roles.response)} AS DOUBLE) AS __y`,
    opts.idColumn ? `CAST(${ident(opts.idColumn)} AS VARCHAR) AS __id` : `NULL::VARCHAR AS __id`,
    opts.where ? `COALESCE((${opts.where}), false) AS __keep` : `true AS __keep`,
  ];
  const rowsSql = `SELECT row_number() OVER () + 1 AS __row, * FROM ${scanOf(file, isCsv ? typed : undefined)}`;
  try {
    await con.run(`CREATE TEMP TABLE t AS SELECT __row, ${sel.join(", ")} FROM (${rowsSql})`);
  } catch (e) {
    if (opts.where) {
      // Tell a bad predicate apart from a bad file: does the predicate alone compile against the columns?
      const ok = await con.run(`SELECT count(*) FROM (SELECT * FROM ${scanOf(file)} LIMIT 0) WHERE (${opts.where})`).then(
        () => true,
        () => false,
      );
      if (!ok) {
        throw new VarmapError("E_BAD_WHERE", `the --where predicate is not valid SQL over this file: ${firstLine(e)}`, {
          location: { file },
          remedy: `write a SQL boolean expression over the columns (${columns.join(", ")}), e.g. --where "threads >= 8"`,
          cause: e,
        });
      }
    }
    throw new VarmapError("E_BAD_FILE", `cannot read the file: ${firstLine(e)}`, { location: { file }, remedy: "check the file format", cause: e });
  }

  if (isCsv) await checkRejects(db, file, roles);

  const [counts] = await queryRows(con, `SELECT count(*) AS total, count(*) FILTER (WHERE __keep) AS kept FROM t`);
  if (counts.total === 0) {
    throw new VarmapError("E_EMPTY_FILE", "the file has no data rows", { location: { file, row: 2 }, remedy: "give at least one row per run below the header" });
  }
  if (counts.kept === 0) {
    throw new VarmapError("E_EMPTY_SELECTION", `--where "${opts.where}" selects none of the ${counts.total} rows`, {
      location: { file },
      remedy: "loosen the --where predicate",
    });
  }

  await checkValues(db, file, roles, opts, x);

  // Configurations, in the order everything downstream uses: factors, then inputs, ascending.
  const keys = [...f, ...x];
  const order = keys.join(", ");
  const cfg = await con.runAndReadAll(
    `SELECT ${keys.length ? order + ", " : ""}count(*) AS n, min(__row) AS first_row, any_value(__id) AS id FROM t WHERE __keep ${
      keys.length ? `GROUP BY ${order} ORDER BY ${order}` : ""
    }`,
  );
  const cols = cfg.getColumnsJS();
  const count = cfg.currentRowCount;
  const factorValues = f.map((_, i) => cols[i] as string[]);
  const inputs = new Float64Array(count * x.length);
  for (let j = 0; j < x.length; j++) {
    const col = cols[f.length + j] as number[];
    for (let c = 0; c < count; c++) inputs[c * x.length + j] = col[c];
  }
  const nCol = cols[keys.length] as bigint[];
  const firstCol = cols[keys.length + 1] as bigint[];
  const offsets = new Int32Array(count + 1);
  const firstRow = new Int32Array(count);
  for (let c = 0; c < count; c++) {
    offsets[c + 1] = offsets[c] + Number(nCol[c]);
    firstRow[c] = Number(firstCol[c]);
  }

  const total = offsets[count];
  const runs = new Float64Array(total);
  const runIdx = roles.run ? new Float64Array(total) : undefined;
  const got = await streamDoubles(
    con,
    `SELECT __y${runIdx ? ", __run" : ""} FROM t WHERE __keep ORDER BY ${order ? order + ", " : ""}__run, __row`,
    runIdx ? [runs, runIdx] : [runs],
  );
  if (got !== total) throw new Error(`read ${got} runs, expected ${total}`);
  if (runIdx && !opts.allowDuplicateRuns) await checkDuplicateRuns(db, file, roles, offsets, runIdx, x, f);
  if (runIdx && opts.allowDuplicateRuns) {
    const n = countRepeated(offsets, runIdx);
    if (n > 0) opts.note?.(`${n} configuration(s) repeat run indices in '${roles.run}'; their runs are kept, ordered by run index, then file row`);
  }

  const table: ConfigTable = { source: file, roles, count, factorValues, inputs, runs, offsets, firstRow };
  if (opts.idColumn) {
    const idCol = cols[keys.length + 2] as string[];
    table.ids = idCol.map((s) => (s !== null && s !== "" && Number.isFinite(Number(s)) ? Number(s) : s));
  }
  return table;
}

/** A CSV value that did not parse as its declared type (recorded by store_rejects). */
async function checkRejects(db: Db, file: string, roles: ColumnRoles): Promise<void> {
  const rejects = await queryRows(db.con, `SELECT line, column_name, csv_line, error_type, error_message FROM reject_errors ORDER BY line LIMIT 1`);
  if (rejects.length === 0) return;
  const r = rejects[0];
  const column = String(r.column_name ?? "");
  const row = Number(r.line);
  if (r.error_type === "CAST") {
    const value = /string "(.*)" to/.exec(String(r.error_message))?.[1] ?? "?";
    if (column === roles.response) {
      throw new VarmapError("E_BAD_RESPONSE", `response '${value}' is not a number`, {
        location: { file, row, column },
        remedy: "fix or remove the row (the response must be a finite number), or exclude it with --where",
      });
    }
    throw new VarmapError("E_NON_NUMERIC", `'${value}' is not a number`, {
      location: { file, row, column },
      remedy: roles.inputs.includes(column)
        ? "inputs must be numeric: fix the value, or declare the column a factor with --factors"
        : "the run column must hold numeric run indices: fix the value, or drop --run",
    });
  }
  throw new VarmapError("E_BAD_CSV", `malformed CSV row (${String(r.error_type).toLowerCase()}): ${String(r.error_message).split("\n")[0]}`, {
    location: { file, row, column: column || undefined },
    remedy: "every row needs the header's number of comma-separated fields",
  });
}

/** Empty, non-finite or non-numeric inputs, run indices and responses; non-positive responses when needed. */
async function checkValues(db: Db, file: string, roles: ColumnRoles, opts: ReadOptions, x: string[]): Promise<void> {
  const checks: { sql: string; make: (row: number) => Promise<VarmapError> }[] = [];
  roles.inputs.forEach((c, i) => {
    checks.push({
      sql: `min(__row) FILTER (WHERE ${x[i]} IS NULL OR NOT isfinite(${x[i]}))`,
      make: async (row) =>
        new VarmapError("E_NON_NUMERIC", `input ${await describeValue(db, file, c, row)} is not a finite number`, {
          location: { file, row, column: c },
          remedy: "inputs must be numeric: fix the value, exclude the row with --where, or declare the column a factor with --factors",
        }),
    });
  });
  if (roles.run) {
    const c = roles.run;
    checks.push({
      sql: `min(__row) FILTER (WHERE __run IS NULL OR NOT isfinite(__run))`,
      make: async (row) =>
        new VarmapError("E_NON_NUMERIC", `run index ${await describeValue(db, file, c, row)} is not a number`, {
          location: { file, row, column: c },
          remedy: "the run column must hold numeric run indices: fix the value, or drop --run",
        }),
    });
  }
  checks.push({
    sql: `min(__row) FILTER (WHERE __y IS NULL OR NOT isfinite(__y))`,
    make: async (row) =>
      new VarmapError("E_BAD_RESPONSE", `response ${await describeValue(db, file, roles.response, row)} is empty, NaN or infinite`, {
        location: { file, row, column: roles.response },
        remedy: "fix or remove the row (the response must be a finite number), or exclude it with --where",
      }),
  });
  if (opts.requirePositive) {
    checks.push({
      sql: `min(__row) FILTER (WHERE __y <= 0)`,
      make: async (row) =>
        new VarmapError("E_NONPOSITIVE_RESPONSE", `response ${await describeValue(db, file, roles.response, row)} is not positive, but ${opts.positiveReason ?? "a log scale"} needs responses > 0`, {
          location: { file, row, column: roles.response },
          remedy: "remove or fix non-positive responses (e.g. --where \"" + roles.response + " > 0\"), or use a scale/family that allows them",
        }),
    });
  }
  const [res] = await queryRows(db.con, `SELECT ${checks.map((c, i) => `${c.sql} AS c${i}`).join(", ")} FROM t WHERE __keep`);
  let best = -1;
  for (let i = 0; i < checks.length; i++) {
    const row = res[`c${i}`] as number | null;
    if (row !== null && row !== undefined && (best < 0 || row < (res[`c${best}`] as number))) best = i;
  }
  if (best >= 0) throw await checks[best].make(res[`c${best}`] as number);
}

/** The raw text of a cell, quoted, for messages ('' when empty). */
async function describeValue(db: Db, file: string, column: string, row: number): Promise<string> {
  try {
    const [r] = await queryRows(
      db.con,
      `SELECT CAST(${ident(column)} AS VARCHAR) AS v FROM (SELECT row_number() OVER () + 1 AS __row, * FROM ${
        formatOf(file) === "csv" ? `read_csv(${literal(file)}, header = true, all_varchar = true)` : `read_parquet(${literal(file)})`
      }) WHERE __row = ${row}`,
    );
    return r?.v === null || r?.v === undefined || r.v === "" ? "(empty)" : `'${String(r.v)}'`;
  } catch {
    return "";
  }
}

function countRepeated(offsets: Int32Array, runIdx: Float64Array): number {
  let n = 0;
  for (let c = 0; c + 1 < offsets.length; c++) {
    for (let i = offsets[c] + 1; i < offsets[c + 1]; i++) {
      if (runIdx[i] === runIdx[i - 1]) {
        n++;
        break;
      }
    }
  }
  return n;
}

async function checkDuplicateRuns(db: Db, file: string, roles: ColumnRoles, offsets: Int32Array, runIdx: Float64Array, x: string[], f: string[]): Promise<void> {
  for (let c = 0; c + 1 < offsets.length; c++) {
    for (let i = offsets[c] + 1; i < offsets[c + 1]; i++) {
      if (runIdx[i] !== runIdx[i - 1]) continue;
      // Locate both rows of the duplicate for the message (error path only).
      const order = [...f, ...x].join(", ");
      const [p, r] = await queryRows(
        db.con,
        `SELECT __row FROM (SELECT __row, row_number() OVER (ORDER BY ${order ? order + ", " : ""}__run, __row) - 1 AS k FROM t WHERE __keep) WHERE k IN (${i - 1}, ${i}) ORDER BY k`,
      );
      throw new VarmapError("E_DUPLICATE_RUN", `run index ${runIdx[i]} appears twice in one configuration (also at row ${p.__row})`, {
        location: { file, row: r.__row as number, column: roles.run },
        remedy: RUN_REMEDY,
      });
    }
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}
