// `slurm`: a job verb as a Slurm job array (one shard per task) plus a merge job, followed and repaired from its
// directory (ts/slurm/). The CLI (ts/cli/commands/slurm.ts) turns flags into these options and prints the summaries.
import { resolve } from "node:path";
import { logDir, mergedDir, readJob, type SlurmJob } from "../slurm/layout.js";
import { shellLine } from "../slurm/script.js";
import { jobStatus, statusText, type JobStatus } from "../slurm/status.js";
import { mergeSubmitted, submit, type ProgramFactory, type SubmitRequest, type SubmitResult } from "../slurm/submit.js";
import { waitForMerge, type WaitOptions, type WaitSummary } from "../slurm/wait.js";

export type SlurmSubmitOptions = Omit<SubmitRequest, "verb" | "args">;

export interface SlurmSubmitSummary extends SubmitResult {
  /** What a user reads: the scripts written, the job ids and how to follow them (or how to submit a dry run). */
  lines: string[];
}

/** `varmap …` as the job's scripts run it (the node and entry recorded at submit). */
function varmapCommand(job: SlurmJob, ...args: string[]): string {
  return shellLine([job.node, job.entry, ...args]);
}

/**
 * Writes the array and merge scripts into `options.out` and submits them (nothing with `dryRun`). `newProgram`
 * gives fresh `varmap` programs with `verb` registered: its flag definitions check `args`.
 */
export async function runSlurmSubmit(verb: string, args: string[], options: SlurmSubmitOptions, newProgram: ProgramFactory): Promise<SlurmSubmitSummary> {
  const r = await submit({ verb, args, ...options }, newProgram);
  const job = r.job;
  const lines = [`wrote ${r.arrayScript} (${job.shards} array tasks) and ${r.mergeScript}`];
  if (r.submitted) {
    const { arrayJob, mergeJob } = r.submitted;
    lines.push(
      `submitted array job ${arrayJob} (shards 1-${job.shards}) and merge job ${mergeJob} (afterany:${arrayJob})`,
      `follow:  squeue -j ${arrayJob},${mergeJob}    logs in ${logDir(job.out)}/`,
      `status:  ${varmapCommand(job, "slurm", "status", job.out)}`,
      `result:  ${mergedDir(job.out)}/ once the merge job has run`,
    );
  } else
    lines.push(
      "dry run: nothing submitted. To submit:",
      `  J=$(sbatch --parsable ${r.arrayScript}) && sbatch --dependency=afterany:\${J%%;*} ${r.mergeScript}`,
    );
  return { ...r, lines };
}

/** Which shards of the job in `out` are done, running, pending, failed or missing, and the text that says so. */
export async function runSlurmStatus(out: string): Promise<{ job: SlurmJob; status: JobStatus; text: string }> {
  const job = readJob(resolve(out));
  const status = await jobStatus(job);
  return { job, status, text: statusText(job, status) };
}

/** Blocks until the job in `out` is merged (E_SLURM_WAIT_TIMEOUT after `timeoutSeconds`; the job goes on). */
export function runSlurmWait(out: string, options: WaitOptions = {}): Promise<WaitSummary> {
  return waitForMerge(resolve(out), options);
}

/** What the merge job runs: the shards into `out`/merged when all are done, else E_SHARDS_INCOMPLETE with what to rerun. */
export function runSlurmMerge(out: string): ReturnType<typeof mergeSubmitted> {
  return mergeSubmitted(out);
}
