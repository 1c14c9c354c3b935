// Reads a long-format table of runs (CSV or Parquet) into a ConfigTable: configurations grouped and sorted in
// SQL (by factors, then inputs), each configuration's runs ordered by the run column, then by file row, as one
// flat Float64Array with Int32Array offsets. Every bad input is a VarmapError naming file, row and column.
//
// The file is scanned once (in parallel) into a temporary table holding only the role columns, typed. Row
// numbers: with preserve_insertion_order (DuckDB's default) a CREATE TABLE AS keeps the scan order, so the
// table's rowid is the record's position in the file: row = rowid + 2 (the header is row 1). (row_number() OVER ()
// gives the same numbers but serializes the scan, 2-3x slower.) Configurations are grouped by a 64-bit hash of
// their key computed during the scan (a second, independent hash detects collisions; on one, the full key is
// used); each run's configuration is found from its hash in JS and runs are bucketed by configuration (a
// counting sort), which is much cheaper than having DuckDB sort or join 3.8 M rows on seven key columns.
import { statSync } from "node:fs";
import { VarmapError } from "../errors.js";
import {
  READ_MEMORY_LIMIT,
  csvScan,
  delimiterOf,
  fileScan,
  forEachChunk,
  formatOf,
  ident,
  literal,
  openDb,
  queryRows,
  separatedName,
  streamColumns,
  type Db,
} from "./duckdb.js";
import { countNewlines, csvRecordLines, diagnoseCsv, headOfFile, type NewlineCount } from "./csv-lines.js";
import type { ColumnRoles, ConfigTable } from "./types.js";

export interface ReadOptions {
  /** SQL predicate selecting rows before anything else. */
  where?: string;
  /** Responses must be > 0 (log scale or a positive distribution family); `positiveReason` says which. */
  requirePositive?: boolean;
  positiveReason?: string;
  /** An id column to keep per configuration (map tables). */
  idColumn?: string;
  /** Group by the full key, as after a hash collision (for tests of that path). */
  groupByFullKey?: boolean;
  /** Accept repeated run indices within a configuration (noted, not fatal). */
  allowDuplicateRuns?: boolean;
  note?: (msg: string) => void;
}

const RUN_REMEDY = "give each run of a configuration its own index in the run column, or drop --run to order runs by file row";

export async function readConfigTable(file: string, roles: ColumnRoles, opts: ReadOptions = {}): Promise<ConfigTable> {
  checkFile(file);
  // Bounded: the scan's temp table of a 3.8 M-run file is ~500 MB, which DuckDB spills rather than holds.
  // --where is SQL: the connection may read this file and nothing else.
  const db = await openDb({ memoryLimit: READ_MEMORY_LIMIT, onlyFiles: [file] });
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
      remedy: "give a CSV (or .tsv) with a header row and one row per run, or a Parquet file",
    });
  }
}

/**
 * The scan of a file. For CSV with `typed`, the role columns get their types; with `allColumns` (when DuckDB's
 * sniffer cannot make sense of the file, e.g. ragged rows) no sniffing at all: every other column is VARCHAR.
 */
export function scanOf(file: string, typed?: Record<string, string>, allColumns?: string[]): string {
  if (!typed || formatOf(file) === "parquet") return fileScan(file);
  const entries = (allColumns ?? Object.keys(typed)).map((c) => `${literal(c)}: '${typed[c] ?? "VARCHAR"}'`).join(", ");
  // store_rejects: a value that does not parse as its type is recorded with its file line instead of failing
  // the whole scan with a message we cannot locate.
  return allColumns
    ? csvScan(file, `quote = '"', escape = '"', auto_detect = false, store_rejects = true, columns = {${entries}}`)
    : csvScan(file, `store_rejects = true, types = {${entries}}`);
}

/** A one-column header that holds another separator (a semicolon file, or tabs in a .csv): which, and the fix. */
function otherSeparator(file: string, columns: string[]): { name: string; fix: string } | undefined {
  if (columns.length !== 1) return undefined;
  const [h] = columns;
  if (h.includes("\t") && delimiterOf(file) !== "\t") return { name: "tab", fix: `rename it to .tsv${/\.gz$/i.test(file) ? ".gz" : ""}` };
  if (h.includes(";")) return { name: "semicolon", fix: "convert it, e.g. tr ';' ',' < in.csv > out.csv when no field holds a comma" };
  if (h.includes("|")) return { name: "pipe", fix: "convert it, e.g. tr '|' ',' < in.csv > out.csv when no field holds a comma" };
  return undefined;
}

