// `varmap slurm wait DIR` (and `slurm submit --wait`): block until the job is merged, as submitit's
// job.result() and snakemake's cluster mode do. Polls the shard directories, squeue and the merged outputs; ends
// with the merged directory, or with E_SHARDS_INCOMPLETE (and the resubmit command) once nothing is queued or
// running and the job is not merged, or with E_SLURM_WAIT_TIMEOUT after --timeout.
import { VarmapError } from "../errors.js";
import { mergedDir, mergeScript, readJob } from "./layout.js";
import { queuedScriptJobs } from "./scheduler.js";
import { indexRanges, jobStatus, type JobStatus } from "./status.js";

export interface WaitOptions {
  /** Give up after this many seconds (default: no limit). */
  timeoutSeconds?: number;
  /** Seconds between looks (default 10). */
  intervalSeconds?: number;
  /** Called when the counts change (progress on stderr). */
  onChange?: (line: string, st: JobStatus) => void;
}

export interface WaitSummary {
  out: string;
  merged: string;
  seconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitForMerge(dir: string, opts: WaitOptions = {}): Promise<WaitSummary> {
  const t0 = Date.now();
  const interval = Math.max(0.05, opts.intervalSeconds ?? 10) * 1000;
  let lastLine = "";
  for (;;) {
    const job = readJob(dir);
    const st = await jobStatus(job);
    const count = (k: string) => st.shards.filter((s) => s.state === k).length;
    const merges = job.submittedAs ? undefined : queuedScriptJobs(mergeScript(job.out));
    const line = `${count("done")} done, ${count("running")} running, ${count("pending")} pending, ${count("failed")} failed, ${count("missing")} missing; ${
      st.merged ? "merged" : merges?.length ? `merge job ${merges.map((m) => `${m.id} ${m.state}`).join(", ")}` : "no merge job queued"
    }`;
    if (line !== lastLine) opts.onChange?.(line, st);
    lastLine = line;
    if (st.merged) return { out: job.out, merged: mergedDir(job.out), seconds: (Date.now() - t0) / 1000 };
    // The queued tasks of a moved or copied job write into the original: nothing would ever arrive here.
    if (job.submittedAs)
      throw new VarmapError("E_SLURM_MOVED", `${job.out} was submitted as ${job.submittedAs} (moved or copied): its tasks write there, not here`, {
        remedy: `wait on the original (varmap slurm wait ${job.submittedAs}), or merge what is here: varmap slurm merge ${job.out}`,
      });
    const active = count("running") + count("pending") > 0 || (merges?.length ?? 0) > 0;
    // Without squeue (no Slurm client here), "missing" may be pending: only the merge or the timeout ends the wait.
    if (!active && merges !== undefined) {
      const notDone = st.shards.filter((s) => s.state !== "done").map((s) => s.index);
      throw new VarmapError(
        "E_SHARDS_INCOMPLETE",
        notDone.length
          ? `nothing of ${job.out} is queued or running any more and shard(s) ${indexRanges(notDone)} of ${job.shards} are not done: it will not be merged`
          : `every shard of ${job.out} is done but no merge job is queued: it will not be merged by itself`,
        {
          remedy: st.resubmitCommand
            ? `resubmit them and a new merge with: ${st.resubmitCommand} (see varmap slurm status ${job.out})`
            : notDone.length
              ? `see varmap slurm status ${job.out}`
              : `merge now: varmap slurm merge ${job.out}`,
        },
      );
    }
    if (opts.timeoutSeconds !== undefined && Date.now() - t0 >= opts.timeoutSeconds * 1000)
      throw new VarmapError("E_SLURM_WAIT_TIMEOUT", `${job.out} is not merged after ${opts.timeoutSeconds} s (${line})`, {
        remedy: `the job goes on in Slurm: wait again (varmap slurm wait ${job.out}) or follow it with varmap slurm status ${job.out}`,
      });
    await sleep(interval);
  }
}
