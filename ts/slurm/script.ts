// The two batch scripts of a sharded job. They call node and varmap's entry point by absolute path (no npx: npm
// names its process `npm exec varmap`, and Slurm's linuxproc tracking skips names with a space, so scancel would
// not reach it; a first npx on a fresh cache also rebuilds the package inside the job), and `exec` node so the
// task's signals reach it. The shard count is written into the script, so `sbatch --array=2 array.sh` reruns
// shard 2 of N (SLURM_ARRAY_TASK_COUNT would be 1 there).
import { arrayScript, logDir, shardDir, type SlurmJob } from "./layout.js";

/** A word for a POSIX shell: as is when it is plainly safe, else single-quoted. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=,@+%^-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

function directives(job: SlurmJob, name: string, output: string, cpus: number, extra: string[]): string[] {
  const s = job.sbatch;
  const d = [`--job-name=${name}`, `--output=${output}`, `--chdir=${job.cwd}`, `--cpus-per-task=${cpus}`, ...extra];
  if (s.partition) d.push(`--partition=${s.partition}`);
  if (s.time) d.push(`--time=${s.time}`);
  if (s.mem) d.push(`--mem=${s.mem}`);
  if (s.account) d.push(`--account=${s.account}`);
  if (s.qos) d.push(`--qos=${s.qos}`);
  d.push(...s.extra);
  // #SBATCH lines are not parsed by a shell: no quoting, so a value with spaces cannot be given this way.
  return d.map((x) => `#SBATCH ${x}`);
}

export function jobName(job: SlurmJob): string {
  return `varmap-${job.verb}`;
}

/** The command of shard `$SLURM_ARRAY_TASK_ID` (the index variable is left for the shell). */
export function shardCommand(job: SlurmJob): string {
  const fixed = shellLine([job.node, job.entry, job.verb, ...job.args, "--shard", "auto", "--shards", String(job.shards)]);
  return `${fixed} --out ${shellQuote(shardDir(job.out, "").replace(/\/?$/, "/"))}"$SLURM_ARRAY_TASK_ID"`;
}

export function arrayScriptText(job: SlurmJob): string {
  const me = arrayScript(job.out);
  return [
    "#!/bin/bash",
    ...directives(job, jobName(job), `${logDir(job.out)}/shard-%a-%A.log`, job.sbatch.cpusPerTask, [`--array=1-${job.shards}`]),
    `# varmap ${job.verb} as ${job.shards} shards, one per array task; written by \`varmap slurm submit\`.`,
    `# All shards: sbatch ${shellQuote(me)}    Only shards 2 and 3: sbatch --array=2,3 ${shellQuote(me)}`,
    `# A rerun resumes from the shard's journal in ${shellQuote(shardDir(job.out, "<i>"))}; the merge is merge.sh.`,
    "set -eu",
    `echo "varmap: shard $SLURM_ARRAY_TASK_ID of ${job.shards} on $(hostname), job \${SLURM_JOB_ID:-?}" >&2`,
    `exec ${shardCommand(job)}`,
    "",
  ].join("\n");
}

export function mergeScriptText(job: SlurmJob): string {
  return [
    "#!/bin/bash",
    ...directives(job, `${jobName(job)}-merge`, `${logDir(job.out)}/merge-%j.log`, 1, []),
    `# Merges the ${job.shards} shards of ${shellQuote(job.out)} into ${shellQuote(job.out + "/merged")} once every shard is done;`,
    "# submitted with --dependency=afterany:<array job>, so it runs even when a task failed, and then exits with",
    "# code 2 and the command that resubmits the missing shards (and this merge after them).",
    "set -eu",
    `exec ${shellLine([job.node, job.entry, "slurm", "merge", job.out])}`,
    "",
  ].join("\n");
}
