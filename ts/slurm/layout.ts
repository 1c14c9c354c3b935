// Where `varmap slurm submit` puts things in the output directory, and the record of what it submitted:
//   <out>/slurm/job.json        the submission: verb, arguments, shard count, paths, sbatch options, job ids
//   <out>/slurm/array.sh        the array job script: one task per shard (#SBATCH --array=1-N)
//   <out>/slurm/merge.sh        the merge job script (submitted with --dependency=afterany on the array)
//   <out>/slurm/logs/           shard-<index>-<array job id>.log, merge-<job id>.log
//   <out>/shards/<i>/           shard i's output directory (journal, results.jsonl)
//   <out>/merged/               the merged outputs: what one unsharded run writes
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { VarmapError } from "../errors.js";
import { writeFileAtomic } from "../data/atomic.js";

export interface SbatchOptions {
  partition?: string;
  time?: string;
  cpusPerTask: number;
  mem?: string;
  account?: string;
  qos?: string;
  /** Further `#SBATCH` options, verbatim (e.g. "--constraint=avx2"). */
  extra: string[];
}

export interface Submission {
  at: string;
  /** Array task indices submitted ("1-4", "2,3"). */
  indices: string;
  arrayJob: string;
  mergeJob: string;
}

export interface SlurmJob {
  format: "varmap-slurm";
  version: 1;
  verb: string;
  /** The verb's arguments, without --out/--shard/--shards (the scripts add those). */
  args: string[];
  shards: number;
  out: string;
  cwd: string;
  node: string;
  entry: string;
  sbatch: SbatchOptions;
  /** The merge job's own #SBATCH options (--merge-sbatch); it inherits only partition, account, qos, time and mem. */
  mergeSbatch?: string[];
  /** At most this many array tasks run at once (the `%N` of --array). */
  maxRunning?: number;
  /** Shell lines run before varmap in both scripts (e.g. `module load nodejs`). */
  setup?: string[];
  submissions: Submission[];
  /**
   * Set by readJob when the directory read is not the one recorded at submit (moved or copied): the recorded path,
   * which the scripts and the queued tasks still write into. `out` is then the directory given.
   */
  submittedAs?: string;
}

export const slurmDir = (out: string): string => join(out, "slurm");
export const jobFile = (out: string): string => join(out, "slurm", "job.json");
export const arrayScript = (out: string): string => join(out, "slurm", "array.sh");
export const mergeScript = (out: string): string => join(out, "slurm", "merge.sh");
export const logDir = (out: string): string => join(out, "slurm", "logs");
export const shardDir = (out: string, i: number | string): string => join(out, "shards", String(i));
export const mergedDir = (out: string): string => join(out, "merged");

export function readJob(out: string): SlurmJob {
  const path = jobFile(out);
  if (!existsSync(path))
    throw new VarmapError("E_SLURM_JOB", `${out} holds no job submitted by varmap slurm (no ${path})`, {
      remedy: "give the --out directory of `varmap slurm submit`",
    });
  try {
    const j = JSON.parse(readFileSync(path, "utf8")) as SlurmJob;
    if (j.format !== "varmap-slurm" || !Number.isInteger(j.shards)) throw new Error("not a varmap-slurm job file");
    // Everything is read from the directory given, not from the path recorded at submit (a moved or copied job).
    const here = resolve(out);
    if (typeof j.out === "string" && resolve(j.out) !== here) {
      let same = false;
      try {
        same = realpathSync(j.out) === realpathSync(here); // the same directory through a symbolic link
      } catch {
        /* the recorded one is gone (moved) */
      }
      if (!same) j.submittedAs = j.out;
    }
    j.out = here;
    return j;
  } catch (e) {
    throw new VarmapError("E_SLURM_JOB", `${path} is damaged: ${(e as Error).message}`, { remedy: "submit the job again into a new --out directory" });
  }
}

export function writeJob(job: SlurmJob): void {
  const { submittedAs: _moved, ...record } = job;
  writeFileAtomic(jobFile(job.out), JSON.stringify(record, null, 2) + "\n");
}
