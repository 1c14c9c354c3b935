// Distribution-free prediction intervals (issue 16) by cross-validation conformal: the training set is split into
// K folds (a fixed pseudo-random partition keyed by n and the seed); each fold is predicted by the method fitted on
// the other folds; the absolute residuals on the model scale (log y on a log response, y otherwise) calibrate the
// interval  ŷ ± q  with q the ⌈(n + 1)·level⌉-th smallest residual (Infinity when that exceeds n: too few points
// for the level). On a log response the interval is multiplicative: [ŷ e^{−q}, ŷ e^{q}].
//
// This is split-conformal with cross-validated residuals (the "CV" rather than the "CV+" variant: one final model,
// the residuals of the K fold models). Its coverage is exact for split conformal and close to nominal here when the
// fold models behave like the final one; cv measures it (`cv --interval`), and test/predict/conformal.test.ts
// checks it on synthetic data within a binomial tolerance.
import { balancedFolds, counterRng } from "../data/random.js";
import { VarmapError } from "../errors.js";
import type { Predictor, PredictorOptions } from "./estimator.js";
import { takeRows, type Matrix } from "./matrix.js";
import { foldModel } from "./registry.js";

/** Folds of the calibration cross-validation in `fit --conformal-folds` (default) and inside each cv division. */
export const CONFORMAL_FOLDS = 10;
export const CV_CONFORMAL_FOLDS = 5;

export interface ConformalCalibration {
  folds: number;
  /** The response scale the residuals are on. */
  response: "linear" | "log";
  /** Absolute cross-validated residuals on the model scale, ascending. */
  residuals: number[];
}

/**
 * The calibration residuals of `method` on (X, y) by K-fold cross-validation; errors of a fold fit propagate.
 * yVar (the responses' sampling variances, as Predictor.fit takes them) goes to every fold fit, so a method that
 * models measured noise (gp) is calibrated as the final model is fitted. `full`, the final model fitted on all of
 * (X, y): a gp's fold models keep its hyperparameters and only re-solve on the fold's rows (Gp.solvedOn, as `auto`'s
 * inner folds do), one O(n³) solve each instead of a hyperparameter search each.
 */
export function calibrate(
  method: string,
  options: PredictorOptions & Record<string, unknown>,
  X: Matrix,
  y: ArrayLike<number>,
  folds = CONFORMAL_FOLDS,
  seed = 0,
  yVar?: ArrayLike<number>,
  full?: Predictor,
): ConformalCalibration {
  const n = X.rows;
  if (!(Number.isInteger(folds) && folds >= 2))
    throw new VarmapError("E_OPTION", `conformal folds must be an integer >= 2, got ${folds}`, { remedy: "e.g. 10 folds" });
  const K = Math.min(folds, n);
  if (K < 2) throw new VarmapError("E_TOO_FEW_POINTS", `conformal calibration needs at least 2 training points, got ${n}`, { remedy: "add configurations" });
  const fold = balancedFolds(n, K, counterRng(seed, "conformal-folds", n));
  const response = options.response ?? "linear";
  const residuals = new Float64Array(n);
  for (let k = 0; k < K; k++) {
    const train: number[] = [],
      test: number[] = [];
    for (let i = 0; i < n; i++) (fold[i] === k ? test : train).push(i);
    const [Xk, yk, vk] = [takeRows(X, train), Float64Array.from(train, (i) => y[i]), yVar && Float64Array.from(train, (i) => yVar[i])];
    const model = foldModel(method, options, Xk, yk, vk, full);
    const pred = model.predict(takeRows(X, test));
    test.forEach((i, t) => (residuals[i] = modelScaleResidual(y[i], pred[t], response)));
  }
  return { folds: K, response, residuals: Array.from(residuals).sort((a, b) => a - b) };
}

/** |y − ŷ| on the model scale. */
export function modelScaleResidual(y: number, pred: number, response: "linear" | "log"): number {
  return response === "log" ? Math.abs(Math.log(y) - Math.log(pred)) : Math.abs(y - pred);
}

