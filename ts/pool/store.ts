// The result store of one output directory.
//   manifest.json        what job this directory holds (identity: data fingerprint, options, shard); written first
//   journal.jsonl        finished tasks, one JSON line each {"id","result"}, appended in completion order
//   results.jsonl        the same records in task order, written when the job completes; the journal is then removed
// Appends are single write(2) calls of whole lines on an O_APPEND descriptor. A kill -9 can at worst leave a
// truncated last line, which the next run drops (and cuts off before appending). A rerun with the same identity
// skips every task found in either file; so a killed run's rerun finishes the job, and because results.jsonl is
// written in task order from the same records, its outputs are byte-identical to an uninterrupted run's.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeSync } from "node:fs";
import { join } from "node:path";
import { VarmapError } from "../errors.js";
import { writeFileAtomic } from "./files.js";
import { DirLock } from "./lock.js";

export interface TaskRecord<R = unknown> {
  id: string;
  result: R;
}

export const MANIFEST = "manifest.json";
export const JOURNAL = "journal.jsonl";
export const RESULTS = "results.jsonl";
export const RUN_LOG = "run-log.json";

/** Parses complete JSONL lines; a truncated or corrupt line (a killed writer) is skipped. */
export function readRecords(path: string): TaskRecord[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, "utf8");
  const out: TaskRecord[] = [];
  const lines = text.split("\n");
  lines.pop(); // the part after the last newline: empty, or an unfinished line
  for (const line of lines) {
    if (!line) continue;
    try {
      const rec = JSON.parse(line) as TaskRecord;
      if (rec && typeof rec.id === "string" && "result" in rec) out.push(rec);
    } catch {
      /* a line damaged by a crash: the task simply runs again */
    }
  }
  return out;
}

export function readManifest(dir: string): Record<string, unknown> | undefined {
  const p = join(dir, MANIFEST);
  if (!existsSync(p)) return undefined;
  try {
    return JSON.parse(readFileSync(p, "utf8"));
  } catch {
    return undefined; // manifest.json is written atomically; unreadable means not ours or damaged: start over
  }
}

export class ResultStore {
  private fd: number | undefined;
  /** The directory's lock (ts/pool/lock.ts), held from construction to release(). */
  private readonly lock: DirLock;
  readonly done = new Map<string, unknown>();

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
    const text = stableJson(manifest);
    const old = readManifest(dir);
    const same = old !== undefined && stableJson(old) === text;
    if (old !== undefined && !same && opts.resume)
      throw new VarmapError("E_OUT_MISMATCH", `${dir} holds the results of a different job (other data, options or shard)`, {
        remedy: "use a new --out directory, or pass --no-resume to discard its results and start over",
      });
    if (!same || !opts.resume) {
      for (const f of [JOURNAL, RESULTS, MANIFEST, RUN_LOG, ...opts.outputs]) rmSync(join(dir, f), { force: true });
      writeFileAtomic(join(dir, MANIFEST), text);
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
    const text = records.map((r) => JSON.stringify(r) + "\n").join("");
    writeSync(this.open(), text);
    this.lock.refresh();
    for (const r of records) this.done.set(r.id, r.result);
  }

  /** Writes results.jsonl in the given task order and removes the journal. */
  finalize(order: readonly string[]): void {
    this.close();
    const lines: string[] = [];
    for (const id of order) {
      if (!this.done.has(id)) throw new Error(`internal: task ${id} has no result at finalize`);
      lines.push(JSON.stringify({ id, result: this.done.get(id) }));
    }
    writeFileAtomic(join(this.dir, RESULTS), lines.length ? lines.join("\n") + "\n" : "");
    rmSync(join(this.dir, JOURNAL), { force: true });
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
