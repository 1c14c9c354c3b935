// `varmap synth` on the engine's workers (issue 39: one worker mechanism): a task writes one part file of the CSV
// (a range of maps, ts/data/synth.ts); the verb concatenates the parts in order, so the bytes do not depend on the
// worker count. Not a resumable job: the parts are temporary files, written without an output directory.
import { writeSynthPartOf, type SynthPart } from "../data/synth.js";
import type { JobContext, JobDefinition, JobPlan } from "../pool/job.js";
import { runTasks } from "../pool/pool.js";
import { silentProgress } from "../pool/progress.js";

export interface SynthJobPlan extends JobPlan {
  verb: "synth";
  parts: SynthPart[];
}
type SynthTask = SynthPart & { id: string };

export const job: JobDefinition<SynthJobPlan, SynthTask, JobContext<SynthJobPlan>> = {
  verb: "synth",
  module: import.meta.url,
  tasks: (plan) => plan.parts.map((p, k) => ({ ...p, id: `synth/${k}` })),
  run: (_ctx, task) => writeSynthPartOf(task),
  files: () => [],
  write: () => ({}),
};

/** Writes the parts on `workers` threads of the engine's pool; `done` gets each part's configurations. */
export async function writeSynthParts(parts: SynthPart[], workers: number, done: (configurations: number) => void): Promise<void> {
  const plan: SynthJobPlan = { format: "varmap-job", version: 1, verb: "synth", fingerprint: "", parts };
  const finished = new Map<string, unknown>();
  const sink = {
    done: finished,
    append: (records: readonly { id: string; result: unknown }[]) =>
      records.forEach((r) => {
        finished.set(r.id, r.result);
        done(r.result as number);
      }),
  };
  await runTasks(job, { plan }, job.tasks(plan), sink, { workers, progress: silentProgress });
}
