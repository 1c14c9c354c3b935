// `varmap slurm submit <verb> <args…> --shards N --out DIR [--partition P --time T --cpus-per-task C --mem M …]`:
// a job verb as a Slurm job array (one shard per task) plus a merge job, with the scripts written into DIR.
// `varmap slurm status DIR`: which shards are done, running, pending, failed or missing, and the command that
// resubmits the failed and missing ones. `varmap slurm merge DIR`: what the merge job runs.
import { Command } from "commander";
import { shellLine } from "../../slurm/script.js";
import { logDir, mergedDir, readJob, type SlurmJob } from "../../slurm/layout.js";
import { jobStatus, statusText } from "../../slurm/status.js";
import { mergeSubmitted, submit } from "../../slurm/submit.js";
import { resolve } from "node:path";

interface SubmitOpts {
  shards?: string;
  out?: string;
  partition?: string;
  time?: string;
  cpusPerTask?: string;
  mem?: string;
  account?: string;
  qos?: string;
  sbatch: string[];
  dryRun?: boolean;
  json?: boolean;
}

const collect = (v: string, prev: string[]): string[] => [...prev, v];

function varmapCommand(job: SlurmJob, ...args: string[]): string {
  return shellLine([job.node, job.entry, ...args]);
}

export function register(program: Command): void {
  const slurm = program.command("slurm").description("run a job verb (cv, refit, gev) as a Slurm job array plus a merge job; follow and repair it");

  slurm
    .command("submit")
    .description("write the array and merge job scripts into --out and submit them with sbatch")
    .argument("<verb>", "a verb that takes --shard and --shards: cv, refit, gev")
    .argument("[args...]", "the verb's data file and options, as for `varmap <verb>` (without --out and --shard)")
    .allowUnknownOption()
    .option("--shards <N>", "number of shards = array tasks")
    .option("--out <dir>", "output directory: shards/<i>, merged/, slurm/ (scripts, logs, job ids)")
    .option("--partition <p>", "sbatch --partition")
    .option("--time <t>", "sbatch --time of each task, e.g. 1:00:00")
    .option("--cpus-per-task <c>", "sbatch --cpus-per-task; each task runs this many worker threads", "1")
    .option("--mem <m>", "sbatch --mem of each task, e.g. 4G")
    .option("--account <a>", "sbatch --account")
    .option("--qos <q>", "sbatch --qos")
    .option("--sbatch <option>", "another #SBATCH option for both scripts, e.g. --sbatch=--constraint=avx2 (repeatable)", collect, [])
    .option("--dry-run", "write the scripts and job.json, submit nothing")
    .option("--json", "print a machine-readable summary on stdout")
    .action(async (verb: string, args: string[], opts: SubmitOpts) => {
      // Every verb's definition, to check the verb's arguments (imported here: index.ts imports this file).
      const { commands } = await import("./index.js");
      const program = new Command("varmap");
      for (const register of commands) register(program);
      const r = submit(
        {
          verb,
          args,
          shards: opts.shards,
          out: opts.out,
          sbatch: {
            partition: opts.partition,
            time: opts.time,
            cpusPerTask: opts.cpusPerTask,
            mem: opts.mem,
            account: opts.account,
            qos: opts.qos,
            extra: opts.sbatch,
          },
          dryRun: !!opts.dryRun,
        },
        program,
      );
      const job = r.job;
      if (opts.json) {
        process.stdout.write(
          JSON.stringify(
            { out: job.out, shards: job.shards, arrayScript: r.arrayScript, mergeScript: r.mergeScript, ...r.submitted, dryRun: !r.submitted },
            null,
            2,
          ) + "\n",
        );
        return;
      }
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
      process.stdout.write(lines.join("\n") + "\n");
    });

  slurm
    .command("status")
    .description("which shards are done, running, pending, failed or missing; the command that resubmits the rest")
    .argument("<out>", "the --out directory of slurm submit")
    .option("--json", "print a machine-readable summary on stdout")
    .action((out: string, opts: { json?: boolean }) => {
      const job = readJob(resolve(out));
      const st = jobStatus(job);
      process.stdout.write(opts.json ? JSON.stringify(st, null, 2) + "\n" : statusText(job, st));
    });

  slurm
    .command("merge")
    .description("merge the shards into <out>/merged when all are done (what the merge job runs); else exit 2 and say what to rerun")
    .argument("<out>", "the --out directory of slurm submit")
    .option("--json", "print a machine-readable summary on stdout")
    .action((out: string, opts: { json?: boolean }) => {
      const r = mergeSubmitted(out);
      if (opts.json) process.stdout.write(JSON.stringify(r, null, 2) + "\n");
      else process.stderr.write(`varmap: merged ${r.shards} shard(s), ${r.tasks} tasks, into ${r.out}: ${r.files.join(", ")}\n`);
    });
}
