// Building a job's plan without running it: `probePlan(f)` runs `f` (a verb's whole action: options, data, plan)
// and stops it inside runJob, after the plan and the shard's task list are built and before anything is written
// (no store, no lock, no journal). `varmap slurm submit` checks a verb's arguments this way, so a value the verb
// would refuse (an unknown method, --reps -3, a missing column) is refused at submit, not by every array task.
import { AsyncLocalStorage } from "node:async_hooks";

export interface PlanProbe {
  /** Tasks of the whole job and of the probed shard. */
  tasks: number;
  shardTasks: number;
  manifest: Record<string, unknown>;
}

const probe = new AsyncLocalStorage<{ found?: PlanProbe }>();

/** Thrown by runJob under probePlan once the plan is built; caught by probePlan. */
class PlanBuilt extends Error {}

/** Called by runJob once the plan is built: under probePlan, records it and stops the verb there. */
export function planBuilt(found: PlanProbe): void {
  const store = probe.getStore();
  if (!store) return;
  store.found = found;
  throw new PlanBuilt("plan built (probe)");
}

/**
 * Runs `f` until its job's plan is built. Returns the plan's size, or undefined when `f` ended without starting a
 * job (the verb's form that runs outside the engine); rethrows what the verb throws before (its own errors).
 */
export async function probePlan(f: () => Promise<unknown>): Promise<PlanProbe | undefined> {
  const store: { found?: PlanProbe } = {};
  try {
    await probe.run(store, f);
  } catch (e) {
    if (!(e instanceof PlanBuilt)) throw e;
  }
  return store.found;
}
