// DuckDB access for the data layer: one in-memory database per load, SQL quoting, and helpers that turn
// DuckDB failures into VarmapErrors. DuckDB is used because it parses CSV and Parquet in parallel with exact
// (correctly rounded) doubles, groups and sorts millions of rows in native code, and hands result columns
// back as typed arrays, so 3.8 M runs never become 3.8 M JS objects.
import { ownedTempDir } from "./atomic.js";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { VarmapError } from "../errors.js";

type DuckDBApi = typeof import("@duckdb/node-api");
let api: DuckDBApi | undefined;
/**
 * The DuckDB API, loaded on the first database opened and with require: an ESM import of this CommonJS package
 * costs about 0.2 s of CPU (Node scans each of its files for exports), require a third of it, and commands that
 * read no table pay nothing (issue 44: the tests start the CLI hundreds of times).
 */
function duckdb(): DuckDBApi {
  if (api) return api;
  try {
    api = createRequire(import.meta.url)("@duckdb/node-api") as DuckDBApi;
  } catch (e) {
    throw new VarmapError("E_INSTALL", `DuckDB (@duckdb/node-api) cannot be loaded: ${(e as Error).message.split("\n")[0]}`, {
      remedy: "reinstall varmap's dependencies: npm ci in the varmap directory (DuckDB ships a binary per platform)",
      cause: e,
    });
  }
  return api;
}

export interface Db {
  con: DuckDBConnection;
  close(): void;
}

/** DuckDB's working memory when reading a runs table; beyond it, tables spill to a private temporary directory. */
export const READ_MEMORY_LIMIT = "128MB";

export interface DbOptions {
  /**
   * Cap DuckDB's memory (e.g. "128MB"; VARMAP_DUCKDB_MEMORY overrides it): what does not fit spills to a
   * temporary directory of its own under the system's temporary folder, removed on close. Unbounded by default
   * (DuckDB's own default is 80 % of RAM).
   */
  memoryLimit?: string;
  /**
   * The only files SQL may touch (issue 14, item 14): external access (other files, COPY … TO, ATTACH, network,
   * extension installs) is switched off for the connection's lifetime, which no later SQL can undo. Readers of a
   * user's runs table pass [that file], so a --where predicate is an expression over its rows and nothing more.
   */
  onlyFiles?: string[];
}

export async function openDb(options: DbOptions = {}): Promise<Db> {
  const config: Record<string, string> = {};
  let spill: string | undefined;
  const limit = options.memoryLimit === undefined ? undefined : (process.env.VARMAP_DUCKDB_MEMORY ?? options.memoryLimit);
  if (limit) {
    spill = ownedTempDir("duckdb");
    config.memory_limit = limit;
    config.temp_directory = spill;
  }
  let instance: DuckDBInstance;
  try {
    instance = await duckdb().DuckDBInstance.create(":memory:", config);
  } catch (e) {
    if (spill) rmSync(spill, { recursive: true, force: true });
    throw e;
  }
  const con = await instance.connect();
  if (options.onlyFiles) {
    await con.run(`SET allowed_paths = [${options.onlyFiles.map(literal).join(", ")}]`);
    await con.run("SET enable_external_access = false");
  }
  return {
    con,
    close() {
      con.closeSync();
      instance.closeSync();
      if (spill) rmSync(spill, { recursive: true, force: true });
    },
  };
}

/** A SQL identifier, double-quoted. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A SQL string literal. */
export function literal(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A file's format by its extension: Parquet, or delimited text ("csv": comma-separated, or tab-separated, see delimiterOf). */
export type FileFormat = "csv" | "parquet";

export function formatOf(path: string): FileFormat {
  return /\.parquet$/i.test(path) ? "parquet" : "csv";
}

/** The field separator of a delimited text file: a tab for .tsv and .tab (also compressed, .tsv.gz), a comma otherwise. */
export function delimiterOf(path: string): "," | "\t" {
  return /\.(tsv|tab)(\.(gz|zst))?$/i.test(path) ? "\t" : ",";
}

/** How messages name a file's separator ("comma-separated", "tab-separated"). */
export function separatedName(path: string): string {
  return delimiterOf(path) === "\t" ? "tab-separated" : "comma-separated";
}

/**
 * DuckDB's scan of a delimited text file, header row first, with the file's separator (delimiterOf) and `options`
 * ("all_varchar = true", ...). `sniff`: a comma-separated file's separator is left to DuckDB's sniffer.
 */
export function csvScan(path: string, options?: string, sniff = false): string {
  const delim = delimiterOf(path) === "\t" ? ", delim = '\\t'" : sniff ? "" : ", delim = ','";
  return `read_csv(${literal(path)}, header = true${delim}${options ? `, ${options}` : ""})`;
}

/** The scan of a Parquet file, or csvScan's of a delimited text file (`csvOptions`, `sniff` as there). */
export function fileScan(path: string, csvOptions?: string, sniff = false): string {
  return formatOf(path) === "parquet" ? `read_parquet(${literal(path)})` : csvScan(path, csvOptions, sniff);
}

/** Rows of a (small) query as plain objects with JS values (BIGINT → number). */
export async function queryRows(con: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const reader = await con.runAndReadAll(sql);
  return reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) out[k] = typeof v === "bigint" ? Number(v) : v;
    return out;
  });
}

