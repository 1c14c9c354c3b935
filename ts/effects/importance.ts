// Model-based importance of a map's inputs for a fitted model (issue 45 item 1): permutation importance (as
// scikit-learn's permutation_importance, scored by the increase in mean absolute relative error, ARE), partial
// dependence curves (as sklearn.inspection.partial_dependence / R plotmo: the mean prediction with one input set to
// each grid value over the map's configurations), the gp's length scales and the inputs' use in MARS terms.
import { counterRng, type RngKey } from "../data/random.js";
import { matrix } from "../predict/matrix.js";
import type { Predictor } from "../predict/estimator.js";
import { Gp } from "../predict/gp.js";
import { Mars } from "../predict/mars.js";

export interface InputImportance {
  input: string;
  /** Mean over repeats of ARE(permuted) − ARE(intact), as a fraction (0.05 = 5 percentage points). */
  importance: number;
  /** Standard deviation of that increase over the repeats. */
  importanceSd: number;
  /** gp: the fitted length scale on the normalized input (small = relevant); NaN otherwise. */
  lengthScale: number;
  /** MARS: the number of selected terms that use the input (earth's evimp counts pruning subsets instead); NaN otherwise. */
  marsTerms: number;
}

export interface PdPoint {
  input: string;
  value: number;
  prediction: number;
}

function are(p: Float64Array, y: ArrayLike<number>): number {
  let s = 0;
  let k = 0;
  for (let i = 0; i < y.length; i++) {
    if (!Number.isFinite(p[i]) || y[i] === 0) continue;
    s += Math.abs(p[i] - y[i]) / Math.abs(y[i]);
    k++;
  }
  return k ? s / k : Number.NaN;
}

/**
 * Importance of each input of `model` on the configurations X (rows × inputs.length, raw values in the model's input
 * order) with measured statistic y. Permutations come from counterRng(seed, ...key, input, repeat).
 */
export function inputImportance(
  model: Predictor,
  inputs: string[],
  X: Float64Array,
  y: ArrayLike<number>,
  opts: { repeats: number; seed: RngKey; key: RngKey[] },
): InputImportance[] {
  const d = inputs.length;
  const rows = y.length;
  const base = are(model.predict(matrix(X, rows, d)), y);
  const gpScales = model instanceof Gp ? model.hyperparametersFitted.lengthScales : undefined;
  const marsCounts = model instanceof Mars ? inputs.map((_, j) => model.terms.filter((t) => t.dirs[j] !== 0).length) : undefined;
  return inputs.map((input, j) => {
    const inc: number[] = [];
    for (let r = 0; r < opts.repeats; r++) {
      const rng = counterRng(opts.seed, "importance", ...opts.key, input, r);
      const perm = Array.from({ length: rows }, (_, i) => i);
      for (let i = rows - 1; i > 0; i--) {
        const k = rng.int(i + 1);
        [perm[i], perm[k]] = [perm[k], perm[i]];
      }
      const Xp = Float64Array.from(X);
      for (let i = 0; i < rows; i++) Xp[i * d + j] = X[perm[i] * d + j];
      inc.push(are(model.predict(matrix(Xp, rows, d)), y) - base);
    }
    const mean = inc.reduce((a, b) => a + b, 0) / inc.length;
    const sd = inc.length > 1 ? Math.sqrt(inc.reduce((a, b) => a + (b - mean) ** 2, 0) / (inc.length - 1)) : Number.NaN;
    return {
      input,
      importance: mean,
      importanceSd: sd,
      lengthScale: gpScales ? gpScales[j] : Number.NaN,
      marsTerms: marsCounts ? marsCounts[j] : Number.NaN,
    };
  });
}

/** The grid of an input: its distinct values when there are at most `maxPoints`, else that many quantiles. */
export function pdGrid(values: ArrayLike<number>, maxPoints = 25): number[] {
  const u = [...new Set(Array.from(values))].sort((a, b) => a - b);
  if (u.length <= maxPoints) return u;
  return Array.from({ length: maxPoints }, (_, k) => u[Math.round((k * (u.length - 1)) / (maxPoints - 1))]);
}

/** Partial dependence of the model's prediction on each input: the mean prediction over the rows with input j set to v. */
export function partialDependence(model: Predictor, inputs: string[], X: Float64Array, rows: number, maxPoints = 25): PdPoint[] {
  const d = inputs.length;
  const out: PdPoint[] = [];
  inputs.forEach((input, j) => {
    const col = Float64Array.from({ length: rows }, (_, i) => X[i * d + j]);
    for (const v of pdGrid(col, maxPoints)) {
      const Xv = Float64Array.from(X);
      for (let i = 0; i < rows; i++) Xv[i * d + j] = v;
      const p = model.predict(matrix(Xv, rows, d));
      let s = 0;
      let k = 0;
      for (const q of p)
        if (Number.isFinite(q)) {
          s += q;
          k++;
        }
      out.push({ input, value: v, prediction: k ? s / k : Number.NaN });
    }
  });
  return out;
}
