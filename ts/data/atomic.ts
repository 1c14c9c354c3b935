// Writing files so that a failure or a crash never leaves a partial one: write a temporary file in the target's
// directory, flush it to the disk, rename it into place (rename within a directory is atomic). Also the one CSV
// quoting rule. No DuckDB here: the job engine's worker threads import this module.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAll } from "./io.js";

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
    throw e;
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
    throw e;
  }
}

/** A text CSV field: quoted (inner quotes doubled) when it holds a comma, quote or line break. The one quoting rule. */
export function csvQuote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
