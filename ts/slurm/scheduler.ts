// Talking to Slurm through its commands (sbatch, squeue, sacct): found on PATH, run without a shell.
// squeue and sacct are optional: without them (or without accounting, which a small cluster often lacks) the
// shards' state comes from their output directories alone.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { VarmapError } from "../errors.js";

/** The absolute path of an executable on PATH, or undefined. */
export function which(cmd: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export function requireSbatch(): string {
  const p = which("sbatch");
  if (!p)
    throw new VarmapError("E_NO_SBATCH", "sbatch is not on PATH: this machine cannot submit Slurm jobs", {
      remedy:
        "run it on the cluster's login node (or `module load slurm`), install the Slurm client (Debian/Ubuntu: apt-get install slurm-client), or pass --dry-run to only write the job scripts",
    });
  return p;
}

/** Submits a script; returns the job id. `args` go before the script (they override its #SBATCH lines). */
export function sbatch(script: string, args: readonly string[] = []): string {
  const exe = requireSbatch();
  const r = spawnSync(exe, ["--parsable", ...args, script], { encoding: "utf8" });
  const id = /^(\d+)/.exec((r.stdout ?? "").trim());
  if (r.status !== 0 || !id)
    throw new VarmapError("E_SBATCH", `sbatch ${[...args, script].join(" ")} failed: ${(r.stderr || r.error?.message || r.stdout || "").trim()}`, {
      remedy: "check the partition, time and memory options against the cluster's limits (sinfo, scontrol show partition)",
    });
  return id[1];
}

export interface QueuedTask {
  arrayJob: string;
  index: number;
  state: string;
}

/**
 * Array tasks of `script` that Slurm still holds (pending or running), one per task; undefined when squeue is
 * absent or fails. Tasks are matched by their script's path, so reruns submitted by hand count too.
 */
export function queuedTasks(script: string): QueuedTask[] | undefined {
  const exe = which("squeue");
  if (!exe) return undefined;
  const r = spawnSync(exe, ["--noheader", "--array", "--format=%F|%K|%T|%Z|%o"], { encoding: "utf8" });
  if (r.status !== 0) return undefined;
  const out: QueuedTask[] = [];
  for (const line of r.stdout.split("\n")) {
    const [arrayJob, index, state, workdir, command] = line.trim().split("|");
    if (!command || !/^\d+$/.test(index ?? "")) continue;
    if (resolve(workdir || "/", command) === resolve(script)) out.push({ arrayJob, index: Number(index), state });
  }
  return out;
}

/** The last recorded state of each task of the given array jobs from sacct (index → "CANCELLED by 0", …); undefined when unavailable. */
export function accountedStates(arrayJobs: readonly string[]): Map<number, { job: string; state: string }> | undefined {
  const exe = which("sacct");
  if (!exe || !arrayJobs.length) return undefined;
  const r = spawnSync(exe, ["--noheader", "--parsable2", "--allocations", `--jobs=${arrayJobs.join(",")}`, "--format=JobID,State"], { encoding: "utf8" });
  if (r.status !== 0) return undefined;
  const out = new Map<number, { job: string; state: string }>();
  for (const line of r.stdout.split("\n")) {
    const [id, state] = line.trim().split("|");
    const m = /^(\d+)_(\d+)$/.exec(id ?? "");
    if (!m || !state) continue;
    const prev = out.get(Number(m[2]));
    if (!prev || Number(prev.job.split("_")[0]) < Number(m[1])) out.set(Number(m[2]), { job: id, state });
  }
  return out;
}

/** Cancels a job; true when scancel accepted it. */
export function scancel(job: string): boolean {
  const exe = which("scancel");
  if (!exe) return false;
  return spawnSync(exe, [job], { encoding: "utf8" }).status === 0;
}

/** Jobs (not array tasks) whose script is `script` that Slurm still holds, with their state; undefined without squeue. */
export function queuedScriptJobs(script: string): { id: string; state: string }[] | undefined {
  const exe = which("squeue");
  if (!exe) return undefined;
  const r = spawnSync(exe, ["--noheader", "--format=%i|%T|%Z|%o"], { encoding: "utf8" });
  if (r.status !== 0) return undefined;
  const out: { id: string; state: string }[] = [];
  for (const line of r.stdout.split("\n")) {
    const [id, state, workdir, command] = line.trim().split("|");
    if (command && resolve(workdir || "/", command) === resolve(script)) out.push({ id, state });
  }
  return out;
}
