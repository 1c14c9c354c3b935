// `varmap cv --target distribution` on the job engine: one task per (map, division), journal, shards and merge.
// The plan, tasks, task runner and writer are in ts/distribution/cv-job.ts.
import type { JobDefinition } from "../pool/job.js";
import {
  DIST_CV_FILES,
  DIST_CV_VERB,
  distCvTasks,
  runDistCvTask,
  writeDistCv,
  type DistCvContext,
  type DistCvPlan,
  type DistCvTask,
} from "../distribution/cv-job.js";

export const job: JobDefinition<DistCvPlan, DistCvTask, DistCvContext> = {
  verb: DIST_CV_VERB,
  module: import.meta.url,
  tasks: distCvTasks,
  run: runDistCvTask,
  files: () => DIST_CV_FILES,
  write: writeDistCv,
};
