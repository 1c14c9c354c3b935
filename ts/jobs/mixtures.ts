// Refit's mixture tasks: all (family, k) mixtures of a chunk of configurations in one batched kernel call per
// family (ts/mixture/fit.ts), keyed by the global configuration index so results do not depend on the chunking.
import { fitMixtures } from "../mixture/fit.js";
import { chooseGuarded, parseGuard } from "../mixture/select.js";
import type { FamilyName } from "../mixture/families.js";
import type { MixtureOptions } from "./refit.js";

/** Every configuration's runs in shared memory (offsets per configuration) and each configuration's key columns. */
export interface MixRuns {
  runs: Float64Array;
  offsets: Int32Array;
  keys: string[][];
}

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
    /** The chosen model: BIC-best, among guard-eligible fits when the plan has a guard. */
    best: MixBest | null;
    /** BIC of every (family, k), families in the plan's order, k = 1..kmax. */
    bic: (number | null)[];
  }[];
}

/** The mixtures of configurations c0..c1−1 (global indices key the random starts). */
export function fitMixtureChunk(data: MixRuns, m: MixtureOptions, c0: number, c1: number): MixResult {
  const { runs, offsets, keys } = data;
  const base = offsets[c0];
  const off = new Int32Array(c1 - c0 + 1);
  for (let c = c0; c <= c1; c++) off[c - c0] = offsets[c] - base;
  const ids = Int32Array.from({ length: c1 - c0 }, (_, i) => c0 + i);
  const fit = fitMixtures(runs.subarray(base, offsets[c1]), off, {
    families: m.families as FamilyName[],
    kmax: m.kmax,
    seed: m.seed,
    starts: m.starts,
    priorStrength: m.priorStrength || undefined,
    configIds: ids,
  });
  const guard = parseGuard(m.guard ?? "off");
  const out: MixResult = { configs: [] };
  const perConfig = m.families.length * m.kmax;
  for (let i = 0; i < ids.length; i++) {
    const rows = fit.rows.slice(i * perConfig, (i + 1) * perConfig);
    const x = runs.subarray(offsets[c0 + i], offsets[c0 + i + 1]);
    const b = guard.on ? rows[chooseGuarded(rows, x, "bic", guard)] : rows.find((r) => r.best);
    out.configs.push({
      key: keys[c0 + i],
      n: off[i + 1] - off[i],
      best: b
        ? {
            family: b.family,
            k: b.k,
            loglik: b.loglik,
            bic: b.bic,
            iterations: b.iterations,
            converged: b.converged,
            floorBound: b.floorBound,
            params: b.params,
          }
        : null,
      bic: rows.map((r) => (Number.isFinite(r.bic) ? r.bic : null)),
    });
  }
  return out;
}
