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