/** The conformal half-width at `level`: the ⌈(n + 1)·level⌉-th smallest residual, Infinity beyond n. */
export function conformalHalfWidth(sortedResiduals: readonly number[], level: number): number {
  if (!(level > 0 && level < 1)) throw new VarmapError("E_OPTION", `interval level must be in (0, 1), got ${level}`, { remedy: "e.g. 0.9" });
  const n = sortedResiduals.length;
  const k = Math.ceil((n + 1) * level - 1e-9);
  return k > n ? Infinity : sortedResiduals[k - 1];
}

/** Interval bounds around response-scale predictions for a model-scale half-width q. */
export function conformalInterval(pred: ArrayLike<number>, q: number, response: "linear" | "log"): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(pred.length),
    hi = new Float64Array(pred.length);
  for (let i = 0; i < pred.length; i++) {
    if (response === "log") (lo[i] = pred[i] * Math.exp(-q)), (hi[i] = q === Infinity ? Infinity : pred[i] * Math.exp(q));
    else (lo[i] = pred[i] - q), (hi[i] = pred[i] + q);
  }
  return { lo, hi };
}

/** Fraction of truths inside [lo, hi]. */
export function coverage(truth: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>): number {
  let inside = 0;
  for (let i = 0; i < truth.length; i++) if (truth[i] >= lo[i] && truth[i] <= hi[i]) inside++;
  return truth.length ? inside / truth.length : NaN;
}

/**
 * Calibration for queries of four kinds (issue 41), by how much of the query is new to the training data (noveltyKind):
 * 0 seen (its combination of group levels was measured: the random-fold residuals of `calibrate`); 1 a novel
 * combination of levels each measured on its own; 2 a level of some input never measured, inside its training range;
 * 3 outside the training range of some input. The residuals of kinds 1-3 come from leave-group-out folds of the
 * training data (each fold holds out whole groups, at most `folds` folds); each held-out point's residual goes to its
 * kind with respect to the fold's training rows. A query's half-width is its kind's quantile (an empty kind borrows
 * the nearest harsher kind's, else the nearest milder one's), never narrower than a milder kind's.
 */
export interface GroupedCalibration extends ConformalCalibration {
  /** Sorted residuals of kinds 1, 2, 3. */
  novel: number[];
  newLevel: number[];
  extrapolated: number[];
  /** Inner group folds the novel residuals came from. */
  groupFolds: number;
}

/** Per query row of Q: 1 novel combination of measured levels, 2 an unmeasured level inside the range, 3 outside the range of T's rows (kind 0 is the caller's: a measured combination). */
export function noveltyKind(T: Matrix, Q: Matrix): Uint8Array {
  const d = T.cols;
  const outside = outsideBoxRows(T, Q);
  const levels: Set<number>[] = Array.from({ length: d }, () => new Set());
  for (let i = 0; i < T.rows; i++) for (let j = 0; j < d; j++) levels[j].add(T.data[i * d + j]);
  const out = new Uint8Array(Q.rows);
  for (let i = 0; i < Q.rows; i++) {
    if (outside[i]) {
      out[i] = 3;
      continue;
    }
    out[i] = 1;
    for (let j = 0; j < d; j++)
      if (!levels[j].has(Q.data[i * d + j])) {
        out[i] = 2;
        break;
      }
  }
  return out;
}