/**
 * The header names of a CSV file, read directly (fallback when the sniffer fails); undefined when its bytes cannot be
 * read here (a zstd file).
 */
function csvHeader(file: string): string[] | undefined {
  const head = headOfFile(file);
  if (!head) return undefined;
  const line = head.toString("utf8").split(/\r?\n/)[0];
  const sep = delimiterOf(file);
  const names: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) names.push(cur), (cur = "");
    else cur += ch;
  }
  names.push(cur);
  return names;
}

// VARMAP_TRACE=1 prints the time of each reading phase on stderr.
const trace = process.env.VARMAP_TRACE
  ? (t0: number, what: string) => {
      const cpu = process.cpuUsage();
      process.stderr.write(
        `[read] ${what}: ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU (process)\n`,
      );
    }
  : undefined;

/** The SQL types the role columns are read as (CSV scans declare them). */
export function roleTypes(roles: ColumnRoles, opts: Pick<ReadOptions, "idColumn">): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const c of roles.factors) typed[c] = "VARCHAR";
  for (const c of [...roles.inputs, roles.response, ...(roles.run ? [roles.run] : [])]) typed[c] = "DOUBLE";
  if (opts.idColumn) typed[opts.idColumn] = "VARCHAR";
  return typed;
}

/**
 * The role columns as the scan selects them: factors as text (__f0, …; NULL becomes ''), inputs (__x0, …), run
 * index (__run) and response (__y) as DOUBLE (NULL where a value does not convert), __id, and __keep (--where).
 */
export function roleSelect(roles: ColumnRoles, opts: Pick<ReadOptions, "idColumn" | "where">): { f: string[]; x: string[]; sel: string[] } {
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
  return { f, x, sel };
}

