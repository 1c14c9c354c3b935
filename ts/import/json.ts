// JSON reading for the importers: a malformed file is a VarmapError naming the file, the line and the JSON path
// where reading stopped (a truncated file: the innermost object left open). A file may hold several documents one
// after the other (a shell loop appending `fio --output-format=json` runs) and warning lines before the first one.
import { type ErrorCode, VarmapError } from "../errors.js";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** "$.jobs[2].read" from path segments. */
export function jsonPath(segments: (string | number)[]): string {
  let s = "$";
  for (const p of segments) s += typeof p === "number" ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`;
  return s;
}

/** The documents of a file (one or more JSON values; text lines before the first `{`/`[` are skipped). */
export function parseJsonDocuments(text: string, file: string, produce: string): Json[] {
  if (!text.trim()) throw new VarmapError("E_EMPTY_FILE", "the file is empty", { location: { file }, remedy: `write it with ${produce}` });
  try {
    return [JSON.parse(text) as Json];
  } catch {
    // Several documents, a warning before the JSON, or a malformed file: split and parse each to say which.
  }
  const docs: Json[] = [];
  for (const [start, end] of documentSpans(text, file, produce)) {
    const part = text.slice(start, end);
    try {
      docs.push(JSON.parse(part) as Json);
    } catch (e) {
      const pos = start + positionOf(e, part.length);
      throw jsonError(text, file, pos, String((e as Error).message), produce);
    }
  }
  return docs;
}

function positionOf(e: unknown, fallback: number): number {
  const m = /position (\d+)/.exec(String((e as Error)?.message));
  return m ? Number(m[1]) : fallback;
}

/** [start, end) of each top-level value; a value still open at the end of the file is a truncated file. */
function documentSpans(text: string, file: string, produce: string): [number, number][] {
  const spans: [number, number][] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    // Skip whitespace and whole lines that are not JSON (fio's "note: ..." warnings).
    const ch = text[i];
    if (ch === " " || ch === "\n" || ch === "\r" || ch === "\t") {
      i++;
      continue;
    }
    if (ch !== "{" && ch !== "[") {
      const eol = text.indexOf("\n", i);
      if (spans.length) throw jsonError(text, file, i, `unexpected text after a JSON document`, produce);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 92) i++;
        else if (c === 34) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      }
    }
    if (depth > 0) throw jsonError(text, file, n, "the JSON ends before its closing bracket (a truncated file?)", produce);
    spans.push([start, i]);
  }
  if (!spans.length) throw new VarmapError("E_IMPORT_JSON", "no JSON document in the file", { location: { file }, remedy: `write it with ${produce}` });
  return spans;
}

function jsonError(text: string, file: string, pos: number, what: string, produce: string): VarmapError {
  const line = lineAt(text, pos);
  return new VarmapError("E_IMPORT_JSON", `malformed JSON at line ${line}: ${what.replace(/\s+/g, " ")}`, {
    location: { file, row: line, path: pathAt(text, pos) },
    remedy: `the file was cut short or edited: write it again with ${produce}`,
  });
}

function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The JSON path of the value being read at `pos` (the innermost container open there, and its key or index). */
export function pathAt(text: string, pos: number): string {
  type Frame = { obj: boolean; key: string | number | undefined; index: number };
  const stack: Frame[] = [];
  let i = 0;
  let lastString: string | undefined;
  const end = Math.min(pos, text.length);
  while (i < end) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      lastString = text.slice(i + 1, Math.min(j, end));
      i = j + 1;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === "{" || c === "[") stack.push({ obj: c === "{", key: undefined, index: 0 });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ":" && top?.obj) top.key = lastString;
    else if (c === "," && top) {
      if (top.obj) top.key = undefined;
      else top.index++;
    }
    i++;
  }
  const segs: (string | number)[] = [];
  for (let k = 0; k < stack.length; k++) {
    const f = stack[k];
    const inner = k + 1 < stack.length;
    if (f.obj) {
      if (f.key !== undefined) segs.push(f.key);
      else if (inner) break;
    } else segs.push(f.index);
  }
  // Segments must name containers in order: a frame's key is the child that the next frame opens.
  return jsonPath(segs);
}

/** Typed access for the parsers: each failure names the file and the JSON path. */
export class JsonReader {
  constructor(
    readonly file: string,
    readonly tool: string,
    readonly produce: string,
  ) {}

  fail(path: (string | number)[], what: string, remedy?: string, code: ErrorCode = "E_IMPORT_FORMAT"): never {
    throw new VarmapError(code, what, {
      location: { file: this.file, path: jsonPath(path) },
      remedy: remedy ?? `give ${this.tool} output written with ${this.produce}`,
    });
  }

  object(v: Json | undefined, path: (string | number)[], what = "an object"): JsonObject {
    if (v === null || typeof v !== "object" || Array.isArray(v)) this.fail(path, `expected ${what}, found ${describe(v)}`);
    return v;
  }

  array(v: Json | undefined, path: (string | number)[], what = "a list"): Json[] {
    if (!Array.isArray(v)) this.fail(path, `expected ${what}, found ${describe(v)}`);
    return v;
  }

  number(v: Json | undefined, path: (string | number)[], what = "a number"): number {
    if (typeof v === "number") return v;
    if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
    return this.fail(path, `expected ${what}, found ${describe(v)}`);
  }
}

export function describe(v: Json | undefined): string {
  if (v === undefined) return "nothing (the field is missing)";
  if (v === null) return "null";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === "object") return "an object";
  return `${typeof v} ${JSON.stringify(v).slice(0, 40)}`;
}

export function isObject(v: Json | undefined): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
