// Leave-one-group-out cross-validation (issue 41): the question of the MOANA paper (seed 000 §4, Table 3) is how
// well a model predicts a combination of settings nobody measured, e.g. one (file size, record size) pair with all
// its thread counts and frequencies. A group is a distinct combination of the levels of the group columns (inputs
// of the map, or factors: a factor has one level per map); each division holds out one group (or, with folds, a
// fold of whole groups) and trains on every other configuration of the map. Pure functions of the map's inputs.
import { counterRng } from "../data/random.js";
import { seedKey } from "../data/option-values.js";

/** How a value of a group column prints in a label: integers as they are, others to 9 significant digits. */
export function levelText(v: number | string): string {
  if (typeof v === "string") return v;
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(9)));
}

export interface MapGroups {
  /** Group labels in ascending order of their levels ("fsize_kb=256;rsize_kb=32"). */
  labels: string[];
  /** Per row, its group's index into labels. */
  of: Int32Array;
  /** Rows per group. */
  sizes: number[];
}

/**
 * The groups of a map: rows × cols inputs X (row-major), the group columns as input positions (or a fixed value:
 * a factor's level in this map). Groups sort by their levels, numeric levels numerically.
 */
export function mapGroups(X: ArrayLike<number>, rows: number, cols: number, columns: readonly { name: string; input?: number; value?: string }[]): MapGroups {
  const keyOf = (r: number): (number | string)[] => columns.map((c) => (c.input !== undefined ? X[r * cols + c.input] : (c.value ?? "")));
  const byKey = new Map<string, { levels: (number | string)[]; rows: number[] }>();
  for (let r = 0; r < rows; r++) {
    const levels = keyOf(r);
    const k = JSON.stringify(levels);
    let g = byKey.get(k);
    if (!g) byKey.set(k, (g = { levels, rows: [] }));
    g.rows.push(r);
  }
  const groups = [...byKey.values()].sort((a, b) => {
    for (let i = 0; i < columns.length; i++) {
      const x = a.levels[i],
        y = b.levels[i];
      if (x === y) continue;
      if (typeof x === "number" && typeof y === "number") return x - y;
      return String(x) < String(y) ? -1 : 1;
    }
    return 0;
  });
  const of = new Int32Array(rows);
  groups.forEach((g, i) => {
    for (const r of g.rows) of[r] = i;
  });
  return {
    labels: groups.map((g) => columns.map((c, i) => `${c.name}=${levelText(g.levels[i])}`).join(";")),
    of,
    sizes: groups.map((g) => g.rows.length),
  };
}

/**
 * The fold of each group: one fold per group without `folds`; else K folds of whole groups, a pseudo-random
 * balanced assignment keyed by (seed, map label): a pure function of its key.
 */
