// Writing files so that a failure or a crash never leaves a partial one: write a temporary file in the target's
// directory, flush it to the disk, rename it into place (rename within a directory is atomic). Also the one CSV
// quoting rule. No DuckDB here: the job engine's worker threads import this module.
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { VarmapError } from "../errors.js";
import { writeFileAll } from "./io.js";

/** A temporary path next to `path` (same directory, so rename is atomic). */
export function tempPathFor(path: string, ext = ""): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}${ext}`);
}

/** Whether a process of this machine with that id is running (a reused id counts as running: nothing is removed). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Temporaries that tempPathFor made for `path` (`.<name>.tmp-<pid>-…`) whose writer is no longer running (killed
 * with kill -9, issue 44 item 19a): removed before the next write of the same file.
 */
export function removeStaleTempsOf(path: string): void {
  const dir = dirname(path) || ".";
  const prefix = `.${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[a-z0-9]+(\.[a-z]+)?$/.exec(name.slice(prefix.length));
    if (m && !processAlive(Number(m[1]))) rmSync(join(dir, name), { force: true });
  }
}

/**
 * A temporary directory `<tmpdir>/varmap-<what>-<pid>-XXXXXX` removed by its owner when done; one a killed process
 * left behind (kill -9 skips every cleanup) is removed by the next varmap that makes a directory of the same kind.
 */
export function ownedTempDir(what: string): string {
  const base = tmpdir();
  const prefix = `varmap-${what}-`;
  try {
    for (const name of readdirSync(base)) {
      if (!name.startsWith(prefix)) continue;
      const m = /^(\d+)-[A-Za-z0-9]{6}$/.exec(name.slice(prefix.length));
      if (m && !processAlive(Number(m[1]))) rmSync(join(base, name), { recursive: true, force: true });
    }
  } catch {
    // an unreadable temp directory: nothing to sweep
  }
  return mkdtempSync(join(base, `${prefix}${process.pid}-`));
}

const NO_SPACE_CODES = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);
const NO_SPACE_TEXT = /no space left on device|disk quota exceeded|file too large/i;

/**
 * A full disk met while writing `path` (issue 44 item 19e) as E_DISK_FULL naming `path`: Node's writeSync/fsync on a
 * descriptor and DuckDB's COPY report no path of their own. Other errors are returned as they are.
 */
export function diskFullError(e: unknown, path: string): unknown {
  // writeAll names the temporary it was writing: the user gave `path` (the temporary is gone).
  if (e instanceof VarmapError)
    return e.code === "E_DISK_FULL" && e.location.file !== path
      ? new VarmapError("E_DISK_FULL", `cannot write ${path}: the disk (or your quota) is full`, { location: { file: path }, remedy: e.remedy, cause: e })
      : e;
  const err = e as NodeJS.ErrnoException;
  const code = typeof err?.code === "string" ? err.code : "";
  if (!NO_SPACE_CODES.has(code) && !NO_SPACE_TEXT.test(String(err?.message ?? ""))) return e;
  return new VarmapError("E_DISK_FULL", `cannot write ${path}: the disk (or your quota) is full (${code || String(err.message).split("\n")[0]})`, {
    location: { file: path },
    remedy: "free some space or write to another file system (--out elsewhere), then run the same command again (jobs resume)",
    cause: e,
  });
}

/** Flushes a written file to the disk, so a rename after it never exposes an empty or partial file after a crash. */
function fsyncFile(path: string): void {
  const fd = openSync(path, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs `write(tmp)`, flushes tmp to the disk and renames it to `path`; on any failure removes tmp (and leaves
 * `path` untouched). `write` may create further temporaries with tempPathFor; it must remove them itself.
 */
export async function writeAtomic(path: string, write: (tmp: string) => void | Promise<void>): Promise<void> {
  mkdirSync(dirname(path) || ".", { recursive: true });
  removeStaleTempsOf(path);
  const tmp = tempPathFor(path);
  try {
    await write(tmp);
    fsyncFile(tmp);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw diskFullError(e, path);
  }
}

/** writeAtomic for text, synchronously (the job engine's journal, manifest and result files). */
export function writeFileAtomic(path: string, text: string): void {
  removeStaleTempsOf(path);
  const tmp = tempPathFor(path);
  try {
    writeFileAll(tmp, text); // every byte written (or E_DISK_FULL), then fsynced
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw diskFullError(e, path);
  }
}

/** A text CSV field: quoted (inner quotes doubled) when it holds a comma, quote or line break. The one quoting rule. */
export function csvQuote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