async function readWith(db: Db, file: string, roles: ColumnRoles, opts: ReadOptions): Promise<ConfigTable> {
  const { con } = db;
  const t0 = performance.now();
  const isCsv = formatOf(file) === "csv";
  let columns: string[];
  let sniffed = true;
  try {
    columns = (await queryRows(con, `DESCRIBE SELECT * FROM ${scanOf(file)}`)).map((r) => String(r.column_name));
  } catch (e) {
    if (!isCsv) {
      throw new VarmapError("E_BAD_FILE", `cannot parse the file as Parquet: ${firstLine(e)}`, {
        location: { file },
        remedy: "check the file format (CSV with a header row, .tsv / .tab for tab-separated, or .parquet; the extension decides)",
        cause: e,
      });
    }
    // The sniffer gave up (e.g. ragged rows): take the header as written and let the typed scan locate bad rows.
    const header = csvHeader(file);
    if (!header)
      throw new VarmapError("E_BAD_FILE", `cannot parse the file: ${firstLine(e)}`, {
        location: { file },
        remedy: "check the file, or decompress it (a .zst file is read by DuckDB alone, which gave up on this one)",
        cause: e,
      });
    columns = header;
    sniffed = false;
  }
  const wanted = [...roles.factors, ...roles.inputs, ...(roles.run ? [roles.run] : []), roles.response, ...(opts.idColumn ? [opts.idColumn] : [])];
  for (const c of wanted) {
    if (!columns.includes(c)) {
      const other = isCsv ? otherSeparator(file, columns) : undefined;
      throw new VarmapError("E_MISSING_COLUMN", `column '${c}' not found (the file has: ${columns.join(", ")})`, {
        location: { file, row: 1, column: c },
        remedy: other
          ? `the header reads as one column holding ${other.name}s: the file looks ${other.name}-separated; varmap reads comma-separated .csv and tab-separated .tsv / .tab files (${other.fix})`
          : "name existing columns with --factors/--inputs/--response/--run/--id, or pick the right --preset",
      });
    }
  }

  const typed = roleTypes(roles, opts);

  let newlines: Promise<NewlineCount | undefined> | undefined; // started beside the scan (below)
  const { f, x, sel } = roleSelect(roles, opts);
  try {
    // __h: a 64-bit hash of the configuration key, computed during the parallel scan, so grouping uses one
    // integer key instead of seven columns and runs are matched to configurations in JS; __h2 (the key's columns
    // reversed) detects collisions (below).
    const keyList = [...f, ...x].join(", ");
    const keyListReversed = [...f, ...x].reverse().join(", ");
    const scanInto = (unsniffed: boolean) =>
      con.run(
        `CREATE TEMP TABLE t AS SELECT *, hash(${keyList}) AS __h, hash(${keyListReversed}) AS __h2 FROM (SELECT ${sel.join(", ")} FROM ${scanOf(file, isCsv ? typed : undefined, unsniffed ? columns : undefined)})`,
      );
    const scan = scanInto(!sniffed);
    // The file's newlines are counted while DuckDB scans it (for file lines in messages and firstRow, below).
    if (isCsv) newlines = countNewlines(file);
    try {
      await scan;
    } catch (e) {
      // DuckDB's sniffer can settle on a dialect its parser then rejects ("the CSV Parser state machine reached
      // an invalid state", e.g. a non-numeric value in the last row of a small file): read the header as written,
      // with no sniffing, so the typed scan records the bad value with its line (checkRejects) instead.
      if (!isCsv || !sniffed) throw e;
      await scanInto(true).catch(() => {
        throw e;
      });
    }
    await con.run(`CREATE TEMP VIEW v AS SELECT (rowid + 2)::INTEGER AS __row, * FROM t`);
  } catch (e) {
    if (opts.where) {
      // Tell a bad predicate apart from a bad file: does the predicate alone compile against the columns?
      const ok = await con.run(`SELECT count(*) FROM (SELECT * FROM ${scanOf(file)} LIMIT 0) WHERE (${opts.where})`).then(
        () => true,
        () => false,
      );
      if (/disabled by configuration/.test(firstLine(e)))
        throw new VarmapError("E_BAD_WHERE", `the --where predicate may only use this file's columns: ${firstLine(e)}`, {
          location: { file },
          remedy: "reading other files, writing, attaching databases and network access are disabled in --where; filter on the columns only",
          cause: e,
        });
      if (!ok) {
        throw new VarmapError("E_BAD_WHERE", `the --where predicate is not valid SQL over this file: ${firstLine(e)}`, {
          location: { file },
          remedy: `write a SQL boolean expression over the columns (${columns.join(", ")}), e.g. --where "threads >= 8"`,
          cause: e,
        });
      }
    }
    const irregular = isCsv ? await diagnoseCsv(file) : undefined;
    if (irregular)
      throw new VarmapError("E_BAD_CSV", `malformed CSV row: ${irregular.problem}`, {
        location: { file, row: irregular.line },
        remedy: `give every row the header's number of ${separatedName(file)} fields and the same line ending`,
        cause: e,
      });
    throw new VarmapError("E_BAD_FILE", `cannot read the file: ${firstLine(e)}`, { location: { file }, remedy: "check the file format", cause: e });
  }

  trace?.(t0, "scan into temp table");
  if (isCsv) await checkRejects(db, file, roles);

  const [counts] = await queryRows(con, `SELECT count(*) AS total, count(*) FILTER (WHERE __keep) AS kept FROM v`);
  if (counts.total === 0) {
    throw new VarmapError("E_EMPTY_FILE", "the file has no data rows", {
      location: { file, row: 2 },
      remedy: "give at least one row per run below the header",
    });
  }
  if (counts.kept === 0) {
    throw new VarmapError("E_EMPTY_SELECTION", `--where "${opts.where}" selects none of the ${counts.total} rows`, {
      location: { file },
      remedy: "loosen the --where predicate",
    });
  }

  // Record numbers (rowid + 2) → file lines, for messages and firstRow (one newline count when none differ).
  const lines = isCsv ? await csvRecordLines(file, Number(counts.total) + 1, newlines) : undefined;
  const lineOf = (row: number): number => lines?.[row] ?? row;
  await checkValues(db, file, roles, opts, x, lineOf);
  trace?.(t0, "checks");

  // Configurations, in the order everything downstream uses: factors, then inputs, ascending.
  const keys = [...f, ...x];
  const order = keys.join(", ");
  // Group by the key hash with integer aggregates only; the second hash must be constant within each group,
  // otherwise two configurations collided and we group (and join) by the full key instead. The key values of a
  // configuration come from its first row.
  await con.run(`CREATE TEMP TABLE g AS SELECT __h, count(*) AS n, min(__row) AS first_row, min(__h2) = max(__h2) AS __one FROM v WHERE __keep GROUP BY __h`);
  const [{ ok: noCollision }] = await queryRows(con, `SELECT bool_and(__one) AS ok FROM g`);
  const ok = Boolean(noCollision) && !opts.groupByFullKey;
  await con.run(
    ok
      ? `CREATE TEMP TABLE cfg AS SELECT (row_number() OVER (ORDER BY ${order}) - 1)::INTEGER AS __cid, * FROM (` +
          `SELECT g.__h, g.n, g.first_row, ${keys.map((k) => `v.${k}`).join(", ")}, v.__id AS id FROM g JOIN v ON v.__row = g.first_row)`
      : `CREATE TEMP TABLE cfg AS SELECT (row_number() OVER (ORDER BY ${order}) - 1)::INTEGER AS __cid, * FROM (` +
          `SELECT ${order}, count(*) AS n, min(__row) AS first_row, any_value(__id) AS id FROM v WHERE __keep GROUP BY ${order})`,
  );
  // Read the configuration table as typed columns (converting 10^5 rows of values one by one costs ~1 s):
  // inputs, counts and first rows stream as numbers; factor values as an index into the distinct combinations.
  const [{ count: countBig }] = await queryRows(con, `SELECT count(*) AS count FROM cfg`);
  const count = Number(countBig);
  const xCols = x.map(() => new Float64Array(count));
  const nCol = new Int32Array(count);
  const firstRow = new Int32Array(count);
  await streamColumns(con, `SELECT ${x.map((c) => `${c}, `).join("")}n::INTEGER, first_row FROM cfg ORDER BY __cid`, [...xCols, nCol, firstRow]);
  const inputs = new Float64Array(count * x.length);
  for (let j = 0; j < x.length; j++) for (let c = 0; c < count; c++) inputs[c * x.length + j] = xCols[j][c];
  let factorValues: string[][] = [];
  if (f.length) {
    const fl = f.join(", ");
    await con.run(`CREATE TEMP TABLE fk AS SELECT (row_number() OVER (ORDER BY ${fl}) - 1)::INTEGER AS __fid, ${fl} FROM (SELECT DISTINCT ${fl} FROM cfg)`);
    const combos = (await con.runAndReadAll(`SELECT ${fl} FROM fk ORDER BY __fid`)).getRowsJS() as string[][];
    const fid = new Int32Array(count);
    await streamColumns(con, `SELECT __fid FROM cfg JOIN fk USING (${fl}) ORDER BY __cid`, [fid]);
    factorValues = f.map((_, i) => Array.from(fid, (k) => combos[k][i]));
  }
  const offsets = new Int32Array(count + 1);
  for (let c = 0; c < count; c++) offsets[c + 1] = offsets[c] + nCol[c];
  trace?.(t0, "configurations");

  const total = offsets[count];
  let runs: Float64Array;
  if (ok) {
    const byRun = Boolean(roles.run);
    const streamed = await streamRuns(con, offsets, byRun, total);
    trace?.(t0, streamed ? "runs streamed in file order" : "runs not in file order");
    if (streamed) {
      const { duplicate, repeated } = streamed;
      if (duplicate && !opts.allowDuplicateRuns)
        throw new VarmapError("E_DUPLICATE_RUN", `run index ${duplicate.run} appears twice in one configuration (also at row ${lineOf(duplicate.earlier)})`, {
          location: { file, row: lineOf(duplicate.row), column: roles.run },
          remedy: RUN_REMEDY,
        });
      if (repeated > 0)
        opts.note?.(`${repeated} configuration(s) repeat run indices in '${roles.run}'; their runs are kept, ordered by run index, then file row`);
      runs = streamed.runs;
    } else runs = await readRunsBucketed(con, file, roles, opts, ok, order, count, offsets, total, lineOf);
    trace?.(t0, "runs placed");
  } else runs = await readRunsBucketed(con, file, roles, opts, ok, order, count, offsets, total, lineOf);
  // firstRow locates later errors (a constant input, too few runs): file lines too (one newline count when none differ).
  if (lines) for (let c = 0; c < count; c++) firstRow[c] = lineOf(firstRow[c]);
  const table: ConfigTable = { source: file, roles, count, factorValues, inputs, runs, offsets, firstRow };
  if (opts.idColumn) {
    const idCol = (await con.runAndReadAll(`SELECT id FROM cfg ORDER BY __cid`)).getColumnsJS()[0] as string[];
    table.ids = idCol.map((s) => (s !== null && s !== "" && Number.isFinite(Number(s)) ? Number(s) : s));
  }
  return table;
}

