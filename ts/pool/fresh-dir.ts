// A whole output directory written at once: built in a temporary sibling, then renamed into place, so the
// directory holds exactly the new files (nothing stale from an earlier run) and a reader or a killed writer never
// sees half of it. Used by `varmap merge`, which may only replace a directory it wrote itself before.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { VarmapError } from "../errors.js";
import { LOCK_FILE } from "./lock.js";
import { readManifest, RUN_LOG } from "./store.js";

export const MERGED_NOTE = "merged from shards";

/** Is `path` the directory `dir` or inside it? */
export function within(path: string, dir: string): boolean {
  const r = relative(resolve(dir), resolve(path));
  return r === "" || (!r.startsWith("..") && !r.startsWith(sep) && r !== "..");
}

/** Was `dir` written by `varmap merge` (its run log says so and its manifest is a whole job)? */
function isMergeOutput(dir: string): boolean {
  const m = readManifest(dir);
  if (!m || m.shard !== null) return false;
  try {
    return (JSON.parse(readFileSync(join(dir, RUN_LOG), "utf8")) as { note?: string }).note === MERGED_NOTE;
  } catch {
    return false;
  }
}

/**
 * Checks that merge may write `out`: not one of (or inside) the shard directories it reads, not a shard's or a run's
 * output directory, not a directory of other files. An empty directory or an earlier merge's output is replaced.
 */
export function checkMergeOut(out: string, inputs: readonly string[]): void {
  for (const d of inputs)
    if (within(out, d) || within(d, out))
      throw new VarmapError("E_OUT", `--out ${out} ${within(out, d) ? "is" : "contains"} the shard directory ${d}`, {
        remedy: "give merge a new directory for --out, apart from the shards",
      });
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory())
    throw new VarmapError("E_OUT", `--out ${out} exists and is not a directory`, { remedy: "give a new directory path for --out" });
  const entries = readdirSync(out);
  if (!entries.length || isMergeOutput(out)) return;
  const m = readManifest(out);
  const what =
    typeof m?.shard === "string"
      ? `the output of shard ${m.shard}`
      : m
        ? "the output of a varmap run"
        : entries.includes(LOCK_FILE)
          ? "a directory a varmap run is writing"
          : `a directory of other files (${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", …" : ""})`;
  throw new VarmapError("E_OUT", `--out ${out} is ${what}; merge writes only into a new directory or over an earlier merge`, {
    remedy: "give merge a new --out directory (it is created)",
  });
}

/** Runs `build(tmp)` on a fresh temporary sibling of `out`, then puts it in place of `out` (replacing it whole). */
export function writeDirAtomic<T>(out: string, build: (tmp: string) => T): T {
  const parent = dirname(resolve(out));
  mkdirSync(parent, { recursive: true });
  const tmp = join(parent, `.${basename(out)}.${process.pid}.tmp`);
  const old = join(parent, `.${basename(out)}.${process.pid}.old`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  try {
    const r = build(tmp);
    if (existsSync(out)) {
      renameSync(out, old);
      try {
        renameSync(tmp, out);
      } catch (e) {
        renameSync(old, out);
        throw e;
      }
      rmSync(old, { recursive: true, force: true });
    } else renameSync(tmp, out);
    return r;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
