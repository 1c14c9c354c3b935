// Shards: a shard i/N of a job takes every N-th task starting at the i-th, so shards are balanced across maps and
// methods and their union is exactly the task list (jobs list their tasks in a fixed order with stable ids).
import { VarmapError } from "../errors.js";

export interface Shard {
  index: number; // 1-based
  count: number;
}

export function parseShard(s: string | undefined): Shard | undefined {
  if (s === undefined) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(s);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count)
    throw new VarmapError("E_USAGE", `--shard '${s}' is not of the form i/N with 1 ≤ i ≤ N`, {
      remedy: "e.g. --shard 2/8, or under Slurm --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT with --array=1-N",
    });
  return { index, count };
}

export function shardTasks<T>(tasks: readonly T[], shard: Shard | undefined): T[] {
  if (!shard || shard.count === 1) return [...tasks];
  return tasks.filter((_, i) => i % shard.count === shard.index - 1);
}