export function calibrateGrouped(
  method: string,
  options: PredictorOptions & Record<string, unknown>,
  X: Matrix,
  y: ArrayLike<number>,
  groupOf: ArrayLike<number>,
  folds = CONFORMAL_FOLDS,
  seed = 0,
  yVar?: ArrayLike<number>,
  full?: Predictor,
): GroupedCalibration {
  const seen = calibrate(method, options, X, y, folds, seed, yVar, full);
  const n = X.rows;
  const labels = [...new Set(Array.from(groupOf))].sort((a, b) => a - b);
  const G = labels.length;
  const response = options.response ?? "linear";
  const kinds: number[][] = [[], [], [], []];
  if (G >= 2) {
    // At most `folds` folds of whole groups (a fixed pseudo-random partition of the groups).
    const K = Math.min(folds, G);
    const groupFold = balancedFolds(G, K, counterRng(seed, "conformal-group-folds", G));
    const foldOf = new Map(labels.map((g, i) => [g, groupFold[i]]));
    for (let k = 0; k < K; k++) {
      const train: number[] = [],
        test: number[] = [];
      for (let i = 0; i < n; i++) (foldOf.get(groupOf[i]) === k ? test : train).push(i);
      if (!train.length || !test.length) continue;
      const [Xk, yk, vk] = [takeRows(X, train), Float64Array.from(train, (i) => y[i]), yVar && Float64Array.from(train, (i) => yVar[i])];
      let model: Predictor;
      try {
        model = foldModel(method, options, Xk, yk, vk, full);
      } catch (e) {
        // A fold too small for the method: its groups give no residuals (the others still calibrate).
        if (e instanceof VarmapError) continue;
        throw e;
      }
      const Xt = takeRows(X, test);
      const pred = model.predict(Xt);
      const kind = noveltyKind(Xk, Xt);
      test.forEach((i, t) => kinds[kind[t]].push(modelScaleResidual(y[i], pred[t], response)));
    }
  }
  const sorted = (v: number[]) => v.sort((a, b) => a - b);
  return { ...seen, novel: sorted(kinds[1]), newLevel: sorted(kinds[2]), extrapolated: sorted(kinds[3]), groupFolds: Math.min(folds, G) };
}

/** Per query row of Q, 1 when some input lies outside the range of the rows of T. */
export function outsideBoxRows(T: Matrix, Q: Matrix): Uint8Array {
  const d = T.cols;
  const lo = new Float64Array(d).fill(Infinity),
    hi = new Float64Array(d).fill(-Infinity);
  for (let i = 0; i < T.rows; i++)
    for (let j = 0; j < d; j++) {
      const v = T.data[i * d + j];
      if (v < lo[j]) lo[j] = v;
      if (v > hi[j]) hi[j] = v;
    }
  const out = new Uint8Array(Q.rows);
  for (let i = 0; i < Q.rows; i++)
    for (let j = 0; j < d; j++) {
      const v = Q.data[i * d + j];
      const tol = 1e-12 * Math.max(1, Math.abs(lo[j]), Math.abs(hi[j]));
      if (v < lo[j] - tol || v > hi[j] + tol) {
        out[i] = 1;
        break;
      }
    }
  return out;
}

/** The half-width of each kind 0-3 at `level`: an empty kind borrows the nearest harsher kind's, else the nearest milder one's; monotone in the kind. */
export function groupedHalfWidths(cal: GroupedCalibration, level: number): [number, number, number, number] {
  const sets = [cal.residuals, cal.novel, cal.newLevel, cal.extrapolated];
  const own = sets.map((r) => (r.length ? conformalHalfWidth(r, level) : undefined));
  const q = own.map((x, k) => {
    if (x !== undefined) return x;
    for (let j = k + 1; j < 4; j++) if (own[j] !== undefined) return own[j]!;
    for (let j = k - 1; j >= 0; j--) if (own[j] !== undefined) return own[j]!;
    return Infinity;
  });
  for (let k = 1; k < 4; k++) q[k] = Math.max(q[k], q[k - 1]);
  return q as [number, number, number, number];
}
/** Interval bounds with one half-width per query (its kind's). */
export function conformalIntervalPerQuery(pred: ArrayLike<number>, q: ArrayLike<number>, response: "linear" | "log"): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(pred.length),
    hi = new Float64Array(pred.length);
  for (let i = 0; i < pred.length; i++) {
    const b = conformalInterval([pred[i]], q[i], response);
    lo[i] = b.lo[0];
    hi[i] = b.hi[0];
  }
  return { lo, hi };
}

