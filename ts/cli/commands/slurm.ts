// `varmap slurm submit <verb> <args…> --shards N --out DIR [--partition P --time T --cpus-per-task C --mem M …]`:
// a job verb as a Slurm job array (one shard per task) plus a merge job, with the scripts written into DIR.
// `varmap slurm status DIR`: which shards are done, running, pending, failed or missing, and the command that
// resubmits the failed and missing ones. `varmap slurm merge DIR`: what the merge job runs. `varmap slurm wait DIR`:
// block until merged.
import { Command } from "commander";
import { VarmapError } from "../../errors.js";
import { runSlurmMerge, runSlurmStatus, runSlurmSubmit, runSlurmWait } from "../../verbs/slurm.js";

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
  mergeSbatch: string[];
  maxRunning?: string;
  setup: string[];
  check?: boolean;
  wait?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** --timeout / --interval seconds: a positive number. */
function seconds(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new VarmapError("E_USAGE", `${name} '${v}' is not a positive number of seconds`, { remedy: `e.g. ${name} 60` });
  return n;
}

async function waitAndSay(out: string, opts: { timeout?: string; interval?: string; quiet?: boolean }) {
  return runSlurmWait(out, {
    timeoutSeconds: seconds("--timeout", opts.timeout),
    intervalSeconds: seconds("--interval", opts.interval),
    onChange: opts.quiet ? undefined : (line) => process.stderr.write(`varmap: ${new Date().toISOString().slice(11, 19)} ${line}\n`),
  });
}

const collect = (v: string, prev: string[]): string[] => [...prev, v];

export function register(program: Command): void {
  const slurm = program.command("slurm").description("run a job verb (cv, refit, gev, mixture, …) as a Slurm job array plus a merge job; follow and repair it");

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
    .option("--sbatch <option>", "another #SBATCH option for the array tasks, e.g. --sbatch=--constraint=avx2 (repeatable)", collect, [])
    .option(
      "--merge-sbatch <option>",
      "an #SBATCH option for the merge job only, e.g. --merge-sbatch=--mem=8G (repeatable; the merge inherits only --partition, --account, --qos, --time, --mem, and runs on 1 CPU)",
      collect,
      [],
    )
    .option("--max-running <N>", "at most N array tasks run at once (sbatch --array=1-S%N)")
    .option("--setup <line>", 'a shell line both scripts run before varmap, e.g. --setup "module load nodejs/20" (repeatable, in order)', collect, [])
    .option("--no-check", "do not build the verb's plan at submit (skips reading the data here; a bad value then fails in every task)")
    .option("--wait", "after submitting, block until the job is merged (as `varmap slurm wait`); exit 2 when it cannot be")
    .option("--wait-timeout <s>", "with --wait: give up after this many seconds (the job goes on)")
    .option("--wait-interval <s>", "with --wait: seconds between looks at the job", "10")
    .option("--dry-run", "write the scripts and job.json, submit nothing")
    .option("--json", "print a machine-readable summary on stdout")
    .action(async (verb: string, args: string[], opts: SubmitOpts & { waitTimeout?: string; waitInterval?: string }) => {
      // Every verb's definition: the verb's checks its arguments, the others name the verbs that shard when it does
      // not (imported here: index.ts imports this file).
      const registrations = await (await import("./index.js")).loadCommands();
      const newProgram = () => {
        const program = new Command("varmap");
        for (const register of registrations) register(program);
        return program;
      };
      if (opts.wait && opts.dryRun)
        throw new VarmapError("E_USAGE", "--wait and --dry-run: a dry run submits nothing to wait for", { remedy: "drop one of them" });
      const waitOpts = { timeout: opts.waitTimeout, interval: opts.waitInterval };
      seconds("--wait-timeout", waitOpts.timeout);
      seconds("--wait-interval", waitOpts.interval);
      const r = await runSlurmSubmit(
        verb,
        args,
        {
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
          mergeSbatch: opts.mergeSbatch,
          maxRunning: opts.maxRunning,
          setup: opts.setup,
          check: opts.check !== false,
          dryRun: !!opts.dryRun,
        },
        newProgram,
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
        if (opts.wait) await waitAndSay(job.out, { ...waitOpts, quiet: true });
        return;
      }
      process.stdout.write(r.lines.join("\n") + "\n");
      if (opts.wait) {
        const w = await waitAndSay(job.out, waitOpts);
        process.stdout.write(`merged after ${w.seconds.toFixed(0)} s: ${w.merged}/\n`);
      }
    });

  slurm
    .command("status")
    .description("which shards are done, running, pending, failed or missing; the command that resubmits the rest")
    .argument("<out>", "the --out directory of slurm submit")
    .option("--json", "print a machine-readable summary on stdout")
    .action(async (out: string, opts: { json?: boolean }) => {
      const { status, text } = await runSlurmStatus(out);
      process.stdout.write(opts.json ? JSON.stringify(status, null, 2) + "\n" : text);
    });

  slurm
    .command("wait")
    .description("block until the job is merged; exit 2 with the resubmit command when nothing is left running and it is not merged")
    .argument("<out>", "the --out directory of slurm submit")
    .option("--timeout <s>", "give up after this many seconds (E_SLURM_WAIT_TIMEOUT; the job goes on)")
    .option("--interval <s>", "seconds between looks at the job", "10")
    .option("--quiet", "no progress lines on stderr")
    .option("--json", "print a machine-readable summary on stdout")
    .action(async (out: string, opts: { timeout?: string; interval?: string; quiet?: boolean; json?: boolean }) => {
      const w = await waitAndSay(out, opts);
      process.stdout.write(opts.json ? JSON.stringify(w, null, 2) + "\n" : `merged after ${w.seconds.toFixed(0)} s: ${w.merged}/\n`);
    });

  slurm
    .command("merge")
    .description("merge the shards into <out>/merged when all are done (what the merge job runs); else exit 2 and say what to rerun")
    .argument("<out>", "the --out directory of slurm submit")
    .option("--json", "print a machine-readable summary on stdout")
    .action(async (out: string, opts: { json?: boolean }) => {
      const r = await runSlurmMerge(out);
      if (opts.json) process.stdout.write(JSON.stringify(r, null, 2) + "\n");
      else process.stderr.write(`varmap: merged ${r.shards} shard(s), ${r.tasks} tasks, into ${r.out}: ${r.files.join(", ")}\n`);
    });
}