const KEY_HALVES = `(__h >> 32)::UINTEGER, (__h & 4294967295::UBIGINT)::UINTEGER`;

/** The configurations' key hashes, indexed. */
async function configIndex(con: Db["con"], count: number): Promise<HashIndex> {
  const cfgHi = new Uint32Array(count);
  const cfgLo = new Uint32Array(count);
  await streamColumns(con, `SELECT ${KEY_HALVES} FROM cfg ORDER BY __cid`, [cfgHi, cfgLo]);
  return new HashIndex(cfgHi, cfgLo);
}

/** Runs placed in their configurations' slots, and what was seen of repeated run indices. */
interface StreamedRuns {
  runs: Float64Array;
  /** Configurations that repeat a run index. */
  repeated: number;
  /** The repeat that comes first in the file: its record, the earlier record with the same index, the index. */
  duplicate?: { row: number; earlier: number; run: number };
}

/**
 * Runs in 8 bytes each (no per-run index, row or configuration arrays): each streamed run goes straight to its
 * configuration's next slot, so the arrival order within a configuration is its final order: (run index, file
 * row). File order (the temp table's scan order) gives it whenever run indices never decrease down the file within
 * a configuration (the usual layout); else undefined is returned and the caller places the runs with their run
 * indices and rows, sorted within each configuration (readRunsBucketed: 20 bytes a run, where a DuckDB sort of the
 * runs took up to its 1 GB limit, so memory depended on row order: issue 44 item 18).
 */
