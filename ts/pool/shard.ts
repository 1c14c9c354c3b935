// Which slice of a job's tasks this run does. `--shard i/N` names it; `--shard auto --shards N` takes i from the
// batch scheduler's array index, with N given explicitly (Slurm's SLURM_ARRAY_TASK_COUNT is the number of tasks
// *submitted*, so `sbatch --array=2` to rerun one task would make it shard 2/1). The index must lie in 1..N: an
// array numbered 0-3 or 1-8:2 is an error, not a silent mis-shard.
import { VarmapError } from "../errors.js";
import type { Shard } from "./plan.js";

/** Environment variables holding an array task's index, in the order they are tried; `base` = the first index. */
export const ARRAY_INDEX_VARS: readonly { name: string; scheduler: string; base: 0 | 1 }[] = [
  { name: "SLURM_ARRAY_TASK_ID", scheduler: "Slurm (sbatch --array=1-N)", base: 1 },
  { name: "PBS_ARRAY_INDEX", scheduler: "PBS Pro (qsub -J 1-N)", base: 1 },
  { name: "LSB_JOBINDEX", scheduler: "LSF (bsub -J 'name[1-N]')", base: 1 },
  { name: "JOB_COMPLETION_INDEX", scheduler: "a Kubernetes indexed Job (0-based: index k is shard k+1)", base: 0 },
];

const SHARD_REMEDY = "e.g. --shard 2/8, or in a job array --shard auto --shards 8 (with the array numbered 1-8)";

/** A positive shard count from --shards; undefined when absent. */
export function parseShardCount(v: string | number | undefined): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!(n >= 1) || !Number.isSafeInteger(n))
    throw new VarmapError("E_USAGE", `--shards '${v}' is not a positive integer`, {
      remedy: "give the number of shards the job is split into, e.g. --shards 8",
    });
  return n;
}

function checkIndex(index: number, count: number, from: string): Shard {
  if (!Number.isSafeInteger(index) || index < 1 || index > count)
    throw new VarmapError("E_SHARD_INDEX", `shard index ${index} (${from}) is outside 1..${count}`, {
      remedy: `number the job array 1-${count} (one task per shard), or rerun one shard with an index in 1..${count}`,
    });
  return { index, count };
}

/** The index of this array task from the scheduler's environment, as a 1-based shard index, and where it came from. */
export function arrayIndexFromEnv(env: NodeJS.ProcessEnv = process.env): { index: number; from: string } | undefined {
  for (const v of ARRAY_INDEX_VARS) {
    const raw = env[v.name];
    if (raw === undefined || raw === "") continue;
    if (!/^\s*\d+\s*$/.test(raw))
      throw new VarmapError("E_SHARD_INDEX", `${v.name}='${raw}' is not an array index`, {
        remedy: `run --shard auto only inside a job array of ${v.scheduler}`,
      });
    const k = Number(raw);
    return { index: k + 1 - v.base, from: `${v.name}=${raw}${v.base === 0 ? ", 0-based" : ""}` };
  }
  return undefined;
}

/**
 * The shard of this run from --shard and --shards: undefined = the whole job. Accepted forms: `--shard i/N`
 * (with --shards, N must agree), `--shard i --shards N`, `--shard auto --shards N` (i from the environment).
 */
export function parseShardOptions(shard: string | undefined, shards: string | number | undefined, env: NodeJS.ProcessEnv = process.env): Shard | undefined {
  const count = parseShardCount(shards);
  if (shard === undefined || shard.trim() === "") {
    if (count !== undefined)
      throw new VarmapError("E_USAGE", "--shards needs --shard (which of the shards this run is)", {
        remedy: `add --shard auto (in a job array) or --shard i with 1 ≤ i ≤ ${count}`,
      });
    return undefined;
  }
  const s = shard.trim();
  if (s === "auto") {
    if (count === undefined)
      throw new VarmapError("E_USAGE", "--shard auto needs --shards N (the number of shards)", {
        remedy: "add --shards N with N the size of the job array; it is not read from the scheduler, so rerunning one task keeps the same N",
      });
    const found = arrayIndexFromEnv(env);
    if (!found)
      throw new VarmapError("E_SHARD_INDEX", "--shard auto found no array index in the environment", {
        remedy: `run it as a job array task (${ARRAY_INDEX_VARS.map((v) => v.name).join(", ")}), or give --shard i/${count}`,
      });
    return checkIndex(found.index, count, found.from);
  }
  const m = /^(\d+)(?:\s*\/\s*(\d+))?$/.exec(s);
  if (!m) throw new VarmapError("E_USAGE", `--shard '${shard}' is not of the form i/N, i (with --shards N) or auto`, { remedy: SHARD_REMEDY });
  const index = Number(m[1]);
  if (m[2] === undefined && count === undefined)
    throw new VarmapError("E_USAGE", `--shard ${s} does not say how many shards there are`, { remedy: `write --shard ${s}/N, or add --shards N` });
  const n = m[2] !== undefined ? Number(m[2]) : count!;
  if (n < 1) throw new VarmapError("E_USAGE", `--shard '${shard}' has N = ${n}; N must be at least 1`, { remedy: SHARD_REMEDY });
  if (count !== undefined && n !== count)
    throw new VarmapError("E_USAGE", `--shard ${s} disagrees with --shards ${count}`, { remedy: `give the shard count once: --shard ${index}/${count}` });
  return checkIndex(index, n, `--shard ${s}`);
}
