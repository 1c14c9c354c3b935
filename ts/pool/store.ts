// The result store of one output directory.
//   manifest.json        what job this directory holds (identity: data fingerprint, options, shard); written first
//   journal.jsonl        finished tasks, one JSON line each {"id","result"}, appended in completion order
//   results.jsonl        the same records in task order, written when the job completes; the journal is then removed
// Appends are single write(2) calls of whole lines on an O_APPEND descriptor. A kill -9 can at worst leave a
// truncated last line, which the next run drops (and cuts off before appending). A rerun with the same identity
// skips every task found in either file; so a killed run's rerun finishes the job, and because results.jsonl is
// written in task order from the same records, its outputs are byte-identical to an uninterrupted run's.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { writeAll } from "../data/io.js";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import { processAlive, writeFileAtomic } from "../data/atomic.js";
import { DirLock } from "./lock.js";

export interface TaskRecord<R = unknown> {
  id: string;
  result: R;
}

export const MANIFEST = "manifest.json";
export const JOURNAL = "journal.jsonl";
export const RESULTS = "results.jsonl";
export const RUN_LOG = "run-log.json";

// Records as lines: {"id":…,"result":…,"sum":"xxxxxxxx"}. The sum (FNV-1a of the line without it) lets a reader
// drop a line that a crash, a disk fault or an edit damaged, even when what is left is valid JSON: the task then
// simply runs again. Non-finite numbers (an ARE of 0/0, an infinite bound) are kept as "\u0000NaN" etc., since
// JSON would turn them into null, which reads back as a failure.
const SUM_TAIL = 18; // ',"sum":"' + 8 hex digits + '"}'
const NONFINITE_MARK = "\u0000";

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

function keepNonFinite(_key: string, v: unknown): unknown {
  return typeof v === "number" && !Number.isFinite(v) ? NONFINITE_MARK + String(v) : v;
}

function restoreNonFinite(_key: string, v: unknown): unknown {
  return typeof v === "string" && v.charCodeAt(0) === 0 ? Number(v.slice(1)) : v;
}

/** One record as a journal or results.jsonl line (without the newline). */
export function recordLine(rec: TaskRecord): string {
  const body = JSON.stringify({ id: rec.id, result: rec.result }, keepNonFinite);
  return `${body.slice(0, -1)},"sum":"${fnv1a(body)}"}`;
}

/** The record of one line, or undefined when the line is damaged (its sum does not match, or no sum). */
export function parseRecordLine(line: string): TaskRecord | undefined {
  if (line.length <= SUM_TAIL || !line.endsWith('"}') || line.slice(-SUM_TAIL, -10) !== ',"sum":"') return undefined;
  const body = line.slice(0, -SUM_TAIL) + "}";
  if (fnv1a(body) !== line.slice(-10, -2)) return undefined;
  try {
    const rec = JSON.parse(body, restoreNonFinite) as TaskRecord;
    return rec && typeof rec.id === "string" && "result" in rec ? rec : undefined;
  } catch {
    return undefined;
  }
}

/** Parses complete JSONL lines; a truncated, corrupt or edited line is skipped (its task runs again). */
export function readRecords(path: string): TaskRecord[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, "utf8");
  const out: TaskRecord[] = [];
  const lines = text.split("\n");
  lines.pop(); // the part after the last newline: empty, or an unfinished line
  for (const line of lines) {
    const rec = line ? parseRecordLine(line) : undefined;
    if (rec) out.push(rec);
  }
  return out;
}

/** The manifest of an output directory; undefined when there is none, null when it exists but is damaged. */
export function readManifest(dir: string): Record<string, unknown> | undefined | null {
  const p = join(dir, MANIFEST);
  if (!existsSync(p)) return undefined;
  try {
    const m = JSON.parse(readFileSync(p, "utf8"));
    return m && typeof m === "object" && !Array.isArray(m) ? m : null;
  } catch {
    return null; // written atomically, so unreadable means damaged by hand or by another program
  }
}

/** Temporary files of atomic writes (ts/data/atomic.ts, ts/data/write.ts) whose writer is no longer running. */
function removeStaleTemporaries(dir: string): void {
  for (const name of readdirSync(dir)) {
    const m = /^\..+\.(\d+)\.tmp$/.exec(name) ?? /^\..+\.tmp-(\d+)-[a-z0-9]+(\.[a-z]+)?$/.exec(name);
    if (m && !processAlive(Number(m[1]))) rmSync(join(dir, name), { force: true });
  }
}

export class ResultStore {
  private fd: number | undefined;
  /** The directory's lock (ts/pool/lock.ts), held from construction to release(). */
  private readonly lock: DirLock;
  readonly done = new Map<string, unknown>();
  /** This run created the directory (so an abandoned run removes it again when empty). */
  private readonly createdDir: boolean;
  /** This run wrote the manifest (a fresh job, not a resume). */
  private wroteManifest = false;