/** Every column of `need` in the rows read from `file` (an --at or candidates table): E_COLUMN naming the first missing. */
export function checkRowColumns(rows: readonly Record<string, unknown>[], need: readonly string[], file: string): void {
  const have = new Set(rows.length ? Object.keys(rows[0]) : need);
  const missing = need.find((c) => !have.has(c));
  if (missing)
    throw new VarmapError("E_COLUMN", `column '${missing}' is missing`, {
      location: { file, column: missing },
      remedy: `give the columns ${need.join(", ")}`,
    });
}

/**
 * Every row of a (small) CSV or Parquet file, CSV cells as text (numbers are parsed by the caller, exactly). A file
 * DuckDB cannot read is an E_READ naming `what` it should have held ("the table", "the configurations").
 */
export async function readFileRows(path: string, what: string): Promise<Record<string, unknown>[]> {
  const db = await openDb();
  try {
    const src = fileScan(path, "all_varchar = true", true);
    return await queryRows(db.con, `SELECT * FROM ${src}`);
  } catch (e) {
    if (e instanceof VarmapError) throw e;
    throw new VarmapError("E_READ", `cannot read ${what}: ${(e as Error).message.split("\n")[0]}`, {
      location: { file: path },
      remedy: "give a CSV file with a header line, or a Parquet file",
    });
  } finally {
    db.close();
  }
}

/**
 * Streams the numeric columns of a query (DOUBLE into Float64Array, INTEGER into Int32Array, UINTEGER into
 * Uint32Array) into `outs`, one array
 * per column, each as long as the result. NULL becomes NaN (0 in an Int32Array).
 */
export async function streamColumns(con: DuckDBConnection, sql: string, outs: (Float64Array | Int32Array | Uint32Array)[]): Promise<number> {
  const result = await con.stream(sql);
  const total = outs[0]?.length ?? 0;
  let pos = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const n = chunk.rowCount;
    if (pos + n > total) throw new Error(`streamColumns: more rows than expected (${total})`);
    for (let j = 0; j < outs.length; j++) {
      const vec = chunk.getColumnVector(j);
      const out = outs[j];
      // Fast path: DuckDB's numeric vectors wrap a typed array over the chunk's memory (a private field of
      // @duckdb/node-api, pinned); copy it in one go when every value is valid and the types match.
      const items = (vec as unknown as { items?: unknown }).items;
      if (items && items.constructor === out.constructor && allValid(vec, n)) {
        out.set((items as Float64Array).subarray(0, n), pos);
        continue;
      }
      for (let i = 0; i < n; i++) {
        const v = vec.getItem(i);
        out[pos + i] = v === null ? NaN : (v as number);
      }
    }
    pos += n;
  }
  return pos;
}

/**
 * Visits a query's numeric result chunk by chunk (at most one DuckDB chunk, 2,048 rows, in JS memory at a time):
 * `kinds` gives each column's typed array ("f64" DOUBLE, "i32" INTEGER, "u32" UINTEGER; NULL becomes NaN or 0),
 * `visit` gets the columns of one chunk and its row count. Returns the number of rows.
 */
export async function forEachChunk(
  con: DuckDBConnection,
  sql: string,
  kinds: ("f64" | "i32" | "u32")[],
  visit: (cols: (Float64Array | Int32Array | Uint32Array)[], n: number) => void,
): Promise<number> {
  const result = await con.stream(sql);
  const make = (k: "f64" | "i32" | "u32", n: number) => (k === "f64" ? new Float64Array(n) : k === "i32" ? new Int32Array(n) : new Uint32Array(n));
  let cols = kinds.map((k) => make(k, 2048));
  let rows = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const n = chunk.rowCount;
    if (n > cols[0].length) cols = kinds.map((k) => make(k, n));
    for (let j = 0; j < kinds.length; j++) {
      const vec = chunk.getColumnVector(j);
      const out = cols[j];
      const items = (vec as unknown as { items?: unknown }).items;
      if (items && items.constructor === out.constructor && allValid(vec, n)) {
        out.set((items as Float64Array).subarray(0, n));
        continue;
      }
      for (let i = 0; i < n; i++) {
        const v = vec.getItem(i);
        out[i] = v === null ? NaN : (v as number);
      }
    }
    visit(cols, n);
    rows += n;
  }
  return rows;
}

function allValid(vec: { getItem(i: number): unknown }, n: number): boolean {
  const validity = (vec as unknown as { validity?: { itemValid(i: number): boolean; data?: unknown } }).validity;
  if (!validity) return false;
  // A validity mask without data means "all valid" in DuckDB's C API.
  if ((validity as { data?: unknown }).data === null || (validity as { data?: unknown }).data === undefined) return true;
  for (let i = 0; i < n; i++) if (!validity.itemValid(i)) return false;
  return true;
}
