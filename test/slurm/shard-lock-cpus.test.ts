// --shard auto / --shards, the output-directory lock, the default worker count, merge's --out rules, and the
// progress line of a fully resumed run.
import { describe, expect, it, vi } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { availableParallelism, hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { parseShardOptions } from "../../ts/pool/shard.js";
import { cpuBudget, defaultWorkers } from "../../ts/pool/cpus.js";
import { DirLock, LOCK_FILE, STALE_MS } from "../../ts/pool/lock.js";
import { ResultStore } from "../../ts/pool/store.js";
import { checkMergeOut } from "../../ts/pool/fresh-dir.js";
import { mergeShards } from "../../ts/pool/merge.js";
import { cvPlan, job as cvJob } from "../../ts/jobs/cv.js";
import { loadJob } from "../../ts/jobs/index.js";
import { runJob } from "../../ts/pool/job.js";
import { packMaps } from "../../ts/data/shared-maps.js";
import { stderrProgress } from "../../ts/pool/progress.js";
import { gridMaps } from "../pool/fixtures.js";

const tmp = (): string => mkdtempSync(join(tmpdir(), "varmap-slurm-unit-"));
const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
};
const codeAsync = async (f: () => Promise<unknown>): Promise<string | undefined> => {
  try {
    await f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
};

describe("--shard and --shards", () => {
  it("reads i/N, i with --shards, and auto from each scheduler's array index", () => {
    expect(parseShardOptions("2/3", undefined, {})).toEqual({ index: 2, count: 3 });
    expect(parseShardOptions("2", "3", {})).toEqual({ index: 2, count: 3 });
    expect(parseShardOptions(undefined, undefined, {})).toBeUndefined();
    expect(parseShardOptions("auto", "4", { SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_COUNT: "1" })).toEqual({ index: 3, count: 4 });
    expect(parseShardOptions("auto", "4", { PBS_ARRAY_INDEX: "4" })).toEqual({ index: 4, count: 4 });
    expect(parseShardOptions("auto", "4", { LSB_JOBINDEX: "1" })).toEqual({ index: 1, count: 4 });
    expect(parseShardOptions("auto", "4", { JOB_COMPLETION_INDEX: "0" })).toEqual({ index: 1, count: 4 }); // 0-based
    expect(parseShardOptions("auto", "4", { JOB_COMPLETION_INDEX: "3" })).toEqual({ index: 4, count: 4 });
  });
  it("refuses a missing or bad count, an index outside 1..N, and auto without an index", () => {
    expect(code(() => parseShardOptions("auto", undefined, { SLURM_ARRAY_TASK_ID: "1" }))).toBe("E_USAGE");
    expect(code(() => parseShardOptions("auto", "0", { SLURM_ARRAY_TASK_ID: "1" }))).toBe("E_USAGE");
    expect(code(() => parseShardOptions("auto", "x", {}))).toBe("E_USAGE");
    expect(code(() => parseShardOptions(undefined, "4", {}))).toBe("E_USAGE");
    expect(code(() => parseShardOptions("auto", "4", { SLURM_ARRAY_TASK_ID: "0" }))).toBe("E_SHARD_INDEX"); // --array=0-3
    expect(code(() => parseShardOptions("auto", "4", { SLURM_ARRAY_TASK_ID: "5" }))).toBe("E_SHARD_INDEX");
    expect(code(() => parseShardOptions("auto", "4", { JOB_COMPLETION_INDEX: "4" }))).toBe("E_SHARD_INDEX");
    expect(code(() => parseShardOptions("auto", "4", {}))).toBe("E_SHARD_INDEX");
    expect(code(() => parseShardOptions("3/2", undefined, {}))).toBe("E_SHARD_INDEX");
    expect(code(() => parseShardOptions("0/2", undefined, {}))).toBe("E_SHARD_INDEX");
    expect(code(() => parseShardOptions("1/0", undefined, {}))).toBe("E_USAGE");
    expect(code(() => parseShardOptions("2/3", "4", {}))).toBe("E_USAGE");
    expect(code(() => parseShardOptions("2", undefined, {}))).toBe("E_USAGE");
    expect(() => parseShardOptions("auto", "4", { SLURM_ARRAY_TASK_ID: "7" })).toThrow(/shard index 7 \(SLURM_ARRAY_TASK_ID=7\) is outside 1..4/);
  });
});

describe("default workers", () => {
  it("are the CPUs Slurm granted, else the process's CPU affinity", () => {
    const affinity = availableParallelism();
    expect(cpuBudget({})).toEqual({ cpus: affinity, source: "CPU affinity" });
    expect(defaultWorkers({ SLURM_CPUS_PER_TASK: "1" })).toBe(1);
    expect(defaultWorkers({ SLURM_CPUS_PER_TASK: String(affinity + 8) })).toBe(affinity); // never more than the mask allows
    expect(defaultWorkers({ SLURM_CPUS_PER_TASK: "lots" })).toBe(affinity);
  });
  it("follow the affinity mask (taskset -c 0)", () => {
    const r = spawnSync("taskset", ["-c", "0", process.execPath, "-e", "console.log(require('os').availableParallelism())"], { encoding: "utf8" });
    if (r.error) return; // no taskset on this system: nothing to compare
    expect(r.stdout.trim()).toBe("1");
  });
});

describe("output-directory lock", () => {
  // A process that takes the lock and dies by SIGKILL (no chance to remove it).
  const holdLock = (dir: string): { signal: NodeJS.Signals | null; stderr: string } =>
    spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `import("${join(process.cwd(), "ts/pool/lock.ts")}").then((m) => { m.DirLock.acquire(${JSON.stringify(dir)}); process.kill(process.pid, "SIGKILL"); })`,
      ],
      { encoding: "utf8" },
    );

  it("is taken and released by a store; a second live writer is refused, a dead one's lock replaced", () => {
    const dir = tmp();
    const store = new ResultStore(dir, { job: 1 }, { resume: true, outputs: [] });
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    // Another live process on this host holds it: refused with E_OUT_LOCKED.
    const other = tmp();
    writeFileSync(join(other, LOCK_FILE), JSON.stringify({ host: hostname(), pid: process.ppid, started: "t", command: "varmap cv" }));
    expect(code(() => new ResultStore(other, { job: 1 }, { resume: true, outputs: [] }))).toBe("E_OUT_LOCKED");
    store.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    // A process killed with SIGKILL left its lock behind: stale, replaced.
    const r = holdLock(dir);
    expect(r.signal, r.stderr).toBe("SIGKILL");
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const again = DirLock.acquire(dir);
      expect(err.mock.calls.map((c) => String(c[0])).join("")).toMatch(/stale lock .* has ended/);
      again.release();
    } finally {
      err.mockRestore();
    }
  });
  it("from another host: refused while refreshed, stale once untouched for STALE_MS", () => {
    const dir = tmp();
    const path = join(dir, LOCK_FILE);
    writeFileSync(path, JSON.stringify({ host: "node-17.cluster", pid: 4242, started: "t", command: "varmap cv" }));
    expect(() => DirLock.acquire(dir)).toThrow(/in use by another varmap run \(pid 4242 on node-17.cluster/);
    const old = (Date.now() - STALE_MS - 5000) / 1000;
    utimesSync(path, old, old);
    const l = DirLock.acquire(dir, { quiet: true });
    l.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("merge --out", () => {
  const maps = packMaps(gridMaps(2, 5));
  const { plan } = cvPlan(maps, { methods: ["mean"], response: "linear", ps: [0.2, 0.8], reps: 30, seed: "5" });
  it("refuses a shard directory or other files, and replaces an earlier merge whole (no stale files)", async () => {
    const shards = [tmp(), tmp()];
    for (let i = 0; i < 2; i++)
      await runJob(cvJob, { maps, plan }, { out: shards[i], workers: 0, resume: true, quiet: true, label: "cv", shard: { index: i + 1, count: 2 } });
    expect(await codeAsync(() => mergeShards(shards, shards[0], loadJob))).toBe("E_OUT");
    expect(await codeAsync(() => mergeShards(shards, join(shards[1], "merged"), loadJob))).toBe("E_OUT");
    const other = tmp();
    writeFileSync(join(other, "notes.txt"), "mine");
    expect(await codeAsync(() => mergeShards(shards, other, loadJob))).toBe("E_OUT");
    expect(readdirSync(other)).toEqual(["notes.txt"]);
    const whole = tmp();
    await runJob(cvJob, { maps, plan }, { out: whole, workers: 0, resume: true, quiet: true, label: "cv" });
    expect(code(() => checkMergeOut(whole, shards))).toBe("E_OUT"); // an unsharded run's directory
    const merged = join(tmp(), "merged");
    await mergeShards(shards, merged, loadJob);
    const files = readdirSync(merged).sort();
    writeFileSync(join(merged, "stale.csv"), "old");
    mkdirSync(join(merged, "sub"));
    await mergeShards(shards, merged, loadJob);
    expect(readdirSync(merged).sort()).toEqual(files);
    expect(readdirSync(join(merged, "..")).sort()).toEqual(["merged"]); // no temporary siblings left
  });
});

describe("progress", () => {
  it("a fully resumed run says so instead of a bar with ETA LLs", () => {
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const p = stderrProgress("cv");
      p.start(18, 18);
      p.stop();
      const text = err.mock.calls.map((c) => String(c[0])).join("");
      expect(text).toBe("cv: all 18 tasks already done\n");
    } finally {
      err.mockRestore();
    }
  });
});
