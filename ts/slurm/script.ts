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

/** The option name of an sbatch option ("--time=1:00" → "--time", "-t" → "-t"). */
function optionName(x: string): string {
  return x.split("=")[0];
}

const SHORT: Record<string, string> = { "-p": "--partition", "-t": "--time", "-A": "--account", "-q": "--qos", "-c": "--cpus-per-task" };

/**
 * The #SBATCH lines of one script. The array gets the named options and every --sbatch; the merge job gets only
 * partition, account, qos, time and mem from them, one CPU, and its own --merge-sbatch options, which replace an
 * inherited option of the same name.
 */
function directives(job: SlurmJob, name: string, output: string, which: "array" | "merge", extra: string[]): string[] {
  const s = job.sbatch;
  const named: string[] = [];
  if (s.partition) named.push(`--partition=${s.partition}`);
  if (s.time) named.push(`--time=${s.time}`);
  if (s.mem) named.push(`--mem=${s.mem}`);
  if (s.account) named.push(`--account=${s.account}`);
  if (s.qos) named.push(`--qos=${s.qos}`);
  let d: string[];
  if (which === "array")
    d = [`--job-name=${name}`, `--output=${output}`, `--chdir=${job.cwd}`, `--cpus-per-task=${s.cpusPerTask}`, ...extra, ...named, ...s.extra];
  else {
    const own = job.mergeSbatch ?? [];
    const mine = new Set(own.map((x) => SHORT[optionName(x)] ?? optionName(x)));
    const base = [`--job-name=${name}`, `--output=${output}`, `--chdir=${job.cwd}`, "--cpus-per-task=1", ...named];
    d = [...base.filter((x) => !mine.has(optionName(x))), ...own];
  }
  // #SBATCH lines are not parsed by a shell: no quoting, so a value with spaces cannot be given this way.
  return d.map((x) => `#SBATCH ${x}`);
}

/** The --array value: tasks 1..N (or the given indices), at most maxRunning at once. */
export function arraySpec(job: SlurmJob, indices = `1-${job.shards}`): string {
  return job.maxRunning ? `${indices}%${job.maxRunning}` : indices;
}

/** `set -eu` and the setup lines (--setup), as given, one per line: run under -e, before -u (module scripts read unset variables). */
function setupLines(job: SlurmJob): string[] {
  return job.setup?.length ? ["set -e", "# setup (--setup):", ...job.setup, "set -u"] : ["set -eu"];
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
    ...directives(job, jobName(job), `${logDir(job.out)}/shard-%a-%A.log`, "array", [`--array=${arraySpec(job)}`]),
    `# varmap ${job.verb} as ${job.shards} shards, one per array task; written by \`varmap slurm submit\`.`,
    `# All shards: sbatch ${shellQuote(me)}    Only shards 2 and 3: sbatch --array=2,3 ${shellQuote(me)}`,
    `# A rerun resumes from the shard's journal in ${shellQuote(shardDir(job.out, "<i>"))}; the merge is merge.sh.`,
    ...setupLines(job),
    `echo "varmap: shard $SLURM_ARRAY_TASK_ID of ${job.shards} on $(hostname), job \${SLURM_JOB_ID:-?}" >&2`,
    `exec ${shardCommand(job)}`,
    "",
  ].join("\n");
}

export function mergeScriptText(job: SlurmJob): string {
  return [
    "#!/bin/bash",
    ...directives(job, `${jobName(job)}-merge`, `${logDir(job.out)}/merge-%j.log`, "merge", []),
    `# Merges the ${job.shards} shards of ${shellQuote(job.out)} into ${shellQuote(job.out + "/merged")} once every shard is done;`,
    "# submitted with --dependency=afterany:<array job>, so it runs even when a task failed, and then exits with",
    "# code 2 and the command that resubmits the missing shards (and this merge after them).",
    ...setupLines(job),
    `exec ${shellLine([job.node, job.entry, "slurm", "merge", job.out])}`,
    "",
  ].join("\n");
}
