// Writing files so that a failure or a crash never leaves a partial one: write a temporary file in the target's
// directory, flush it to the disk, rename it into place (rename within a directory is atomic). Also the one CSV
// quoting rule. No DuckDB here: the job engine's worker threads import this module.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAll } from "./io.js";
import { VarmapError } from "../errors.js";

/** A temporary path next to `path` (same directory, so rename is atomic). */
export function tempPathFor(path: string, ext = ""): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}${ext}`);
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
  const tmp = tempPathFor(path);
  try {
    await write(tmp);
    fsyncFile(tmp);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw diskFullAt(path, e);
  }
}

/** writeAtomic for text, synchronously (the job engine's journal, manifest and result files). */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = tempPathFor(path);
  try {
    writeFileAll(tmp, text); // every byte written (or E_DISK_FULL), then fsynced
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw diskFullAt(path, e);
  }
}

/**
 * A full disk while writing the temporary of `path` is reported at `path`, the file the user named (the temporary
 * is gone), whether it came as E_DISK_FULL from writeAll or as a raw ENOSPC/EDQUOT (writeFileSync, DuckDB's COPY).
 */
function diskFullAt(path: string, e: unknown): unknown {
  const code = e instanceof VarmapError ? e.code : (e as NodeJS.ErrnoException | undefined)?.code;
  const full =
    code === "E_DISK_FULL" || code === "ENOSPC" || code === "EDQUOT" || /No space left on device|Disk quota exceeded/i.test(String((e as Error)?.message));
  if (!full) return e;
  return new VarmapError("E_DISK_FULL", "the disk (or your quota) is full: nothing was written", {
    location: { file: path },
    remedy: "free some space or write to another file system (--out elsewhere), then run the same command again (jobs resume)",
    cause: e,
  });
}

/** A text CSV field: quoted (inner quotes doubled) when it holds a comma, quote or line break. The one quoting rule. */
export function csvQuote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
