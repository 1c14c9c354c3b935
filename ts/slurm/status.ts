// The state of each shard of a `varmap slurm submit` job, from its output directory (a finished shard has
// results.jsonl and no journal; a running one holds a live lock) and, when present, squeue (pending/running
// tasks) and sacct (why a task ended). What is neither done nor queued is to be resubmitted. A failed task's last
// error line (`varmap: error [E_…]`) is read from its log; a lock whose holder is gone (its process on this host,
// its Slurm job per squeue) is reported as what happened, not as running. Everything is read from the directory
// given: a job directory moved or copied after submit is read there, without the original's queue.
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { readLock, staleReason } from "../pool/lock.js";
import { loadJob } from "../jobs/index.js";
import type { JobPlan } from "../pool/job.js";
import { shardTasks } from "../pool/plan.js";
import { JOURNAL, readManifest, readRecords, RESULTS } from "../pool/store.js";
import { arrayScript, logDir, mergedDir, mergeScript, shardDir, type SlurmJob } from "./layout.js";
import { accountedStates, queuedTasks } from "./scheduler.js";
import { arraySpec, shellQuote } from "./script.js";

export type ShardState = "done" | "running" | "pending" | "failed" | "missing";

export interface ShardStatus {
  index: number;
  state: ShardState;
  /** Tasks finished / tasks of the shard (when the shard directory says). */
  done?: number;
  tasks?: number;
  detail: string;
}

export interface JobStatus {
  out: string;
  verb: string;
  shards: ShardStatus[];
  /** Where the scheduler's view came from. */
  sources: string[];
  merged: boolean;
  /** Indices to resubmit (failed or missing) and the shell command that does it, merge included. */
  resubmit: number[];
  resubmitCommand?: string;
  /** The path recorded at submit, when this directory is not it (moved or copied): the queue's tasks write there. */
  submittedAs?: string;
}

/** "1-3,5,7-8" from sorted indices. */
export function indexRanges(xs: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < xs.length; ) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j] + 1) j++;
    parts.push(j > i ? `${xs[i]}-${xs[j]}` : String(xs[i]));
    i = j + 1;
  }
  return parts.join(",");
}

/** One shell line: the array tasks `indices` again, and a new merge after them (afterany). */
export function resubmitCommand(job: SlurmJob, indices: readonly number[]): string {
  return `J=$(sbatch --parsable --array=${arraySpec(job, indexRanges(indices))} ${shellQuote(arrayScript(job.out))}) && sbatch --dependency=afterany:\${J%%;*} ${shellQuote(mergeScript(job.out))}`;
}

/** The last 64 KiB of a file. */
function tail(path: string): string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, 65536);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, size - n);
    return buf.toString("utf8");
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

/** The newest log of shard i (`shard-<i>-<array job>.log`) and its last error line (`varmap: error [E_…]: …`), if any. */
export function shardLogError(job: SlurmJob, i: number): { log: string; error: string } | undefined {
  let newest: { path: string; mtime: number } | undefined;
  try {
    for (const f of readdirSync(logDir(job.out))) {
      if (!new RegExp(`^shard-${i}-\\d+\\.log$`).test(f)) continue;
      const path = join(logDir(job.out), f);
      const mtime = statSync(path).mtimeMs;
      if (!newest || mtime > newest.mtime) newest = { path, mtime };
    }
  } catch {
    return undefined;
  }
  if (!newest) return undefined;
  const lines = tail(newest.path)
    .split("\n")
    .filter((l) => /\[E_[A-Z0-9_]+\]/.test(l));
  const last = lines
    .at(-1)
    ?.trim()
    .replace(/^varmap: error /, "");
  if (!last) return undefined;
  return { log: newest.path, error: last.length > 300 ? `${last.slice(0, 297)}...` : last };
}

async function shardFromDir(job: SlurmJob, i: number): Promise<Omit<ShardStatus, "index">> {
  const dir = shardDir(job.out, i);
  if (!existsSync(dir)) return { state: "missing", detail: "not started" };
  const manifest = readManifest(dir);
  const expected = job.shards > 1 ? `${i}/${job.shards}` : null;
  if (!manifest) return { state: "failed", detail: "started, no manifest yet" };
  if (manifest.shard !== expected) return { state: "failed", detail: `its manifest is shard ${String(manifest.shard)}, not ${expected}` };
  let tasks: number | undefined;
  try {
    const { shard: _s, ...plan } = manifest;
    tasks = shardTasks(
      (await loadJob(String(plan.verb))).tasks(plan as unknown as JobPlan),
      job.shards > 1 ? { index: i, count: job.shards } : undefined,
    ).length;
  } catch {
    tasks = undefined;
  }
  const journal = existsSync(join(dir, JOURNAL));
  const done = readRecords(join(dir, RESULTS)).length + readRecords(join(dir, JOURNAL)).length;
  if (!journal && existsSync(join(dir, RESULTS))) return { state: "done", done, tasks, detail: "" };
  const lock = readLock(dir);
  const stale = lock ? staleReason(lock) : undefined;
  if (lock && !stale) {
    const where = lock.info
      ? `pid ${lock.info.pid} on ${lock.info.host}${lock.info.slurm ? `, job ${lock.info.slurm.task ?? lock.info.slurm.job}` : ""}`
      : "locked";
    return { state: "running", done, tasks, detail: where };
  }
  if (stale) return { state: "failed", done, tasks, detail: `interrupted: ${stale}` };
  return { state: "failed", done, tasks, detail: "interrupted: partial results, no live run" };
}

