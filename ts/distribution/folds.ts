// `cv --target distribution --folds k` (spec E.3): k-fold cross-validation over a map's configurations. The folds
// are keyed by (seed, map): a random permutation of the map's rows from the counter-based generator, dealt round
// robin into k folds of sizes differing by at most one, so they do not depend on workers, shards or task order.
import { balancedFolds, counterRng } from "../data/random.js";
import { seedKey } from "../data/option-values.js";

/** Fold of each of n rows: position in a seeded permutation, modulo k. */
export function foldAssignment(n: number, k: number, seed: string | number, map: string): Int32Array {
  return balancedFolds(n, k, counterRng(seedKey(seed), "cv-folds", map));
}

/** The training rows (every other fold) and test rows (fold f) of one fold, ascending. */
export function foldDivision(n: number, k: number, f: number, seed: string | number, map: string): { train: Int32Array; test: Int32Array } {
  const fold = foldAssignment(n, k, seed, map);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  return { train: all.filter((r) => fold[r] !== f), test: all.filter((r) => fold[r] === f) };
}