/** What predict needs to tell a query's novelty kind: the group columns, their measured combinations, every input's measured levels. */
export interface GroupNoveltyInfo {
  columns: string[];
  /** Positions of the group columns among the model's inputs. */
  inputs: number[];
  /** Measured combinations of the group columns' levels (levels joined by "|", each to 10 significant digits). */
  seen: string[];
  /** Per model input, its measured levels (ascending). */
  levels: number[][];
}

/** A conformal calibration with grouped residuals and the novelty information of its training rows (`--conformal-groups`). */
export interface GroupedConformal extends GroupedCalibration {
  groups: GroupNoveltyInfo;
}

const levelKey = (v: number): string => Number(v).toPrecision(10);

/** The novelty information of raw training inputs X for the group columns `columns` (names among `inputNames`). */
export function groupNoveltyInfo(X: Matrix, inputNames: readonly string[], columns: readonly string[]): GroupNoveltyInfo {
  const inputs = columns.map((c) => {
    const j = inputNames.indexOf(c);
    if (j < 0)
      throw new VarmapError("E_LEAVE_OUT", `--conformal-groups names '${c}', which is not an input of the model (${inputNames.join(", ")})`, {
        remedy: "name inputs whose combinations a query may not have measured, e.g. --conformal-groups fsize_kb,rsize_kb",
      });
    return j;
  });
  const seen = new Set<string>();
  const levels: Set<number>[] = Array.from({ length: X.cols }, () => new Set());
  for (let i = 0; i < X.rows; i++) {
    seen.add(inputs.map((j) => levelKey(X.data[i * X.cols + j])).join("|"));
    for (let j = 0; j < X.cols; j++) levels[j].add(X.data[i * X.cols + j]);
  }
  return { columns: [...columns], inputs, seen: [...seen].sort(), levels: levels.map((s) => [...s].sort((a, b) => a - b)) };
}

/** Per raw query: 0 its group combination was measured; else 1-3 as noveltyKind (measured levels / a new level inside the range / outside the range). */
export function queryKinds(info: GroupNoveltyInfo, Xq: Matrix): Uint8Array {
  const seen = new Set(info.seen);
  const sets = info.levels.map((l) => new Set(l));
  const out = new Uint8Array(Xq.rows);
  for (let i = 0; i < Xq.rows; i++) {
    const row = (j: number) => Xq.data[i * Xq.cols + j];
    if (seen.has(info.inputs.map((j) => levelKey(row(j))).join("|"))) continue;
    let kind = 1;
    for (let j = 0; j < Xq.cols; j++) {
      const l = info.levels[j];
      const v = row(j);
      const tol = 1e-12 * Math.max(1, Math.abs(l[0]), Math.abs(l[l.length - 1]));
      if (v < l[0] - tol || v > l[l.length - 1] + tol) {
        kind = 3;
        break;
      }
      if (!sets[j].has(v)) kind = 2;
    }
    out[i] = kind;
  }
  return out;
}

/** `fit`/`refit --conformal-groups`: grouped calibration on the training rows, groups = combinations of `columns`. */
export function calibrateForGroups(
  method: string,
  options: PredictorOptions & Record<string, unknown>,
  X: Matrix,
  y: ArrayLike<number>,
  inputNames: readonly string[],
  columns: readonly string[],
  folds = CONFORMAL_FOLDS,
  seed = 0,
  yVar?: ArrayLike<number>,
  full?: Predictor,
): GroupedConformal {
  const info = groupNoveltyInfo(X, inputNames, columns);
  const ids = new Map(info.seen.map((k, i) => [k, i]));
  const groupOf = Array.from({ length: X.rows }, (_, i) => ids.get(info.inputs.map((j) => levelKey(X.data[i * X.cols + j])).join("|"))!);
  return { ...calibrateGrouped(method, options, X, y, groupOf, folds, seed, yVar, full), groups: info };
}
