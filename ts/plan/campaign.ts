// The files of a campaign (issue 43): the runs file (a runs table any verb reads: configuration columns, run index,
// response), append-only; and its journal (`<runs>.journal`, JSON lines) recording the campaign's identity, each
// planned batch, each run started, each failure. Every append is one write of whole lines followed by fsync, so a
// kill -9 leaves at most a partial last line, which the next open cuts off. A run is recorded in the runs file only
// once measured: after a crash it is run again (nothing lost), and a recorded run is never run again (nothing
// repeated); an unfinished batch is continued from the journal, so an interrupted campaign plans exactly as an
// uninterrupted one.
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync } from "node:fs";
import { VarmapError } from "../errors.js";
import { writeAll } from "../data/io.js";
import { csvQuote } from "../data/atomic.js";
import { readFileRows } from "../data/duckdb.js";
import { configKey, type ConfigSpace } from "./space.js";

export interface RunsColumns {
  run: string;
  response: string;
}

/** Parses CSV text (RFC 4180 quotes) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') (cell += '"'), i++;
        else quoted = false;
      } else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(cell), (cell = "");
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length) row.push(cell), rows.push(row);
  return rows.filter((r) => !(r.length === 1 && r[0] === ""));
}

/** Cuts a partial last line (a write interrupted by a crash) off a file that should end with a newline. */
export function repairTail(path: string): number {
  if (!existsSync(path)) return 0;
  const fd = openSync(path, "r+");
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const chunk = Buffer.alloc(Math.min(size, 1 << 16));
    let end = size;
    // Scan back to the last newline.
    for (;;) {
      const start = Math.max(0, end - chunk.length);
      const len = end - start;
      readSync(fd, chunk, 0, len, start);
      const k = chunk.subarray(0, len).lastIndexOf(10);
      if (k >= 0) {
        const keep = start + k + 1;
        if (keep !== size) {
          ftruncateSync(fd, keep);
          fsyncSync(fd);
        }
        return size - keep;
      }
      if (start === 0) {
        ftruncateSync(fd, 0);
        fsyncSync(fd);
        return size;
      }
      end = start;
    }
  } finally {
    closeSync(fd);
  }
}

/** Appends whole lines and fsyncs them. */
export function appendLines(path: string, text: string): void {
  const fd = openSync(path, "a");
  try {
    writeAll(fd, text, path);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The runs measured so far, per configuration of the space, in recorded order (by the run column when the file
 * has one, then file row). Columns or configurations outside the space are E_PLAN_SPACE_MISMATCH.
 */
export async function readRunsFile(space: ConfigSpace, path: string, cols: RunsColumns, ignorePartialTail = false): Promise<number[][]> {
  let header: string[];
  let body: string[][];
  if (/\.csv$/i.test(path)) {
    let text = readFileSync(path, "utf8");
    // A campaign's file may end in a line cut short by a crash: it was never a measured run.
    if (ignorePartialTail && !text.endsWith("\n")) text = text.slice(0, text.lastIndexOf("\n") + 1);
    const rows = parseCsv(text);
    header = rows[0] ?? [];
    body = rows.slice(1);
  } else {
    const rows = await readFileRows(path, "the runs table");
    header = rows.length ? Object.keys(rows[0]) : [];
    body = rows.map((r) => header.map((h) => (r[h] === null || r[h] === undefined ? "" : String(r[h]))));
  }
  const need = [...space.factors, ...space.inputs, cols.response];
  const missing = need.find((c) => !header.includes(c));
  if (header.length && missing)
    throw new VarmapError("E_PLAN_SPACE_MISMATCH", `the runs file has no column '${missing}' of the space (${need.join(", ")})`, {
      location: { file: path, column: missing },
      remedy: "give the runs file of this space (its configuration columns and the response), or name the response with --response",
    });
  const fi = space.factors.map((f) => header.indexOf(f));
  const xi = space.inputs.map((x) => header.indexOf(x));
  const ri = header.indexOf(cols.response);
  const ni = header.indexOf(cols.run);
  const found: { c: number; run: number; row: number; y: number }[] = [];
  body.forEach((cells, r) => {
    const fv = fi.map((i) => cells[i] ?? "");
    const x = xi.map((i) => Number(cells[i]));
    const c = space.index.get(configKey(fv, x));
    if (c === undefined)
      throw new VarmapError(
        "E_PLAN_SPACE_MISMATCH",
        `row ${r + 2} of the runs file is the configuration ${[...space.factors.map((f, k) => `${f}=${fv[k]}`), ...space.inputs.map((n, j) => `${n}=${cells[xi[j]]}`)].join(", ")}, which is not in the space`,
        { location: { file: path, row: r + 2 }, remedy: "plan over the space these runs were measured on (--grid or --at), or start a new runs file" },
      );
    const y = Number(cells[ri]);
    if (cells[ri] === undefined || cells[ri].trim() === "" || !Number.isFinite(y))
      throw new VarmapError("E_NONFINITE", `response '${cols.response}' is '${cells[ri] ?? ""}', not a finite number`, {
        location: { file: path, row: r + 2, column: cols.response },
        remedy: "remove the row or give its measured value",
      });
    found.push({ c, run: ni >= 0 ? Number(cells[ni]) : r, row: r, y });
  });
  found.sort((a, b) => a.c - b.c || (Number.isFinite(a.run) && Number.isFinite(b.run) ? a.run - b.run : 0) || a.row - b.row);
  const out: number[][] = Array.from({ length: space.count }, () => []);
  for (const f of found) out[f.c].push(f.y);
  return out;
}

/** The header line of a campaign's runs file. */
export function runsHeader(space: ConfigSpace, cols: RunsColumns): string {
  return [...space.factors, ...space.inputs, cols.run, cols.response].map(csvQuote).join(",") + "\n";
}

/** One row of a campaign's runs file. */
export function runsLine(space: ConfigSpace, c: number, run: number, value: number): string {
  const d = space.inputs.length;
  return (
    [
      ...space.factors.map((_, f) => csvQuote(space.factorValues[f][c])),
      ...Array.from(space.X.subarray(c * d, c * d + d), (x) => String(x)),
      String(run),
      String(value),
    ].join(",") + "\n"
  );
}

export type JournalEntry =
  | { type: "campaign"; space: string; seed: string }
  | { type: "batch"; step: number; rows: { key: string; target: number }[] }
  | { type: "start"; key: string; run: number; attempt: number }
  | { type: "fail"; key: string; run: number; attempt: number; error: string }
  | { type: "failed-config"; key: string }
  | { type: "batch-done"; step: number };

/** A digest of the space (columns and configurations), the campaign's identity in its journal. */
export function spaceDigest(space: ConfigSpace): string {
  let h = 2166136261;
  const text = JSON.stringify([space.factors, space.inputs, [...space.index.keys()]]);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return `${space.count}:${h.toString(16)}`;
}

export function readJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) return [];
  repairTail(path);
  const out: JournalEntry[] = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        out.push(JSON.parse(line) as JournalEntry);
      } catch {
        throw new VarmapError("E_PLAN_JOURNAL", `line ${i + 1} of the journal is not JSON`, {
          location: { file: path, row: i + 1 },
          remedy: "remove the journal to start over",
        });
      }
    });
  return out;
}

export function appendJournal(path: string, entries: JournalEntry[]): void {
  appendLines(path, entries.map((e) => JSON.stringify(e) + "\n").join(""));
}