  /**
   * Opens (creating) the store in dir for a job whose identity is `manifest`. With resume, results of a previous
   * run of the same identity are kept; a different job in the directory is an error unless resume is off, in
   * which case the directory's store files are cleared first.
   */
  constructor(
    readonly dir: string,
    readonly manifest: Record<string, unknown>,
    opts: { resume: boolean; outputs: readonly string[] },
  ) {
    if (existsSync(dir) && !statSync(dir).isDirectory())
      throw new VarmapError("E_OUT", `--out ${dir} exists and is not a directory`, { remedy: "give a directory path for --out" });
    this.createdDir = !existsSync(dir);
    mkdirSync(dir, { recursive: true });
    this.lock = DirLock.acquire(dir);
    try {
      this.load(manifest, opts);
    } catch (e) {
      this.lock.release();
      throw e;
    }
  }

  private load(manifest: Record<string, unknown>, opts: { resume: boolean; outputs: readonly string[] }): void {
    const dir = this.dir;
    removeStaleTemporaries(dir);
    const text = stableJson(manifest);
    const old = readManifest(dir);
    if (old === null && opts.resume)
      throw new VarmapError("E_OUT_DAMAGED", `${join(dir, MANIFEST)} is damaged, so the results in ${dir} cannot be trusted to belong to this job`, {
        remedy: "pass --no-resume to discard them and start over, or use a new --out directory",
      });
    const same = old !== undefined && old !== null && stableJson(old) === text;
    if (old !== undefined && !same && opts.resume)
      throw new VarmapError("E_OUT_MISMATCH", `${dir} holds the results of a different job (other data, options or shard)`, {
        remedy: "use a new --out directory, or pass --no-resume to discard its results and start over",
      });
    if (!same || !opts.resume) {
      for (const f of [JOURNAL, RESULTS, MANIFEST, RUN_LOG, ...opts.outputs]) rmSync(join(dir, f), { force: true });
      writeFileAtomic(join(dir, MANIFEST), text);
      this.wroteManifest = true;
    }
    for (const rec of [...readRecords(join(dir, RESULTS)), ...readRecords(join(dir, JOURNAL))]) this.done.set(rec.id, rec.result);
  }

  private open(): number {
    if (this.fd === undefined) {
      const path = join(this.dir, JOURNAL);
      // Cut off a line a killed writer left unfinished, so the next append starts on a line of its own.
      if (existsSync(path)) {
        const text = readFileSync(path);
        const end = text.lastIndexOf(10) + 1;
        if (end < text.length) truncateSync(path, end);
      }
      this.fd = openSync(path, "a");
    }
    return this.fd;
  }

  /** Records finished tasks (one write for the whole batch; each line is complete in itself). */
  append(records: readonly TaskRecord[]): void {
    if (!records.length) return;
    const text = records.map((r) => recordLine(r) + "\n").join("");
    writeAll(this.open(), text, join(this.dir, JOURNAL));
    this.lock.refresh();
    for (const r of records) this.done.set(r.id, r.result);
  }

  /** Writes results.jsonl in the given task order and removes the journal. */
  finalize(order: readonly string[]): void {
    this.close();
    const lines: string[] = [];
    for (const id of order) {
      if (!this.done.has(id)) throw new Error(`internal: task ${id} has no result at finalize`);
      lines.push(recordLine({ id, result: this.done.get(id) }));
    }
    writeFileAtomic(join(this.dir, RESULTS), lines.length ? lines.join("\n") + "\n" : "");
    rmSync(join(this.dir, JOURNAL), { force: true });
  }

  /**
   * A fresh run that failed before any task finished (issue 44 item 19b): leaves --out as it found it, without
   * the manifest and journal it wrote (and without the directory, when this run created it and it is empty).
   * Results of earlier runs, or of tasks this run finished, stay for a resume.
   */
  abandon(): void {
    this.close();
    if (!this.wroteManifest || this.done.size > 0) return;
    for (const f of [JOURNAL, RESULTS, MANIFEST]) rmSync(join(this.dir, f), { force: true });
    this.lock.release();
    if (this.createdDir && readdirSync(this.dir).length === 0) rmSync(this.dir, { recursive: true, force: true });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Closes the journal and gives up the directory's lock: call once the run has written everything. */
  release(): void {
    this.close();
    this.lock.release();
  }
}

/** JSON with object keys sorted, so equal identities compare equal as text. */
export function stableJson(v: unknown): string {
  return JSON.stringify(sortKeys(v), null, 2) + "\n";
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) o[k] = sortKeys((v as Record<string, unknown>)[k]);
    return o;
  }
  return v;
}
