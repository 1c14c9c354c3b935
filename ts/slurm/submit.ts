// `varmap slurm submit` and `varmap slurm merge`: check the verb's command line here (before anything is
// written or queued), write job.json and the two scripts into the output directory, submit the array and the
// merge (afterany), record the job ids. The merge job merges only when every shard is done.
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CommanderError, type Command } from "commander";
import { VarmapError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import { writeFileAtomic } from "../data/atomic.js";
import { mergeShards } from "../pool/merge.js";
import { jobFor } from "../jobs/index.js";
import { parseShardCount } from "../pool/shard.js";
import { arrayScript, jobFile, logDir, mergedDir, mergeScript, readJob, shardDir, writeJob, type SbatchOptions, type SlurmJob } from "./layout.js";
import { requireSbatch, sbatch } from "./scheduler.js";
import { arrayScriptText, mergeScriptText } from "./script.js";
import { indexRanges, jobStatus, statusText } from "./status.js";

/** Flags of the verb that `slurm submit` sets itself. */
const RESERVED = ["--out", "--shard", "--shards", "--no-resume"];

export interface SubmitRequest {
  verb: string;
  args: string[];
  shards: string | number | undefined;
  out: string | undefined;
  sbatch: Omit<SbatchOptions, "cpusPerTask" | "extra"> & { cpusPerTask?: string | number; extra?: string[] };
  dryRun: boolean;
}

/** A verb can be sharded when it takes --shard and --shards (the job verbs: cv, refit). */
function shardable(cmd: Command): boolean {
  return cmd.options.some((o) => o.long === "--shard") && cmd.options.some((o) => o.long === "--shards");
}

/**
 * Checks the verb's command line with the verb's own definition, taken from `program` (a fresh program with every
 * verb registered, parsed only here; no action runs), so usage errors surface before anything is written or queued.
 */
function checkVerbArgs(program: Command, verb: string, args: readonly string[]): void {
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
    if (RESERVED.includes(flag))
      throw new VarmapError("E_USAGE", `${flag} is set by varmap slurm submit, not given to ${verb}`, {
        remedy: flag === "--out" || flag === "--shards" ? `give ${flag} to slurm submit (before or after the verb's arguments)` : `drop ${flag}`,
      });
  }
  const silent = { writeErr: () => {}, writeOut: () => {} };
  for (const c of [program, ...program.commands]) c.exitOverride().configureOutput(silent);
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
}

function positive(name: string, v: string | number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new VarmapError("E_USAGE", `${name} '${v}' is not a positive integer`, { remedy: `e.g. ${name} ${dflt}` });
  return n;
}

/** Validates a submission and builds its job record (nothing written yet). */
export function planSubmission(req: SubmitRequest, program: Command): SlurmJob {
  const verb = req.verb;
  if (req.shards === undefined)
    throw new VarmapError("E_USAGE", "slurm submit needs --shards N", { remedy: "e.g. --shards 16: the job runs as an array of 16 tasks" });
  const shards = parseShardCount(req.shards)!;
  if (!req.out)
    throw new VarmapError("E_USAGE", "slurm submit needs --out <dir>", { remedy: "the shards, the scripts, the logs and the merged outputs all go there" });
  checkVerbArgs(program, verb, req.args);
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
    submissions: [],
  };
}

export interface SubmitResult {
  job: SlurmJob;
  arrayScript: string;
  mergeScript: string;
  submitted?: { arrayJob: string; mergeJob: string };
}

/** `program`: a fresh `varmap` program with every verb registered, whose definitions check the verb's arguments. */
export function submit(req: SubmitRequest, program: Command): SubmitResult {
  const job = planSubmission(req, program);
  if (!req.dryRun) requireSbatch(); // before writing anything
  mkdirSync(logDir(job.out), { recursive: true });
  mkdirSync(join(job.out, "shards"), { recursive: true });
  writeFileAtomic(arrayScript(job.out), arrayScriptText(job));
  writeFileAtomic(mergeScript(job.out), mergeScriptText(job));
  chmodSync(arrayScript(job.out), 0o755);
  chmodSync(mergeScript(job.out), 0o755);
  writeJob(job);
  const result: SubmitResult = { job, arrayScript: arrayScript(job.out), mergeScript: mergeScript(job.out) };
  if (req.dryRun) return result;
  const arrayJob = sbatch(arrayScript(job.out));
  const mergeJob = sbatch(mergeScript(job.out), [`--dependency=afterany:${arrayJob}`]);
  job.submissions.push({ at: new Date().toISOString(), indices: `1-${job.shards}`, arrayJob, mergeJob });
  writeJob(job);
  result.submitted = { arrayJob, mergeJob };
  return result;
}

/** `varmap slurm merge <out>`: the merge job's work. Merges into <out>/merged when every shard is done, else says what to rerun. */
export function mergeSubmitted(outArg: string): ReturnType<typeof mergeShards> & { out: string } {
  const job = readJob(resolve(outArg));
  const st = jobStatus(job);
  const notDone = st.shards.filter((s) => s.state !== "done");
  if (notDone.length) {
    process.stderr.write(statusText(job, st));
    const waiting = notDone.filter((s) => s.state === "running" || s.state === "pending").map((s) => s.index);
    throw new VarmapError("E_SHARDS_INCOMPLETE", `shard(s) ${indexRanges(notDone.map((s) => s.index))} of ${job.shards} not done: nothing merged`, {
      remedy: st.resubmitCommand
        ? `resubmit them and a new merge with: ${st.resubmitCommand}`
        : `shard(s) ${indexRanges(waiting)} are still queued or running; a merge job submitted after them (afterany) will merge`,
    });
  }
  const dirs = Array.from({ length: job.shards }, (_, i) => shardDir(job.out, i + 1));
  return { out: mergedDir(job.out), ...mergeShards(dirs, mergedDir(job.out), jobFor) };
}