export async function jobStatus(job: SlurmJob): Promise<JobStatus> {
  // A moved or copied job directory: the queue's tasks and the recorded job ids belong to the original.
  const moved = job.submittedAs !== undefined;
  const queued = moved ? undefined : queuedTasks(arrayScript(job.out));
  const accounted = moved ? undefined : accountedStates(job.submissions.map((s) => s.arrayJob));
  const sources = ["shard directories", "logs", ...(queued ? ["squeue"] : []), ...(accounted ? ["sacct"] : [])];
  const shards: ShardStatus[] = [];
  for (let i = 1; i <= job.shards; i++) {
    const s: ShardStatus = { index: i, ...(await shardFromDir(job, i)) };
    const q = queued?.find((t) => t.index === i);
    if (s.state !== "done" && q) {
      const pending = /^(PENDING|CONFIGURING|REQUEUED|REQUEUE_HOLD|REQUEUE_FED|RESV_DEL_HOLD)/.test(q.state);
      s.state = pending ? "pending" : "running";
      s.detail = `job ${q.arrayJob}_${i} ${q.state}`;
    } else if (s.state === "failed" || s.state === "missing") {
      const a = accounted?.get(i);
      if (a && !/^(RUNNING|PENDING|COMPLETED)/.test(a.state)) s.detail += `${s.detail ? "; " : ""}job ${a.job} ${a.state}`;
      const logged = shardLogError(job, i);
      if (logged) {
        if (s.state === "missing") {
          s.state = "failed";
          s.detail = "failed before starting";
        }
        s.detail += `; last error: ${logged.error} (${logged.log})`;
      }
    }
    shards.push(s);
  }
  const resubmit = shards.filter((s) => s.state === "failed" || s.state === "missing").map((s) => s.index);
  return {
    out: job.out,
    verb: job.verb,
    shards,
    sources,
    merged: existsSync(join(mergedDir(job.out), RESULTS)),
    resubmit,
    // The scripts of a moved or copied directory still name the original: no command that would run there.
    resubmitCommand: resubmit.length && !moved ? resubmitCommand(job, resubmit) : undefined,
    ...(moved ? { submittedAs: job.submittedAs } : {}),
  };
}

export function statusText(job: SlurmJob, st: JobStatus): string {
  const lines = [`varmap ${job.verb} in ${job.shards} shard(s), ${job.out} (state from ${st.sources.join(", ")})`];
  const last = job.submissions.at(-1);
  if (last) lines.push(`last submitted ${last.at}: array job ${last.arrayJob} (tasks ${last.indices}), merge job ${last.mergeJob}`);
  if (st.submittedAs)
    lines.push(
      `note: submitted as ${st.submittedAs}, not here (moved or copied): the states below are this directory's; the queued tasks and the scripts write into ${st.submittedAs}`,
    );
  lines.push("shard  state    tasks     detail");
  for (const s of st.shards)
    lines.push(
      `${String(s.index).padEnd(6)} ${s.state.padEnd(8)} ${(s.tasks !== undefined ? `${s.done ?? 0}/${s.tasks}` : "-").padEnd(9)} ${s.detail}`.trimEnd(),
    );
  const count = (k: ShardState) => st.shards.filter((s) => s.state === k).length;
  lines.push(`${count("done")} done, ${count("running")} running, ${count("pending")} pending, ${count("failed")} failed, ${count("missing")} missing`);
  lines.push(st.merged ? `merged outputs: ${mergedDir(job.out)}` : `not merged yet (${mergedDir(job.out)})`);
  const early = st.shards.filter((s) => s.detail.startsWith("failed before starting")).map((s) => s.index);
  if (early.length)
    lines.push(
      `Shard(s) ${indexRanges(early)} stopped at an error before their first task (see the last error above): a resubmit runs the same command, so fix its cause first (for an argument, submit again into a new --out).`,
    );
  if (st.resubmitCommand) {
    lines.push(`To resubmit shard(s) ${indexRanges(st.resubmit)} and the merge after them, run:`);
    lines.push(`  ${st.resubmitCommand}`);
  } else if (st.submittedAs && st.resubmit.length)
    lines.push(
      `Shard(s) ${indexRanges(st.resubmit)} are not done here, and this directory's scripts write into ${st.submittedAs}: resubmit from there, or submit the job again into a new --out.`,
    );
  else if (!st.merged && count("done") === job.shards) lines.push(`Every shard is done; to merge: sbatch ${shellQuote(mergeScript(job.out))}`);
  return lines.join("\n") + "\n";
}
