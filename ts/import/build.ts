// Puts the runs of many files of one tool together into one table: a setting becomes a column when its value
// differs between runs (numbers → an input, text → a factor), tags and the tool's host/date fields become factors,
// each configuration's runs are numbered in the order they ran (the tool's timestamps, else the order of the files).
import { readFileSync } from "node:fs";
import { VarmapError } from "../errors.js";
import type { Cell, ImportColumn, ImportedRuns, ToolParser, ToolRun } from "./types.js";

export interface FileGroup {
  files: string[];
  /** key=value tags of this group's files (factors). */
  tags: Record<string, string>;
}

export interface BuildOptions {
  /** The date the tool writes (day, UTC) becomes a factor when the runs span several days (default true). */
  date?: boolean;
  /** Every parser, to say which tool wrote a file given to the wrong one. */
  others?: ToolParser[];
  /** The file's text (tests); default: read from disk. */
  read?: (file: string) => string;
}

interface Entry {
  run: ToolRun;
  file: string;
  tags: Record<string, string>;
  order: number;
}

const RESERVED = new Set(["run", "file", "host", "date"]);

function genericNumber(v: string | number): number | undefined {
  if (typeof v === "number") return v;
  return v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : undefined;
}

/** Parses every file of every group with `parser` and builds the table of runs. */
export function buildRuns(parser: ToolParser, groups: FileGroup[], opts: BuildOptions = {}): ImportedRuns {
  const read = opts.read ?? ((f: string) => readText(f));
  const entries: Entry[] = [];
  const notes: string[] = [];
  let files = 0;
  const tagKeys: string[] = [];
  for (const g of groups) for (const k of Object.keys(g.tags)) if (!tagKeys.includes(k)) tagKeys.push(k);
  for (const g of groups) {
    for (const file of g.files) {
      files++;
      const text = read(file);
      if (!parser.sniff(text)) {
        const other = opts.others?.find((p) => p !== parser && p.sniff(text));
        if (other)
          throw new VarmapError("E_IMPORT_MIXED", `this is ${other.name} output, not ${parser.name}: one call imports the files of one tool`, {
            location: { file, path: "$" },
            remedy: `import it with a separate call: varmap import ${other.name} FILES... --out ANOTHER.parquet`,
          });
      }
      for (const run of parser.parse(text, file)) entries.push({ run, file, tags: g.tags, order: entries.length });
    }
  }
  if (!entries.length) throw new VarmapError("E_IMPORT_NO_RUNS", "no runs in the files", { remedy: `give ${parser.name} output (${parser.produce})` });

  // Runs in the order they ran when every run carries the tool's timestamp; else in the order of the files.
  if (entries.every((e) => e.run.time !== undefined)) entries.sort((a, b) => a.run.time! - b.run.time! || a.order - b.order);

  const columns: ImportColumn[] = [];
  const factors: string[] = [];
  const inputs: string[] = [];
  const n = entries.length;
  const add = (c: ImportColumn) => {
    if (columns.some((x) => x.name === c.name))
      throw new VarmapError("E_USAGE", `two columns would be named '${c.name}' (a tag, a setting or a metric)`, { remedy: `rename the tag '${c.name}'` });
    columns.push(c);
    if (c.role === "factor") factors.push(c.name);
    if (c.role === "input") inputs.push(c.name);
  };

  for (const k of tagKeys) add({ name: k, role: "factor", numeric: false, values: entries.map((e) => e.tags[k] ?? "") });
  if (entries.some((e) => e.run.host !== undefined)) add({ name: "host", role: "factor", numeric: false, values: entries.map((e) => e.run.host ?? "") });
  if (opts.date !== false && entries.every((e) => e.run.time !== undefined)) {
    const days = entries.map((e) => new Date(e.run.time!).toISOString().slice(0, 10));
    const distinct = new Set(days);
    if (distinct.size > 1) {
      add({ name: "date", role: "factor", numeric: false, values: days });
      notes.push(`the runs span ${distinct.size} days: 'date' is a factor (--no-date pools them)`);
    }
  }

  // Settings: in the order first seen; kept when they vary.
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const e of entries) for (const k of Object.keys(e.run.settings)) if (!seen.has(k)) seen.add(k), keys.push(k);
  const dropped: string[] = [];
  for (const key of keys) {
    const raw = entries.map((e) => e.run.settings[key] ?? parser.defaults?.[key]);
    const text = raw.map((v) => (v === undefined ? "" : String(v)));
    if (new Set(text).size < 2) {
      dropped.push(`${key}=${text[0]}`);
      continue;
    }
    const name = RESERVED.has(key) || tagKeys.includes(key) ? `${parser.name}_${key}` : key;
    const nums = raw.map((v) => (v === undefined ? undefined : parser.numeric ? parser.numeric(key, v) : genericNumber(v)));
    const absent = raw.filter((v) => v === undefined).length;
    const numeric = nums.every((x, i) => x !== undefined || raw[i] === undefined);
    if (!parser.vocabulary.factors.test(name) && numeric) {
      // A number some runs lack (an argument of one benchmark family, not of another): 0 there; within a map
      // (one family) it is then constant and left out.
      if (absent) notes.push(`'${name}' is absent from ${absent} run(s): 0 there`);
      add({ name, role: "input", numeric: true, values: nums.map((x) => x ?? 0) });
    } else add({ name, role: "factor", numeric: false, values: text.map((t, i) => (raw[i] === undefined ? "(none)" : t)) });
  }
  if (dropped.length) notes.push(`settings equal in every run (not columns): ${dropped.slice(0, 12).join(", ")}${dropped.length > 12 ? ", ..." : ""}`);

  // Run index: the position of each run among its configuration's runs.
  const keyCols = columns.filter((c) => c.role === "factor" || c.role === "input");
  const counts = new Map<string, number>();
  const runIdx = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const key = keyCols.map((c) => String(c.values[i])).join("\u0000");
    const k = counts.get(key) ?? 0;
    runIdx[i] = k;
    counts.set(key, k + 1);
  }
  add({ name: "run", role: "run", numeric: true, values: runIdx });

  const metricKeys: string[] = [];
  const mSeen = new Set<string>();
  for (const e of entries) for (const k of Object.keys(e.run.metrics)) if (!mSeen.has(k)) mSeen.add(k), metricKeys.push(k);
  for (const k of metricKeys) add({ name: k, role: "response", numeric: true, values: entries.map((e) => e.run.metrics[k] ?? null) });
  add({ name: "file", role: "meta", numeric: false, values: entries.map((e) => e.file) });
  const metaKeys: string[] = [];
  for (const e of entries) for (const k of Object.keys(e.run.meta ?? {})) if (!metaKeys.includes(k)) metaKeys.push(k);
  for (const k of metaKeys) {
    if (columns.some((c) => c.name === k)) continue;
    const vals: Cell[] = entries.map((e) => e.run.meta?.[k] ?? null);
    add({ name: k, role: "meta", numeric: vals.every((v) => v === null || typeof v === "number"), values: vals });
  }
  return {
    tool: parser.name,
    columns,
    rows: n,
    roles: { factors, inputs, response: parser.vocabulary.response, run: "run" },
    files,
    configurations: counts.size,
    notes,
  };
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new VarmapError("E_FILE_NOT_FOUND", code === "EISDIR" ? "a directory, not a file" : "cannot read input file", {
      location: { file },
      remedy: "check the path",
    });
  }
}