export function groupFolds(groups: number, folds: number | undefined, seed: string | number, map: string): Int32Array {
  const fold = new Int32Array(groups);
  if (folds === undefined || folds >= groups) {
    for (let g = 0; g < groups; g++) fold[g] = g;
    return fold;
  }
  const rng = counterRng(seedKey(seed), "group-folds", map);
  const perm = Array.from({ length: groups }, (_, i) => i);
  for (let i = groups - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  perm.forEach((g, i) => (fold[g] = i % folds));
  return fold;
}

/** The divisions of a map: per fold, its test rows (the fold's groups) and training rows (every other row), ascending. */
export function groupDivisions(g: MapGroups, fold: Int32Array): { train: Int32Array; test: Int32Array }[] {
  const K = fold.length ? Math.max(...fold) + 1 : 0;
  const out: { train: Int32Array; test: Int32Array }[] = [];
  for (let k = 0; k < K; k++) {
    const train: number[] = [],
      test: number[] = [];
    for (let r = 0; r < g.of.length; r++) (fold[g.of[r]] === k ? test : train).push(r);
    out.push({ train: Int32Array.from(train), test: Int32Array.from(test) });
  }
  return out;
}

/**
 * Whether the rows `test` lie outside the training range of some input (their levels are not bracketed by the
 * training rows' levels): predicting them is an extrapolation, not an interpolation between measured settings.
 * Returns the names of the inputs concerned (empty: inside).
 */
export function extrapolatedInputs(X: ArrayLike<number>, cols: number, names: readonly string[], train: ArrayLike<number>, test: ArrayLike<number>): string[] {
  const out: string[] = [];
  for (let j = 0; j < cols; j++) {
    let lo = Infinity,
      hi = -Infinity;
    for (let i = 0; i < train.length; i++) {
      const v = X[train[i] * cols + j];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    for (let i = 0; i < test.length; i++) {
      const v = X[test[i] * cols + j];
      if (v < lo - 1e-12 * Math.abs(lo) || v > hi + 1e-12 * Math.abs(hi)) {
        out.push(names[j]);
        break;
      }
    }
  }
  return out;
}

/**
 * Kendall's τ-b between two orderings of the same items (ties counted as in τ-b); NaN with fewer than 2 items or
 * when one side is constant.
 */
export function kendallTau(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  let concordant = 0,
    discordant = 0,
    tiesA = 0,
    tiesB = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const da = Math.sign(a[i] - a[j]),
        db = Math.sign(b[i] - b[j]);
      if (da === 0 && db === 0) continue;
      if (da === 0) tiesA++;
      else if (db === 0) tiesB++;
      else if (da === db) concordant++;
      else discordant++;
    }
  const denom = Math.sqrt((concordant + discordant + tiesA) * (concordant + discordant + tiesB));
  return denom > 0 ? (concordant - discordant) / denom : NaN;
}

/**
 * Per query, whether its combination of levels of the group columns `groupCols` (input positions) occurs among
 * the training rows (Xtrain) — 0 — or not — 1 (a novel combination). Levels compare to 1e-9 relative.
 */
export function novelByGroups(
  Xtrain: ArrayLike<number>,
  ntrain: number,
  Xq: ArrayLike<number>,
  nq: number,
  cols: number,
  groupCols: readonly number[],
): Uint8Array {
  const key = (X: ArrayLike<number>, r: number): string => groupCols.map((j) => Number(X[r * cols + j]).toPrecision(10)).join("|");
  const seen = new Set<string>();
  for (let r = 0; r < ntrain; r++) seen.add(key(Xtrain, r));
  const out = new Uint8Array(nq);
  for (let r = 0; r < nq; r++) out[r] = seen.has(key(Xq, r)) ? 0 : 1;
  return out;
}

/** The smallest number of training rows a pair of inputs must hold per measured combination for a missing one to count as novel. */
export const NOVEL_PAIR_DENSITY = 4;

/**
 * Novelty without named group columns: a query is novel when, for some pair of inputs, its combination of their
 * levels never occurs in training while the combinations that do occur hold at least NOVEL_PAIR_DENSITY training
 * rows each on average (the training data measures that pair densely, but not this combination: a held-out
 * (file size, record size) pair). A sparse random sample (few rows per combination) marks nothing novel.
 */
export function novelByPairs(Xtrain: ArrayLike<number>, ntrain: number, Xq: ArrayLike<number>, nq: number, cols: number): Uint8Array {
  const out = new Uint8Array(nq);
  const lv = (X: ArrayLike<number>, r: number, j: number): string => Number(X[r * cols + j]).toPrecision(10);
  for (let a = 0; a < cols; a++)
    for (let b = a + 1; b < cols; b++) {
      const counts = new Map<string, number>();
      for (let r = 0; r < ntrain; r++) {
        const k = `${lv(Xtrain, r, a)}|${lv(Xtrain, r, b)}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      if (counts.size < 2 || ntrain / counts.size < NOVEL_PAIR_DENSITY) continue;
      for (let r = 0; r < nq; r++) if (!counts.has(`${lv(Xq, r, a)}|${lv(Xq, r, b)}`)) out[r] = 1;
    }
  return out;
}
