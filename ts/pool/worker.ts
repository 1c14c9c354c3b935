// The Piscina worker. It receives the job context once (workerData: the maps in SharedArrayBuffers, the plan)
// and then batches of tasks; the kernel backend is the one VARMAP_BACKEND selects, in each worker alike.
import { workerData } from "piscina";
import type { Task } from "./plan.js";
import { runTask, type WorkContext } from "./work.js";

const ctx = workerData as WorkContext;

export default function run(batch: Task[]): unknown[] {
  return batch.map((t) => runTask(ctx, t));
}
