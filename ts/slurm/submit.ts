// `varmap slurm submit` and `varmap slurm merge`: check the verb's command line here (before anything is
// written or queued) — its flags with the verb's definition, then its values by building the verb's plan as the
// first shard would (the data read, nothing written) — write job.json and the two scripts into the output
// directory, submit the array and the merge (afterany), record the job ids. The merge job merges only when every
// shard is done. A submit that fails leaves nothing behind (no scripts, no job.json, no directory it created).
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CommanderError, type Command } from "commander";
import { VarmapError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import { writeFileAtomic, ownedTempDir } from "../data/atomic.js";
import { mergeShards } from "../pool/merge.js";
import { loadJob } from "../jobs/index.js";
import { parseShardCount } from "../pool/shard.js";
import { probePlan } from "../pool/probe.js";
import { arrayScript, jobFile, logDir, mergedDir, mergeScript, readJob, shardDir, slurmDir, writeJob, type SbatchOptions, type SlurmJob } from "./layout.js";
import { queuedScriptJobs, requireSbatch, sbatch, scancel } from "./scheduler.js";
import { arrayScriptText, mergeScriptText } from "./script.js";
import { indexRanges, jobStatus, statusText } from "./status.js";

/** Flags that make a verb write one table outside the job engine (no shards). */
const NOT_A_JOB: Record<string, string[]> = { gev: ["--compare", "--loc-covariates", "--scale-covariates"] };

/** Flags of the verb that `slurm submit` sets itself. */
const RESERVED = ["--out", "--shard", "--shards", "--no-resume"];

export interface SubmitRequest {
  verb: string;
  args: string[];
  shards: string | number | undefined;
  out: string | undefined;
  sbatch: Omit<SbatchOptions, "cpusPerTask" | "extra"> & { cpusPerTask?: string | number; extra?: string[] };
  /** The merge job's own #SBATCH options (--merge-sbatch). */
  mergeSbatch?: string[];
  /** At most this many array tasks at once (--max-running). */
  maxRunning?: string | number;
  /** Shell lines for both scripts before varmap runs (--setup, repeatable). */
  setup?: string[];
  /** Build the verb's plan at submit (default true; --no-check skips it, e.g. for data too large for a login node). */
  check?: boolean;
  dryRun: boolean;
}

/** A fresh `varmap` program with every verb registered (one per parse: commander keeps the parsed values). */
export type ProgramFactory = () => Command;

/** A verb can be sharded when it takes --shard and --shards (the job verbs: cv, refit). */
function shardable(cmd: Command): boolean {
  return cmd.options.some((o) => o.long === "--shard") && cmd.options.some((o) => o.long === "--shards");
}

/** Commander's errors silenced (they become one E_USAGE) and every action replaced by `action`, or kept. */
function quiet(program: Command): Command {
  const silent = { writeErr: () => {}, writeOut: () => {} };
  for (const c of [program, ...program.commands]) c.exitOverride().configureOutput(silent);
  return program;
}

/**
 * Checks the verb's command line with the verb's own definition, taken from a fresh program (parsed only here, its
 * action replaced), so usage errors surface before anything is written or queued. Returns the data file.
 */
function checkVerbFlags(program: Command, verb: string, args: readonly string[]): string {
  const cmd = program.commands.find((c) => c.name() === verb);
  if (!cmd || !shardable(cmd))
    throw new VarmapError("E_NOT_SHARDABLE", `'${verb}' cannot be sharded`, {
      remedy: `varmap slurm submit runs the verbs that take --shard and --shards: ${program.commands
        .filter(shardable)
        .map((c) => c.name())
        .join(", ")}`,
    });
  for (const a of args) {
    const flag = a.split("=")[0];
    if (NOT_A_JOB[verb]?.includes(flag))
      throw new VarmapError("E_NOT_SHARDABLE", `${verb} ${flag} writes one table outside the job engine, so it cannot be sharded`, {
        remedy: `run it without slurm: varmap ${verb} … ${flag} … --out table.csv`,
      });
    if (RESERVED.includes(flag))
      throw new VarmapError("E_USAGE", `${flag} is set by varmap slurm submit, not given to ${verb}`, {
        remedy: flag === "--out" || flag === "--shards" ? `give ${flag} to slurm submit (before or after the verb's arguments)` : `drop ${flag}`,
      });
  }
  quiet(program);
  let data: unknown;
  cmd.action((first: unknown) => {
    data = first;
  });
  try {
    program.parse([verb, ...args], { from: "user" });
  } catch (e) {
    const msg = e instanceof CommanderError ? e.message.replace(/^error: /, "") : String(e);
    throw new VarmapError("E_USAGE", `the ${verb} arguments are not valid: ${msg}`, { remedy: `check them with \`varmap ${verb} --help\`` });
  }
  if (typeof data !== "string")
    throw new VarmapError("E_USAGE", `${verb} needs its data file`, { remedy: `varmap slurm submit ${verb} data.csv … --shards N --out DIR` });
  if (!existsSync(data))
    throw new VarmapError("E_FILE_NOT_FOUND", "cannot read input file", {
      location: { file: data },
      remedy: "check the path (relative paths are taken from this directory, where the jobs also run)",
    });
  return data;
}

/**
 * Checks the values: runs the verb's own action as shard 1 of N would, stopped once its plan is built (the data
 * read, the options checked by the verb itself, nothing written: the probe's --out is a path that is never
 * created). The verb's own error is thrown as it is. Returns the number of tasks of the whole job.
 */
async function checkVerbPlan(program: Command, verb: string, args: readonly string[], shards: number): Promise<number> {
  quiet(program);
  const scratch = ownedTempDir("slurm-check");
  try {
    const probeOut = join(scratch, "never-written");
    const found = await probePlan(() =>
      program.parseAsync([verb, ...args, "--shard", "1", "--shards", String(shards), "--out", probeOut, "--quiet"], { from: "user" }),
    );
    if (!found)
      throw new VarmapError("E_NOT_SHARDABLE", `this form of ${verb} does not run as a resumable job, so it cannot be sharded`, {
        remedy: `run it without slurm (\`varmap ${verb} …\`), or drop the option that makes it a single table (gev --compare, --loc-covariates)`,
      });
    if (found.tasks < shards)
      throw new VarmapError(
        "E_USAGE",
        `--shards ${shards} is more than the ${found.tasks} task(s) of this ${verb}: ${shards - found.tasks} array task(s) would do nothing`,
        {
          remedy: `give --shards ${found.tasks} or fewer${verb === "gev" ? ", or smaller tasks (gev --chunk N: configurations per task, default 1000)" : ""}`,
        },
      );
    return found.tasks;
  } catch (e) {
    if (e instanceof CommanderError) {
      const msg = e.message.replace(/^error: /, "");
      throw new VarmapError("E_USAGE", `the ${verb} arguments are not valid: ${msg}`, { remedy: `check them with \`varmap ${verb} --help\`` });
    }
    throw e;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function positive(name: string, v: string | number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new VarmapError("E_USAGE", `${name} '${v}' is not a positive integer`, { remedy: `e.g. ${name} ${dflt}` });
  return n;
}

/** One shell line per --setup: no control characters (a newline would hide a second line in one flag). */
function checkSetup(lines: readonly string[]): string[] {
  for (const l of lines) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(l) || !l.trim())
      throw new VarmapError("E_USAGE", `--setup ${JSON.stringify(l)} is empty or holds a control character (a newline, tab, …)`, {
        remedy: 'give one shell line per --setup, e.g. --setup "module load nodejs/20" --setup "source ~/venv/bin/activate"',
      });
  }
  return [...lines];
}

/** Validates a submission and builds its job record (nothing written yet). */
export async function planSubmission(req: SubmitRequest, newProgram: ProgramFactory): Promise<SlurmJob> {
  const verb = req.verb;
  if (req.shards === undefined)
    throw new VarmapError("E_USAGE", "slurm submit needs --shards N", { remedy: "e.g. --shards 16: the job runs as an array of 16 tasks" });
  const shards = parseShardCount(req.shards)!;
  if (!req.out)
    throw new VarmapError("E_USAGE", "slurm submit needs --out <dir>", { remedy: "the shards, the scripts, the logs and the merged outputs all go there" });
  checkVerbFlags(newProgram(), verb, req.args);
  const out = resolve(req.out);
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new VarmapError("E_OUT", `--out ${out} exists and is not a directory`, { remedy: "give a directory path for --out" });
  if (existsSync(jobFile(out))) {
    const old = readJob(out);
    if (old.submissions.length)
      throw new VarmapError("E_OUT", `${out} already holds a submitted job (array job ${old.submissions[0].arrayJob})`, {
        remedy: `see \`varmap slurm status ${out}\` (it prints the command that resubmits failed shards), or give a new --out`,
      });
  }
  const entry = join(packageRoot(), "dist", "ts", "cli", "main.js");
  if (!existsSync(entry))
    throw new VarmapError("E_INSTALL", `${entry} is missing: varmap is not built`, { remedy: "run npm run build (or npm ci) in the varmap directory first" });
  const s = req.sbatch;
  for (const [k, v] of Object.entries({ partition: s.partition, time: s.time, mem: s.mem, account: s.account, qos: s.qos }))
    if (v !== undefined && !/^[^\s'"\\]+$/.test(v))
      throw new VarmapError("E_USAGE", `--${k} '${v}' holds spaces or quotes`, { remedy: `give --${k} as Slurm expects it, e.g. --time 2:00:00 --mem 4G` });
  for (const x of s.extra ?? []) {
    // A newline (or any control character) would end the #SBATCH line and put a shell line into both scripts.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(x))
      throw new VarmapError("E_USAGE", `--sbatch ${JSON.stringify(x)} holds a control character (a newline, tab, …)`, {
        remedy: "give one sbatch option per --sbatch, on one line, e.g. --sbatch=--constraint=avx2",
      });
    if (/^(--array\b|-a$|-a\S|--dependency\b|-d$|-d\S)/.test(x))
      throw new VarmapError("E_USAGE", `--sbatch '${x}': the array and the merge's dependency are varmap's own`, {
        remedy: "give the number of tasks with --shards N; drop this --sbatch",
      });
  }
  for (const x of s.extra ?? [])
    if (!/^--?[A-Za-z]/.test(x))
      throw new VarmapError("E_USAGE", `--sbatch '${x}' is not an sbatch option`, { remedy: "e.g. --sbatch --constraint=avx2 (one option per --sbatch)" });
  const mergeSbatch = req.mergeSbatch ?? [];
  for (const x of mergeSbatch) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(x) || !/^--?[A-Za-z]/.test(x))
      throw new VarmapError("E_USAGE", `--merge-sbatch ${JSON.stringify(x)} is not one sbatch option on one line`, {
        remedy: "e.g. --merge-sbatch=--mem=8G --merge-sbatch=--time=0:30:00 (one option per --merge-sbatch)",
      });
    if (/^(--array\b|-a$|-a\S|--dependency\b|-d$|-d\S)/.test(x))
      throw new VarmapError("E_USAGE", `--merge-sbatch '${x}': the merge's dependency is varmap's own`, { remedy: "drop this --merge-sbatch" });
  }
  const maxRunning = req.maxRunning === undefined ? undefined : positive("--max-running", req.maxRunning, 4);
  const setup = checkSetup(req.setup ?? []);
  if (req.check !== false) await checkVerbPlan(newProgram(), verb, req.args, shards);
  return {
    format: "varmap-slurm",
    version: 1,
    verb,
    args: [...req.args],
    shards,
    out,
    cwd: process.cwd(),
    node: process.execPath,
    entry,
    sbatch: {
      cpusPerTask: positive("--cpus-per-task", s.cpusPerTask, 1),
      ...(s.partition ? { partition: s.partition } : {}),
      ...(s.time ? { time: s.time } : {}),
      ...(s.mem ? { mem: s.mem } : {}),
      ...(s.account ? { account: s.account } : {}),
      ...(s.qos ? { qos: s.qos } : {}),
      extra: [...(s.extra ?? [])],
    },
    ...(mergeSbatch.length ? { mergeSbatch: [...mergeSbatch] } : {}),
    ...(maxRunning !== undefined ? { maxRunning } : {}),
    ...(setup.length ? { setup } : {}),
    submissions: [],
  };
}

export interface SubmitResult {
  job: SlurmJob;
  arrayScript: string;
  mergeScript: string;
  submitted?: { arrayJob: string; mergeJob: string };
}

/** Removes what a failed submit created: the directory itself when it did not exist before, else its slurm/ and shards/. */
function cleanUp(out: string, existed: { out: boolean; slurm: boolean; shards: boolean }): void {
  if (!existed.out) rmSync(out, { recursive: true, force: true });
  else {
    if (!existed.slurm) rmSync(slurmDir(out), { recursive: true, force: true });
    if (!existed.shards) rmSync(join(out, "shards"), { recursive: true, force: true });
  }
}

/** `newProgram`: fresh `varmap` programs with every verb registered, whose definitions check the verb's arguments. */
export async function submit(req: SubmitRequest, newProgram: ProgramFactory): Promise<SubmitResult> {
  const job = await planSubmission(req, newProgram);
  if (!req.dryRun) requireSbatch(); // before writing anything
  const existed = { out: existsSync(job.out), slurm: existsSync(slurmDir(job.out)), shards: existsSync(join(job.out, "shards")) };
  const result: SubmitResult = { job, arrayScript: arrayScript(job.out), mergeScript: mergeScript(job.out) };
  let arrayJob: string | undefined;
  try {
    mkdirSync(logDir(job.out), { recursive: true });
    mkdirSync(join(job.out, "shards"), { recursive: true });
    writeFileAtomic(arrayScript(job.out), arrayScriptText(job));
    writeFileAtomic(mergeScript(job.out), mergeScriptText(job));
    chmodSync(arrayScript(job.out), 0o755);
    chmodSync(mergeScript(job.out), 0o755);
    writeJob(job);
    if (req.dryRun) return result;
    arrayJob = sbatch(arrayScript(job.out));
    const mergeJob = sbatch(mergeScript(job.out), [`--dependency=afterany:${arrayJob}`]);
    job.submissions.push({ at: new Date().toISOString(), indices: `1-${job.shards}`, arrayJob, mergeJob });
    writeJob(job);
    result.submitted = { arrayJob, mergeJob };
    return result;
  } catch (e) {
    // The array is queued but its merge was refused: cancel the array, so that nothing runs without its record.
    if (arrayJob !== undefined && !scancel(arrayJob)) {
      job.submissions.push({ at: new Date().toISOString(), indices: `1-${job.shards}`, arrayJob, mergeJob: "" });
      writeJob(job);
      throw new VarmapError("E_SBATCH", `${(e as Error).message}; array job ${arrayJob} is queued without a merge and could not be cancelled`, {
        remedy: `cancel it (scancel ${arrayJob}) or merge by hand later: varmap slurm merge ${job.out}`,
      });
    }
    cleanUp(job.out, existed);
    throw e;
  }
}

/** `varmap slurm merge <out>`: the merge job's work. Merges into <out>/merged when every shard is done, else says what to rerun. */
export async function mergeSubmitted(outArg: string): Promise<Awaited<ReturnType<typeof mergeShards>> & { out: string }> {
  const job = readJob(resolve(outArg));
  const st = await jobStatus(job);
  const notDone = st.shards.filter((s) => s.state !== "done");
  if (notDone.length) {
    process.stderr.write(statusText(job, st));
    const waiting = notDone.filter((s) => s.state === "running" || s.state === "pending").map((s) => s.index);
    // Another merge job queued after this one (not this one itself) will merge; else say how to merge later.
    const me = process.env.SLURM_JOB_ID;
    const later = job.submittedAs ? [] : (queuedScriptJobs(mergeScript(job.out)) ?? []).filter((j) => j.id !== me);
    throw new VarmapError("E_SHARDS_INCOMPLETE", `shard(s) ${indexRanges(notDone.map((s) => s.index))} of ${job.shards} not done: nothing merged`, {
      remedy: st.resubmitCommand
        ? `resubmit them and a new merge with: ${st.resubmitCommand}`
        : later.length
          ? `shard(s) ${indexRanges(waiting)} are still queued or running; merge job ${later.map((j) => j.id).join(", ")} (queued after them) will merge`
          : `shard(s) ${indexRanges(waiting)} are still queued or running and no merge job is queued after them: once they end, run \`varmap slurm merge ${job.out}\` (or sbatch ${mergeScript(job.out)}), or wait with \`varmap slurm wait ${job.out}\``,
    });
  }
  const dirs = Array.from({ length: job.shards }, (_, i) => shardDir(job.out, i + 1));
  return { out: mergedDir(job.out), ...(await mergeShards(dirs, mergedDir(job.out), loadJob)) };
}
