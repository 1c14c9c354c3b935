// How many CPUs this process may use: the default worker count. On a cluster node a task gets some of the
// machine's cores, not all of them: Slurm says how many in SLURM_CPUS_PER_TASK (and, with task/affinity or
// cgroups, also restricts the process's CPU affinity). os.availableParallelism() is libuv's count of the CPUs in
// the process's affinity mask on Linux (sched_getaffinity; checked: `taskset -c 0 node -e
// "console.log(os.availableParallelism())"` prints 1 on a 2-core machine), elsewhere the number of CPUs. Without
// task/affinity Slurm leaves the mask whole, so SLURM_CPUS_PER_TASK bounds it too.
import { availableParallelism } from "node:os";

export interface CpuBudget {
  cpus: number;
  /** What decided it, for notes: "SLURM_CPUS_PER_TASK=2", "CPU affinity". */
  source: string;
}

export function cpuBudget(env: NodeJS.ProcessEnv = process.env): CpuBudget {
  const affinity = Math.max(1, availableParallelism());
  const raw = env.SLURM_CPUS_PER_TASK;
  const granted = raw !== undefined && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (granted >= 1 && granted < affinity) return { cpus: granted, source: `SLURM_CPUS_PER_TASK=${raw!.trim()}` };
  return { cpus: affinity, source: "CPU affinity" };
}

/** The default --workers: one worker thread per CPU granted to this process. */
export function defaultWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return cpuBudget(env).cpus;
}
