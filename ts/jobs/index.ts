// Every job verb's definition, found by the name its plans record: the job of verb V is `export const job` of
// ts/jobs/V.ts. `varmap merge` and `slurm status` find a directory's job here, so a new job verb registers nothing.
import { VarmapError } from "../errors.js";
import type { AnyJob } from "../pool/job.js";

/** The job definition of a plan's `verb` (imported on demand). */
export async function loadJob(verb: string): Promise<AnyJob> {
  const unknown = () =>
    new VarmapError("E_MERGE", `the output directory holds a '${verb}' job, which this varmap does not know`, {
      remedy: "merge it with the varmap version that wrote it",
    });
  // The name comes from a manifest on disk: only a plain file name of this folder is looked up.
  if (!/^[a-z][a-z0-9-]*$/.test(verb) || verb === "index") throw unknown();
  let file: { job?: AnyJob };
  try {
    file = (await import(/* @vite-ignore */ `./${verb}.js`)) as { job?: AnyJob };
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === "ERR_MODULE_NOT_FOUND" || /Cannot find module|Failed to load url/.test(String(e))) throw unknown();
    throw e;
  }
  if (file.job?.verb !== verb) throw unknown();
  return file.job;
}
