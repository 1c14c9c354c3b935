// An output directory's lock: `.varmap.lock`, created exclusively (O_EXCL) by the run that writes into the
// directory and removed when it ends, so two runs (two array tasks given the same --out, a run started twice) cannot
// interleave their journals. It records host, pid and start time. A lock is stale — its writer is gone — when it
// was written on this host by a process that no longer exists, or, written on another host (a shared file
// system), when its holder stopped refreshing it: the holder touches it at least every HEARTBEAT_MS while it
// works, and a lock untouched for STALE_MS is taken over. A stale lock is replaced with a note on stderr.
// SIGTERM, SIGINT and SIGHUP (scancel, Ctrl-C, a closed terminal) remove the lock before the process exits.
// Under Slurm the lock also records the task's job id (SLURM_JOB_ID, and the array task A_i): a lock whose job
// squeue no longer lists as running (a task SIGKILLed on another node, an out-of-memory kill) is stale at once,
// and so is a lock left by an earlier run of the same job id (a requeued task: a higher SLURM_RESTART_COUNT),
// instead of after STALE_MS.
import { spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { VarmapError } from "../errors.js";

export const LOCK_FILE = ".varmap.lock";
export const HEARTBEAT_MS = 20_000;
export const STALE_MS = 120_000;

export interface LockInfo {
  host: string;
  pid: number;
  started: string;
  command: string;
  /** The Slurm job of the holder: its job id and, for an array task, "<array job>_<index>". */
  slurm?: { job: string; task?: string; restart?: number };
}

/** The Slurm job this process runs in, from the environment sbatch sets. */
export function slurmOfEnv(env: NodeJS.ProcessEnv = process.env): LockInfo["slurm"] {
  const job = env.SLURM_JOB_ID;
  if (!job || !/^\d+$/.test(job)) return undefined;
  const a = env.SLURM_ARRAY_JOB_ID;
  const i = env.SLURM_ARRAY_TASK_ID;
  const restart = Number(env.SLURM_RESTART_COUNT ?? 0);
  return { job, ...(a && i ? { task: `${a}_${i}` } : {}), ...(restart > 0 ? { restart } : {}) };
}

/**
 * Why Slurm job `job` no longer runs (squeue: not listed, or listed in an ended state), or undefined while it
 * may run — also when squeue is absent or cannot reach the controller (then nothing is known).
 */
export function slurmJobEnded(job: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const r = spawnSync("squeue", ["--noheader", `--jobs=${job}`, "--format=%T"], { encoding: "utf8", env, timeout: 15_000 });
  if (r.error) return undefined; // no squeue here
  const state = (r.stdout ?? "").trim().split("\n")[0]?.trim() ?? "";
  if (r.status !== 0) return /invalid job id/i.test(r.stderr ?? "") ? `its Slurm job ${job} has ended (squeue no longer knows it)` : undefined;
  if (!state) return `its Slurm job ${job} has ended (not in squeue)`;
  if (/^(RUNNING|COMPLETING|CONFIGURING|SUSPENDED|STOPPED|SIGNALING|STAGE_OUT|RESIZING|PENDING|REQUEUED)/.test(state)) return undefined;
  return `its Slurm job ${job} is ${state}`;
}

/** Is `pid` a live process on this host? EPERM means it exists but belongs to someone else. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readLock(dir: string): { info: LockInfo | undefined; ageMs: number } | undefined {
  const path = join(dir, LOCK_FILE);
  let text: string;
  let ageMs: number;
  try {
    ageMs = Date.now() - statSync(path).mtimeMs;
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const o = JSON.parse(text) as LockInfo;
    return { info: typeof o.host === "string" && Number.isInteger(o.pid) ? o : undefined, ageMs };
  } catch {
    return { info: undefined, ageMs }; // being written right now, or damaged: judged by its age alone
  }
}

/** Why a lock found in a directory no longer protects anything, or undefined while its holder may be alive. */
export function staleReason(lock: { info: LockInfo | undefined; ageMs: number }): string | undefined {
  const { info, ageMs } = lock;
  if (info && info.host === hostname()) return alive(info.pid) ? undefined : `process ${info.pid} on ${info.host} has ended`;
  if (info?.slurm) {
    const who = `pid ${info.pid} on ${info.host}, Slurm job ${info.slurm.task ?? info.slurm.job}`;
    // The same job restarted (requeued after a node failure): SLURM_RESTART_COUNT grew. The same job and count is
    // another process of this very run (another node of a multi-node job): alive as long as the job runs.
    const mine = slurmOfEnv();
    if (mine && info.slurm.job === mine.job && (mine.restart ?? 0) > (info.slurm.restart ?? 0))
      return `it was left by an earlier run of this Slurm job (${who}; requeued)`;
    const ended = slurmJobEnded(info.slurm.job);
    if (ended) return `${ended} (${who})`;
  }
  if (ageMs > STALE_MS)
    return `${info ? `its holder (pid ${info.pid} on ${info.host})` : "an unreadable lock"} has not refreshed it for ${Math.round(ageMs / 1000)} s`;
  return undefined;
}

const held = new Set<DirLock>();
let handlersInstalled = false;

function releaseAllOnSignal(signal: NodeJS.Signals, code: number): void {
  process.on(signal, () => {
    for (const l of [...held]) l.release();
    process.exit(128 + code);
  });
}

export class DirLock {
  private readonly path: string;
  private lastTouch = Date.now();
  private timer: NodeJS.Timeout | undefined;

  private constructor(readonly dir: string) {
    this.path = join(dir, LOCK_FILE);
  }

  /** Takes the lock of `dir` (an existing directory), replacing a stale one; throws E_OUT_LOCKED when a live run holds it. */
  static acquire(dir: string, opts: { quiet?: boolean } = {}): DirLock {
    const lock = new DirLock(dir);
    const slurm = slurmOfEnv();
    const info: LockInfo = {
      host: hostname(),
      pid: process.pid,
      started: new Date().toISOString(),
      command: process.argv.slice(1).join(" "),
      ...(slurm ? { slurm } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(lock.path, "wx");
        try {
          writeSync(fd, JSON.stringify(info, null, 2) + "\n");
        } finally {
          closeSync(fd);
        }
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 3) throw e;
      }
      const found = readLock(dir);
      if (!found) continue; // released meanwhile
      const mine = found.info?.host === info.host && found.info.pid === process.pid;
      const reason = mine ? undefined : staleReason(found);
      if (!mine && !reason) {
        const h = found.info;
        throw new VarmapError(
          "E_OUT_LOCKED",
          `${dir} is in use by another varmap run${h ? ` (pid ${h.pid} on ${h.host}, since ${h.started}: ${h.command})` : ""}`,
          {
            remedy: `wait for that run to end or give another --out; if it is certainly gone, delete ${lock.path}`,
          },
        );
      }
      if (reason && !opts.quiet) process.stderr.write(`varmap: replacing the stale lock of ${dir}: ${reason}\n`);
      // Move it aside rather than delete it, so two runs that both judged it stale cannot delete each other's new lock.
      const aside = `${lock.path}.stale.${process.pid}`;
      try {
        renameSync(lock.path, aside);
        rmSync(aside, { force: true });
      } catch {
        /* another run took it first: try again */
      }
    }
    held.add(lock);
    if (!handlersInstalled) {
      handlersInstalled = true;
      releaseAllOnSignal("SIGTERM", 15);
      releaseAllOnSignal("SIGINT", 2);
      releaseAllOnSignal("SIGHUP", 1);
      process.on("exit", () => {
        for (const l of [...held]) l.release();
      });
    }
    lock.timer = setInterval(() => lock.refresh(true), HEARTBEAT_MS);
    lock.timer.unref();
    return lock;
  }

  /** Marks the lock as alive (cheap: at most one utimes per HEARTBEAT_MS / 4 unless forced). */
  refresh(force = false): void {
    const now = Date.now();
    if (!force && now - this.lastTouch < HEARTBEAT_MS / 4) return;
    this.lastTouch = now;
    try {
      utimesSync(this.path, now / 1000, now / 1000);
    } catch {
      /* removed under us (a stale-lock takeover elsewhere): the next writer's check will say so */
    }
  }

  release(): void {
    if (!held.delete(this)) return;
    if (this.timer) clearInterval(this.timer);
    const found = readLock(this.dir);
    if (found?.info?.pid === process.pid && found.info.host === hostname()) rmSync(this.path, { force: true });
  }
}
