// Refit's mixture tasks: all (family, k) mixtures of a chunk of configurations in one batched kernel call per
// family (ts/mixture/fit.ts), keyed by the global configuration index so results do not depend on the chunking.
import { fitMixtures } from "../mixture/fit.js";
import type { FamilyName } from "../mixture/families.js";
import type { Task } from "./plan.js";
import type { WorkContext } from "./work.js";

export interface MixBest {
  family: string;
  k: number;
  loglik: number;
  bic: number;
  iterations: number;
  converged: boolean;
  floorBound: boolean;
  params: Record<string, number[]>;
}

export interface MixResult {
  configs: {
    /** The configuration's factor and input values. */
    key: string[];
    n: number;
    best: MixBest | null;
    /** BIC of every (family, k), families in the plan's order, k = 1..kmax. */
    bic: (number | null)[];
  }[];
}

export function fitMixtureChunk(ctx: WorkContext, task: Extract<Task, { kind: "mix" }>): MixResult {
  const plan = ctx.plan;
  if (plan.verb !== "refit" || !plan.mixtures || !ctx.runs) throw new Error(`internal: mixture task ${task.id} without runs`);
  const { runs, offsets, keys } = ctx.runs;
  const base = offsets[task.c0];
  const off = new Int32Array(task.c1 - task.c0 + 1);
  for (let c = task.c0; c <= task.c1; c++) off[c - task.c0] = offsets[c] - base;
  const ids = Int32Array.from({ length: task.c1 - task.c0 }, (_, i) => task.c0 + i);
  const fit = fitMixtures(runs.subarray(base, offsets[task.c1]), off, {
    families: plan.mixtures.families as FamilyName[],
    kmax: plan.mixtures.kmax,
    seed: plan.mixtures.seed,
    starts: plan.mixtures.starts,
    configIds: ids,
  });
  const out: MixResult = { configs: [] };
  const perConfig = plan.mixtures.families.length * plan.mixtures.kmax;
  for (let i = 0; i < ids.length; i++) {
    const rows = fit.rows.slice(i * perConfig, (i + 1) * perConfig);
    const b = rows.find((r) => r.best);
    out.configs.push({
      key: keys[task.c0 + i],
      n: off[i + 1] - off[i],
      best: b
        ? { family: b.family, k: b.k, loglik: b.loglik, bic: b.bic, iterations: b.iterations, converged: b.converged, floorBound: b.floorBound, params: b.params }
        : null,
      bic: rows.map((r) => (Number.isFinite(r.bic) ? r.bic : null)),
    });
  }
  return out;
}
