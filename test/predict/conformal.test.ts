// Conformal intervals on synthetic data: over independent replicates the empirical coverage of the 90% and 80%
// intervals is the nominal level within a binomial tolerance (3.5 standard errors of the pooled coverage).
import { describe, expect, it } from "vitest";
import { calibrate, conformalHalfWidth, conformalInterval, coverage } from "../../ts/predict/conformal.js";
import { createPredictor } from "../../ts/predict/registry.js";
import { matrix, takeRows, type Matrix } from "../../ts/predict/matrix.js";
import type { Predictor } from "../../ts/predict/estimator.js";
import { balancedFolds, counterRng } from "../../ts/data/random.js";
import { mapInputScaling } from "../../ts/cv/split.js";
import type { Gp } from "../../ts/predict/gp.js";

function data(n: number, seed: number, rep: number, log: boolean) {
  const r = counterRng(seed, "conformal-test", rep, n);
  const X = Float64Array.from({ length: 2 * n }, () => r.next());
  const y = Float64Array.from({ length: n }, (_, i) => {
    const f = 1 + 2 * X[2 * i] - X[2 * i + 1] + 0.5 * Math.sin(5 * X[2 * i + 1]);
    return log ? Math.exp(0.5 * f + 0.2 * r.normal()) : f + 0.3 * r.normal();
  });
  return { X: matrix(X, n, 2), y };
}

const pick = (a: Float64Array, idx: number[]) => Float64Array.from(idx, (i) => a[i]);

/** calibrate's residuals on a log response, recomputed: each fold predicted by `fitFold` on the other folds' rows, ascending. */
function foldResiduals(X: Matrix, y: Float64Array, K: number, seed: number, fitFold: (train: number[]) => Predictor): number[] {
  const n = y.length;
  const fold = balancedFolds(n, K, counterRng(seed, "conformal-folds", n));
  const out: number[] = [];
  for (let k = 0; k < K; k++) {
    const train = [...Array(n).keys()].filter((i) => fold[i] !== k),
      test = [...Array(n).keys()].filter((i) => fold[i] === k);
    const pred = fitFold(train).predict(takeRows(X, test));
    test.forEach((i, t) => out.push(Math.abs(Math.log(y[i]) - Math.log(pred[t]))));
  }
  return out.sort((a, b) => a - b);
}