async function streamRuns(con: Db["con"], offsets: Int32Array, byRun: boolean, total: number): Promise<StreamedRuns | undefined> {
  const count = offsets.length - 1;
  const index = await configIndex(con, count);
  const fill = offsets.slice(0, count);
  const lastRun = byRun ? new Float64Array(count).fill(-Infinity) : undefined;
  const lastRowOf = byRun ? new Int32Array(count) : undefined;
  const repeats = byRun ? new Uint8Array(count) : undefined;
  let duplicate: StreamedRuns["duplicate"];
  const runs = new Float64Array(total);
  let lastRow = -1;
  let inOrder = true;
  const source = `SELECT ${KEY_HALVES}, __row, __run, __y FROM v WHERE __keep`;
  const got = await forEachChunk(con, source, ["u32", "u32", "i32", "f64", "f64"], (cols, n) => {
    if (!inOrder) return;
    const [hi, lo, row, run, y] = cols;
    for (let i = 0; i < n; i++) {
      const c = index.get(hi[i], lo[i]);
      if (!(row[i] > lastRow)) return void (inOrder = false);
      lastRow = row[i];
      if (lastRun && lastRowOf && repeats) {
        if (run[i] === lastRun[c]) {
          repeats[c] = 1;
          if (!duplicate || row[i] < duplicate.row) duplicate = { row: row[i], earlier: lastRowOf[c], run: run[i] };
        } else if (!(run[i] > lastRun[c])) return void (inOrder = false);
        lastRun[c] = run[i];
        lastRowOf[c] = row[i];
      }
      if (fill[c] >= offsets[c + 1]) throw new Error("streamRuns: more runs than counted");
      runs[fill[c]++] = y[i];
    }
  });
  if (!inOrder) return undefined;
  if (got !== total) throw new Error(`read ${got} runs, expected ${total}`);
  return { runs, repeated: repeats ? repeats.reduce((t, v) => t + v, 0) : 0, duplicate };
}

