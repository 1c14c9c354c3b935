// File lines of CSV records. DuckDB numbers records (the header is record 1) and skips blank lines, so a record's
// number and its line in the file differ after a blank line or a quoted newline; error messages must name the
// line an editor shows. Also the diagnosis of a file DuckDB's parser gave up on without saying where.
import { closeSync, openSync, readSync } from "node:fs";
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

/** Visits every non-blank record of a CSV (or TSV: delimiterOf) file (quotes respected) until `visit` returns true. */
function scanRecords(file: string, visit: (r: RecordInfo) => boolean): void {
  const sep = delimiterOf(file) === "\t" ? TAB : COMMA;
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    let line = 1,
      record = 0,
      start = 1,
      fields = 1,
      content = false,
      quoted = false,
      prev = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      for (let i = 0; i < n; i++) {
        const b = buf[i];
        if (b === QUOTE) quoted = !quoted;
        if (b === NL) {
          if (!quoted) {
            if (content && visit({ record: ++record, line: start, fields, terminator: prev === CR ? "crlf" : "lf" })) return;
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
    }
    if (content) visit({ record: ++record, line: start, fields, terminator: "eof" });
  } finally {
    closeSync(fd);
  }
}

/** Number of newline bytes in a file (memchr-speed). */
function countNewlines(file: string): { newlines: number; endsWithNewline: boolean } {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    let newlines = 0,
      last = -1;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      for (let i = buf.indexOf(NL, 0); i >= 0 && i < n; i = buf.indexOf(NL, i + 1)) newlines++;
      last = buf[n - 1];
    }
    return { newlines, endsWithNewline: last === NL };
  } finally {
    closeSync(fd);
  }
}

/**
 * The file line of each record 1 … records (index = record number), or undefined when they coincide (no blank
 * line, no quoted newline: checked by counting newlines, cheap). `records` counts the header.
 */
export function csvRecordLines(file: string, records: number): Int32Array | undefined {
  const { newlines, endsWithNewline } = countNewlines(file);
  if (newlines + (endsWithNewline ? 0 : 1) === records) return undefined;
  const lines = new Int32Array(records + 1);
  for (let r = 0; r <= records; r++) lines[r] = r;
  scanRecords(file, (r) => {
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
export function diagnoseCsv(file: string): { line: number; problem: string } | undefined {
  let header: RecordInfo | undefined;
  let found: { line: number; problem: string } | undefined;
  const name = (t: RecordInfo["terminator"]) => (t === "crlf" ? "CRLF (\\r\\n)" : "LF (\\n)");
  scanRecords(file, (r) => {
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
