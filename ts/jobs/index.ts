// Every job verb, by the name its plans record: `varmap merge` finds a shard directory's writer here.
import { VarmapError } from "../errors.js";
import type { AnyJob } from "../pool/job.js";
import { job as cv } from "./cv.js";
import { job as refit } from "./refit.js";
import { job as whatif } from "./whatif.js";
import { job as gev } from "./gev.js";
import { job as interference } from "./interference.js";
import { job as distributionCv } from "./distribution-cv.js";
import { job as samplesize } from "./samplesize.js";
import { job as convergence } from "./convergence.js";
import { job as mixture } from "./mixture.js";

export const JOBS: readonly AnyJob[] = [cv, refit, whatif, gev, interference, distributionCv, samplesize, convergence, mixture];

export function jobFor(verb: string): AnyJob {
  const def = JOBS.find((j) => j.verb === verb);
  if (!def)
    throw new VarmapError("E_MERGE", `the output directory holds a '${verb}' job, which this varmap does not know`, {
      remedy: "merge it with the varmap version that wrote it",
    });
  return def;
}