/** The general path: every run with its configuration, file row and run index, then a counting sort. */
async function readRunsBucketed(
  con: Db["con"],
  file: string,
  roles: ColumnRoles,
  opts: ReadOptions,
  ok: boolean,
  order: string,
  count: number,
  offsets: Int32Array,
  total: number,
  lineOf: (row: number) => number,
): Promise<Float64Array> {
  const byRun = Boolean(roles.run);
  let placed: { runs: Float64Array; runIdx: Float64Array; rows: Int32Array };
  let got: number;
  if (ok) {
    // Runs as they are stored, each straight into its configuration's next slot (the hash → configuration map is
    // built in JS) with its run index and row: 20 bytes a run; then sorted within each configuration.
    const index = await configIndex(con, count);
    const fill = offsets.slice(0, count);
    placed = { runs: new Float64Array(total), runIdx: new Float64Array(total), rows: new Int32Array(total) };
    const { runs, runIdx, rows } = placed;
    got = await forEachChunk(con, `SELECT ${KEY_HALVES}, __row, __run, __y FROM v WHERE __keep`, ["u32", "u32", "i32", "f64", "f64"], (cols, n) => {
      const [hi, lo, row, run, y] = cols;
      for (let i = 0; i < n; i++) {
        const c = index.get(hi[i], lo[i]);
        const p = fill[c]++;
        if (p >= offsets[c + 1]) throw new Error("readRunsBucketed: more runs than counted");
        runs[p] = y[i];
        runIdx[p] = run[i];
        rows[p] = row[i];
      }
    });
    if (got === total) sortWithinConfigurations(offsets, runs, runIdx, rows, byRun);
  } else {
    // Every kept run with its configuration id, in whatever order the join produces; bucketed below.
    const cid = new Int32Array(total);
    const rowOf = new Int32Array(total);
    const runOf = new Float64Array(total);
    const yOf = new Float64Array(total);
    got = await streamColumns(con, `SELECT __cid, __row, __run, __y FROM v JOIN cfg USING (${order}) WHERE __keep`, [cid, rowOf, runOf, yOf]);
    placed = bucketRuns(offsets, cid, rowOf, runOf, yOf, byRun);
  }
  if (got !== total) throw new Error(`read ${got} runs, expected ${total}`);
  const { runs, runIdx, rows } = placed;
  if (roles.run && !opts.allowDuplicateRuns) checkDuplicateRuns(file, roles, offsets, runIdx, rows, lineOf);
  if (roles.run && opts.allowDuplicateRuns) {
    const n = countRepeated(offsets, runIdx);
    if (n > 0) opts.note?.(`${n} configuration(s) repeat run indices in '${roles.run}'; their runs are kept, ordered by run index, then file row`);
  }
  return runs;
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
    remedy: `every row needs the header's number of ${separatedName(file)} fields`,
  });
}

/** Empty, non-finite or non-numeric inputs, run indices and responses; non-positive responses when needed. */
async function checkValues(db: Db, file: string, roles: ColumnRoles, opts: ReadOptions, x: string[], lineOf: (row: number) => number): Promise<void> {
  const checks: { sql: string; make: (row: number) => Promise<VarmapError> }[] = [];
  roles.factors.forEach((c, i) => {
    checks.push({
      sql: `min(__row) FILTER (WHERE __f${i} = '')`,
      make: async (row) =>
        new VarmapError("E_EMPTY_FACTOR", `factor '${c}' is empty`, {
          location: { file, row, column: c },
          remedy: `fill the value in, or exclude such rows with --where "${c.replaceAll('"', '\\"')} <> ''"`,
        }),
    });
  });
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
        new VarmapError(
          "E_NONPOSITIVE_RESPONSE",
          `response ${await describeValue(db, file, roles.response, row)} is not positive, but ${opts.positiveReason ?? "a log scale"} needs responses > 0`,
          {
            location: { file, row, column: roles.response },
            remedy: 'remove or fix non-positive responses (e.g. --where "' + roles.response + ' > 0"), or use a scale/family that allows them',
          },
        ),
    });
  }
  const [res] = await queryRows(db.con, `SELECT ${checks.map((c, i) => `${c.sql} AS c${i}`).join(", ")} FROM v WHERE __keep`);
  let best = -1;
  for (let i = 0; i < checks.length; i++) {
    const row = res[`c${i}`] as number | null;
    if (row !== null && row !== undefined && (best < 0 || row < (res[`c${best}`] as number))) best = i;
  }
  if (best >= 0) {
    const e = await checks[best].make(res[`c${best}`] as number);
    throw new VarmapError(e.code, e.detail, { location: { ...e.location, row: lineOf(e.location.row!) }, remedy: e.remedy });
  }
}