describe("conformal intervals", () => {
  it("half-width is the ⌈(n+1)·level⌉-th smallest residual, Infinity beyond n", () => {
    const res = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
    expect(conformalHalfWidth(res, 0.9)).toBe(0.9); // ⌈10 · 0.9⌉ = 9
    expect(conformalHalfWidth(res, 0.5)).toBe(0.5);
    expect(conformalHalfWidth(res.slice(0, 5), 0.9)).toBe(Infinity); // ⌈6 · 0.9⌉ = 6 > 5
    expect(() => conformalHalfWidth(res, 1)).toThrow(/level/);
  });

  for (const [method, log] of [
    ["lr", false],
    ["mars", true],
  ] as const)
    for (const level of [0.9, 0.8])
      it(`${method} (${log ? "log" : "linear"} response): coverage at ${level} is nominal within 3.5 binomial standard errors`, () => {
        const reps = 20,
          nTrain = 120,
          nTest = 200;
        let inside = 0;
        for (let rep = 0; rep < reps; rep++) {
          const train = data(nTrain, 1, rep, log),
            test = data(nTest, 2, rep, log);
          const opts = { response: log ? ("log" as const) : ("linear" as const), inputs: mapInputScaling({ log2: [false, false], lo: [0, 0], hi: [1, 1] }) };
          const cal = calibrate(method, opts, train.X, train.y, 10, rep);
          const pred = createPredictor(method, opts).fit(train.X, train.y).predict(test.X);
          const { lo, hi } = conformalInterval(pred, conformalHalfWidth(cal.residuals, level), opts.response);
          inside += coverage(test.y, lo, hi) * nTest;
        }
        const cov = inside / (reps * nTest);
        // The coverage of one calibration is Beta-distributed (sd √(level(1−level)/(n+2))); pooled over reps plus test noise.
        const se = Math.sqrt((level * (1 - level)) / (nTrain + 2) / reps + (level * (1 - level)) / (reps * nTest));
        expect(Math.abs(cov - level), `coverage ${cov}`).toBeLessThanOrEqual(3.5 * se + 1 / (nTrain + 1));
      });

  it("the fold fits get the training rows' measured variances (gp is calibrated as it is fitted)", () => {
    const n = 40;
    const { X, y } = data(n, 3, 0, true);
    // Measured variances that differ 30-fold between points, as a map's jackknife variances do.
    const yVar = Float64Array.from(y, (v, i) => v * v * (i % 3 === 0 ? 0.03 : 0.001));
    const opts = { response: "log" as const, inputs: mapInputScaling({ log2: [false, false], lo: [0, 0], hi: [1, 1] }), restarts: 1 };
    const K = 4;
    const cal = calibrate("gp", opts, X, y, K, 7, yVar);
    const expected = foldResiduals(X, y, K, 7, (train) => createPredictor("gp", opts).fit(takeRows(X, train), pick(y, train), pick(yVar, train)));
    expect(cal.residuals).toEqual(expected);
    // Without them the fold fits are the one-nugget model: other residuals.
    expect(calibrate("gp", opts, X, y, K, 7).residuals).not.toEqual(cal.residuals);
  });

  it("given the final gp, its fold models keep the final hyperparameters and re-solve on the fold's rows", () => {
    const n = 40;
    const { X, y } = data(n, 4, 0, true);
    const yVar = Float64Array.from(y, (v, i) => v * v * (i % 3 === 0 ? 0.03 : 0.001));
    const opts = { response: "log" as const, inputs: mapInputScaling({ log2: [false, false], lo: [0, 0], hi: [1, 1] }), restarts: 1 };
    const K = 4;
    const full = createPredictor("gp", opts).fit(X, y, yVar) as Gp;
    const cal = calibrate("gp", opts, X, y, K, 7, yVar, full);
    const expected = foldResiduals(X, y, K, 7, (train) => full.solvedOn(takeRows(X, train), pick(y, train), pick(yVar, train)));
    expect(cal.residuals).toEqual(expected);
    // Fold fits with their own hyperparameter searches give other residuals.
    expect(calibrate("gp", opts, X, y, K, 7, yVar).residuals).not.toEqual(cal.residuals);
  });

  it("gp calibrated with its final hyperparameters: coverage at 0.9 is nominal within 3.5 binomial standard errors", () => {
    const reps = 12,
      nTrain = 100,
      nTest = 200,
      level = 0.9;
    let inside = 0;
    for (let rep = 0; rep < reps; rep++) {
      const train = data(nTrain, 5, rep, true),
        test = data(nTest, 6, rep, true);
      const opts = { response: "log" as const, inputs: mapInputScaling({ log2: [false, false], lo: [0, 0], hi: [1, 1] }), restarts: 2 };
      const full = createPredictor("gp", opts).fit(train.X, train.y);
      const cal = calibrate("gp", opts, train.X, train.y, 10, rep, undefined, full);
      const { lo, hi } = conformalInterval(full.predict(test.X), conformalHalfWidth(cal.residuals, level), "log");
      inside += coverage(test.y, lo, hi) * nTest;
    }
    const cov = inside / (reps * nTest);
    const se = Math.sqrt((level * (1 - level)) / (nTrain + 2) / reps + (level * (1 - level)) / (reps * nTest));
    expect(Math.abs(cov - level), `coverage ${cov}`).toBeLessThanOrEqual(3.5 * se + 1 / (nTrain + 1));
  });
});
