// File lines of CSV records. DuckDB numbers records (the header is record 1) and skips blank lines, so a record's
// number and its line in the file differ after a blank line or a quoted newline; error messages must name the
// line an editor shows. Also the diagnosis of a file DuckDB's parser gave up on without saying where.
import { closeSync, createReadStream, openSync, readSync } from "node:fs";
import { constants, createGunzip, gunzipSync } from "node:zlib";
import { delimiterOf } from "./duckdb.js";

const NL = 10,
  CR = 13,
  QUOTE = 34,
  COMMA = 44,
  TAB = 9;

interface RecordInfo {
  /** 1-based record number (blank lines not counted), the header being 1. */
  record: number;
  /** 1-based line of the file where the record starts. */
  line: number;
  fields: number;
  terminator: "crlf" | "lf" | "eof";
}

/** How a file is compressed, as DuckDB tells it (by its extension): gzip (.gz), zstd (.zst), or not at all. */
function compressionOf(file: string): "gzip" | "zstd" | undefined {
  return /\.gz$/i.test(file) ? "gzip" : /\.zst$/i.test(file) ? "zstd" : undefined;
}

/**
 * Feeds the file's (decompressed) bytes to `take` in chunks until it returns true. False when the bytes cannot be
 * had here (zstd: Node 20's zlib has none), so callers fall back to DuckDB's record numbers.
 */
async function forEachTextChunk(file: string, take: (buf: Buffer, n: number) => boolean | undefined): Promise<boolean> {
  const compression = compressionOf(file);
  if (compression === "zstd") return false;
  if (compression === "gzip") {
    // A file DuckDB has just read whole; should it fail here all the same, messages keep DuckDB's record numbers.
    const source = createReadStream(file, { highWaterMark: 1 << 20 });
    const stream = createGunzip();
    source.on("error", (e) => stream.destroy(e));
    source.pipe(stream);
    try {
      for await (const chunk of stream) if (take(chunk as Buffer, (chunk as Buffer).length)) break;
      return true;
    } catch {
      return false;
    } finally {
      source.destroy();
      stream.destroy();
    }
  }
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0 || take(buf, n)) break;
    }
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The file's first `bytes` bytes (of a gzip file: the text they decompress to, as far as they go), or undefined for
 * a compression Node cannot read.
 */
export function headOfFile(file: string, bytes = 1 << 16): Buffer | undefined {
  const compression = compressionOf(file);
  if (compression === "zstd") return undefined;
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, buf.length, 0);
    if (compression !== "gzip") return buf.subarray(0, n);
    return gunzipSync(buf.subarray(0, n), { finishFlush: constants.Z_SYNC_FLUSH });
  } finally {
    closeSync(fd);
  }
}

/**
 * Visits every non-blank record of a CSV (or TSV: delimiterOf) file (quotes respected) until `visit` returns true.
 * False when the file's bytes cannot be read here (forEachTextChunk).
 */
async function scanRecords(file: string, visit: (r: RecordInfo) => boolean): Promise<boolean> {
  const sep = delimiterOf(file) === "\t" ? TAB : COMMA;
  let line = 1,
    record = 0,
    start = 1,
    fields = 1,
    content = false,
    quoted = false,
    prev = 0,
    done = false;
  const readable = await forEachTextChunk(file, (buf, n) => {
    for (let i = 0; i < n; i++) {
      const b = buf[i];
      if (b === QUOTE) quoted = !quoted;
      if (b === NL) {
        if (!quoted) {
          if (content && visit({ record: ++record, line: start, fields, terminator: prev === CR ? "crlf" : "lf" })) return (done = true);
          (content = false), (fields = 1), (start = line + 1);
        }
        line++;
      } else if (b !== CR) {
        if (!content) start = line;
        content = true;
        if (b === sep && !quoted) fields++;
      }
      prev = b;
    }
    return false;
  });
  if (readable && !done && content) visit({ record: ++record, line: start, fields, terminator: "eof" });
  return readable;
}

export interface NewlineCount {
  newlines: number;
  endsWithNewline: boolean;
}

/**
 * Number of newline bytes in a file (memchr-speed); undefined when its bytes cannot be read here (or the file went
 * away: the caller's own read reports that). Never rejects, so it can run beside DuckDB's scan of the same file: a
 * gzip file's second decompression then costs no wall time (DuckDB inflates it on one thread).
 */
export async function countNewlines(file: string): Promise<NewlineCount | undefined> {
  try {
    return await newlineCount(file);
  } catch {
    return undefined;
  }
}

async function newlineCount(file: string): Promise<NewlineCount | undefined> {
  let newlines = 0,
    last = -1;
  const readable = await forEachTextChunk(file, (buf, n) => {
    for (let i = buf.indexOf(NL, 0); i >= 0 && i < n; i = buf.indexOf(NL, i + 1)) newlines++;
    if (n > 0) last = buf[n - 1];
    return false;
  });
  return readable ? { newlines, endsWithNewline: last === NL } : undefined;
}

/**
 * The file line of each record 1 … records (index = record number), or undefined when they coincide (no blank
 * line, no quoted newline: checked by counting newlines, cheap) or cannot be told (a zstd file: then messages give
 * record numbers). `records` counts the header; `counted`: countNewlines(file), when it was started earlier.
 */
export async function csvRecordLines(file: string, records: number, counted?: Promise<NewlineCount | undefined>): Promise<Int32Array | undefined> {
  const count = await (counted ?? countNewlines(file));
  if (!count || count.newlines + (count.endsWithNewline ? 0 : 1) === records) return undefined;
  const lines = new Int32Array(records + 1);
  for (let r = 0; r <= records; r++) lines[r] = r;
  await scanRecords(file, (r) => {
    if (r.record > records) return true;
    lines[r.record] = r.line;
    return false;
  });
  return lines;
}

/**
 * Where a CSV file stops being regular, for a parser failure that named no line: the first record whose line
 * ending differs from the header's (a file edited on two systems), or whose number of fields differs.
 */
export async function diagnoseCsv(file: string): Promise<{ line: number; problem: string } | undefined> {
  let header: RecordInfo | undefined;
  let found: { line: number; problem: string } | undefined;
  const name = (t: RecordInfo["terminator"]) => (t === "crlf" ? "CRLF (\\r\\n)" : "LF (\\n)");
  await scanRecords(file, (r) => {
    if (!header) {
      header = r;
      return false;
    }
    if (r.fields !== header.fields) found = { line: r.line, problem: `the row has ${r.fields} fields, the header ${header.fields}` };
    else if (r.terminator !== "eof" && header.terminator !== "eof" && r.terminator !== header.terminator)
      found = { line: r.line, problem: `the row ends with ${name(r.terminator)} but the header with ${name(header.terminator)} (mixed line endings)` };
    return found !== undefined;
  });
  return found;
}