/** The raw text of a cell, quoted, for messages ('' when empty). */
async function describeValue(db: Db, file: string, column: string, row: number): Promise<string> {
  try {
    const [r] = await queryRows(
      db.con,
      `SELECT CAST(${ident(column)} AS VARCHAR) AS v FROM (SELECT row_number() OVER () + 1 AS __row, * FROM ${fileScan(
        file,
        "all_varchar = true",
      )}) WHERE __row = ${row}`,
    );
    return r?.v === null || r?.v === undefined || r.v === "" ? "(empty)" : `'${String(r.v)}'`;
  } catch {
    return "";
  }
}

/** Open-addressing map from 64-bit keys (given as high and low 32-bit halves) to their index. */
class HashIndex {
  private readonly mask: number;
  private readonly slots: Int32Array;
  constructor(
    private readonly hi: Uint32Array,
    private readonly lo: Uint32Array,
  ) {
    let size = 16;
    while (size < hi.length * 2) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(size).fill(-1);
    for (let k = 0; k < hi.length; k++) {
      let s = this.slot(hi[k], lo[k]);
      while (this.slots[s] >= 0) s = (s + 1) & this.mask;
      this.slots[s] = k;
    }
  }
  private slot(h: number, l: number): number {
    return (Math.imul(l ^ Math.imul(h, 0x9e3779b1), 0x85ebca6b) >>> 0) & this.mask;
  }
  get(h: number, l: number): number {
    for (let s = this.slot(h, l); ; s = (s + 1) & this.mask) {
      const k = this.slots[s];
      if (k < 0) throw new Error("HashIndex: unknown key");
      if (this.hi[k] === h && this.lo[k] === l) return k;
    }
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

function checkDuplicateRuns(
  file: string,
  roles: ColumnRoles,
  offsets: Int32Array,
  runIdx: Float64Array,
  rows: Int32Array,
  lineOf: (row: number) => number,
): void {
  // Report the duplicate that comes first in the file.
  let best = -1;
  for (let c = 0; c + 1 < offsets.length; c++) {
    for (let i = offsets[c] + 1; i < offsets[c + 1]; i++) {
      if (runIdx[i] === runIdx[i - 1] && (best < 0 || rows[i] < rows[best])) best = i;
    }
  }
  if (best < 0) return;
  throw new VarmapError("E_DUPLICATE_RUN", `run index ${runIdx[best]} appears twice in one configuration (also at row ${lineOf(rows[best - 1])})`, {
    location: { file, row: lineOf(rows[best]), column: roles.run },
    remedy: RUN_REMEDY,
  });
}

/**
 * Counting sort of runs by configuration, then, within a configuration, by run index (when there is a run
 * column) and file row. Segments that arrive already in order (the usual case) cost one comparison per run.
 */
export function bucketRuns(offsets: Int32Array, cid: Int32Array, rowOf: Int32Array, runOf: Float64Array, yOf: Float64Array, byRun: boolean) {
  const total = cid.length;
  const fill = offsets.slice(0, offsets.length - 1);
  const runs = new Float64Array(total);
  const runIdx = new Float64Array(total);
  const rows = new Int32Array(total);
  for (let i = 0; i < total; i++) {
    const p = fill[cid[i]]++;
    runs[p] = yOf[i];
    runIdx[p] = runOf[i];
    rows[p] = rowOf[i];
  }
  sortWithinConfigurations(offsets, runs, runIdx, rows, byRun);
  return { runs, runIdx, rows };
}

/** Within each configuration, runs by run index (when there is a run column), then file row; in place. */
function sortWithinConfigurations(offsets: Int32Array, runs: Float64Array, runIdx: Float64Array, rows: Int32Array, byRun: boolean): void {
  const before = (a: number, b: number) => (byRun && runIdx[a] !== runIdx[b] ? runIdx[a] < runIdx[b] : rows[a] < rows[b]);
  for (let c = 0; c + 1 < offsets.length; c++) {
    const a = offsets[c];
    const b = offsets[c + 1];
    let sorted = true;
    for (let i = a + 1; i < b && sorted; i++) if (before(i, i - 1)) sorted = false;
    if (sorted) continue;
    const idx = Array.from({ length: b - a }, (_, k) => a + k).sort((i, j) => (before(i, j) ? -1 : before(j, i) ? 1 : 0));
    const r = idx.map((i) => runs[i]);
    const ri = idx.map((i) => runIdx[i]);
    const ro = idx.map((i) => rows[i]);
    runs.set(r, a);
    runIdx.set(ri, a);
    rows.set(ro, a);
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}
