// The Piscina worker of every job. It receives the job definition's module and context once (workerData: the
// context's big arrays in SharedArrayBuffers) and then batches of tasks; the kernel backend is the one
// VARMAP_BACKEND selects, in each worker alike. A VarmapError crosses back as a plain record (code, location,
// remedy) that the main thread turns into the same error, so a user's mistake exits 2 whichever thread found it.
import { workerData } from "piscina";
import { isVarmapError } from "../errors.js";
import type { AnyJob, JobTask } from "./job.js";

const { module, ctx } = workerData as { module: string; ctx: unknown };
// Imported on the first batch (no top-level await: Piscina may load this file with require).
let definition: Promise<AnyJob> | undefined;

function importJob(): Promise<AnyJob> {
  // From TypeScript sources (tests), a dynamic import inside a worker does not pass through tsx's hooks: ask tsx.
  const load = module.endsWith(".ts")
    ? import("tsx/esm/api" as string).then((tsx: { tsImport(url: string, parent: string): Promise<unknown> }) => tsx.tsImport(module, import.meta.url))
    : import(module);
  return load.then((m) => (m as { job: AnyJob }).job);
}

export default async function run(batch: JobTask[]): Promise<unknown> {
  const def = await (definition ??= importJob());
  try {
    return batch.map((t) => def.run(ctx, t));
  } catch (e) {
    if (isVarmapError(e)) return { varmapError: { code: e.code, message: e.detail, location: e.location, remedy: e.remedy } };
    throw e;
  }
}
