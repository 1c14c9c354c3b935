// The one place output bytes reach the disk. writeSync may write fewer bytes than asked (a full disk, a quota, a
// signal): writeAll loops until everything is written and turns "no space" into a coded error, so a full disk
// can never leave a truncated file behind a success message. VARMAP_TEST_FAULTS injects such failures in tests:
// "short" (every write takes at most half of what is asked) and/or "enospc-after=N" (writes fail with ENOSPC once
// N bytes have been written by this process), comma-separated.
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { VarmapError } from "../errors.js";

interface Faults {
  short: boolean;
  enospcAfter: number;
}

function parseFaults(spec: string | undefined): Faults {
  const f: Faults = { short: false, enospcAfter: Infinity };
  for (const part of (spec ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (part === "short") f.short = true;
    else if (/^enospc-after=\d+$/.test(part)) f.enospcAfter = Number(part.split("=")[1]);
  }
  return f;
}

const faults = parseFaults(process.env.VARMAP_TEST_FAULTS);
let written = 0;

function writeSome(fd: number, buf: Uint8Array, offset: number, length: number): number {
  if (written >= faults.enospcAfter) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" });
  const ask = faults.short && length > 1 ? Math.ceil(length / 2) : Math.min(length, faults.enospcAfter - written);
  const n = writeSync(fd, buf, offset, ask);
  written += n;
  return n;
}

const NO_SPACE = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/** Writes all of `data` to fd (looping over short writes); `path` names the file in errors. */
export function writeAll(fd: number, data: string | Uint8Array, path: string, offset = 0, length?: number): void {
  const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let pos = offset;
  const end = offset + (length ?? buf.length - offset);
  try {
    while (pos < end) {
      const n = writeSome(fd, buf, pos, end - pos);
      if (n <= 0) throw Object.assign(new Error("write returned no progress"), { code: "EIO" });
      pos += n;
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (NO_SPACE.has(code))
      throw new VarmapError("E_DISK_FULL", `cannot write ${path}: the disk (or your quota) is full (${code})`, {
        location: { file: path },
        remedy: "free some space or write to another file system (--out elsewhere), then run the same command again (jobs resume)",
        cause: e,
      });
    throw e;
  }
}

/** Creates (or truncates) path with `data`, fsynced, so the bytes are on disk before a rename publishes them. */
export function writeFileAll(path: string, data: string | Uint8Array): void {
  const fd = openSync(path, "w");
  try {
    writeAll(fd, data, path);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
