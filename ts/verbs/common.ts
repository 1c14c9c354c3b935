// What every verb of ts/verbs/ shares: the run options of a job (typed; the CLI parses them in ts/cli/flags.ts),
// the method list check, loading the maps of a dataset.
import { VarmapError } from "../errors.js";
import { loadDataset, type Dataset, type LoadOptions } from "../data/load.js";
import type { JobOptions, JobSummary } from "../pool/job.js";

export type { JobSummary };
import type { Shard } from "../pool/plan.js";
import { parseWorkers } from "../pool/pool.js";

// The run options' parsers, defined where the engine checks them too; the CLI takes them from here.
export { parseWorkers };
export { parseShardOptions } from "../pool/shard.js";
import { METHOD_NAMES } from "../predict/registry.js";

/** How a verb on the engine runs: workers, one shard of the tasks, resume, progress. */
export interface RunOptions {
  /** Worker threads; 0 = this thread; default: the CPUs granted to this process. */
  workers?: number;
  /** Only this slice of the tasks (`varmap merge` combines the slices' directories). */
  shard?: Shard;
  /** Keep the results already in the output directory (default true). */
  resume?: boolean;
  /** No progress or notes on stderr. */
  quiet?: boolean;
}

/** The engine's options for a job written into `out`. */
export function jobOptions(run: RunOptions, out: string, label: string): JobOptions {
  return {
    out,
    shard: run.shard,
    workers: run.workers ?? parseWorkers(undefined),
    resume: run.resume !== false,
    quiet: !!run.quiet,
    label,
  };
}

/** A method list: names from the predictor registry (or `extra`), at least one, each once (`given`: the flag's text). */
export function checkMethods(ms: string[], extra: readonly string[] = [], given: string | undefined = ms.join(",")): string[] {
  if (!ms.length) throw new VarmapError("E_USAGE", "no methods given", { remedy: `pass --methods with some of ${METHOD_NAMES.join(", ")}` });
  for (const m of ms)
    if (!METHOD_NAMES.includes(m) && !extra.includes(m))
      throw new VarmapError("E_METHOD", `unknown method '${m}'`, { remedy: `use some of ${[...METHOD_NAMES, ...extra].join(", ")}` });
  if (new Set(ms).size !== ms.length) throw new VarmapError("E_USAGE", `--methods lists a method twice: ${given}`, { remedy: "list each method once" });
  return ms;
}

/** The dataset, with at least one variability map. */
export async function loadMaps(file: string, load: LoadOptions): Promise<Dataset> {
  const ds = await loadDataset(file, load);
  if (!ds.maps.length)
    throw new VarmapError("E_EMPTY", `${file} yields no variability maps`, { location: { file }, remedy: "check --where and the column flags" });
  return ds;
}

/** "host_sched=CFQ, vm_sched=NOOP" (or "(the only map)") for messages. */
export function describeKey(key: Record<string, string>): string {
  const parts = Object.entries(key).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(", ") : "(the only map)";
}
