// gp's hyperparameter search (issue 46): on a large search set every start is screened on a subset of the training
// rows and only the best are refined on the whole search set, reaching a likelihood and predictions close to the
// unscreened search at a fraction of the likelihood evaluations; given θ (an earlier fit's, same rows) the fit skips
// the search and reproduces that fit's predictions exactly.
import { describe, expect, it } from "vitest";
import { counterRng } from "../../ts/data/random.js";
import { Gp, GP_SCREEN_POINTS } from "../../ts/predict/gp.js";
import { Hybrid } from "../../ts/predict/hybrid.js";
import { matrix } from "../../ts/predict/matrix.js";
import { expectCode } from "./conformance.js";

function sample(n: number, seed: number, noise: number) {
  const r = counterRng(seed, "gp-search-test", n);
  const X = Float64Array.from({ length: 3 * n }, () => r.next());
  const f = (a: number, b: number, c: number) => Math.sin(3 * a) + 0.5 * b * b + 0.2 * c;
  const truth = Float64Array.from({ length: n }, (_, i) => f(X[3 * i], X[3 * i + 1], X[3 * i + 2]));
  const y = Float64Array.from(truth, (v) => v + noise * r.normal());
  return { X: matrix(X, n, 3), y, truth };
}

const rmse = (a: Float64Array, b: Float64Array): number => Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]) ** 2, 0) / a.length);
const evaluations = (gp: Gp): number => gp.lastSearch!.stages.reduce((s, st) => s + st.evaluations * st.points ** 3, 0);

describe("gp hyperparameter search", () => {
  const noise = 0.05;
  const train = sample(2 * GP_SCREEN_POINTS + 20, 3, noise),
    test = sample(200, 4, 0);

  it("screens every start on a subset, refines the best on the search set: likelihood within 1 %, RMSE below the noise, under half the O(n³) work", () => {
    const screened = new Gp({ inputs: { kind: "none" } }).fit(train.X, train.y);
    const full = new Gp({ inputs: { kind: "none" }, screenPoints: 100000 }).fit(train.X, train.y);
    const st = screened.lastSearch!.stages;
    expect(st[0]).toMatchObject({ points: GP_SCREEN_POINTS, starts: 4 });
    expect(st[1].points).toBe(train.X.rows);
    expect(full.lastSearch!.stages).toHaveLength(1);
    expect(full.lastSearch!.stages[0]).toMatchObject({ points: train.X.rows, starts: 4 });
    const a = screened.hyperparametersFitted.nll,
      b = full.hyperparametersFitted.nll;
    expect(Math.abs(a - b)).toBeLessThanOrEqual(0.01 * Math.abs(b));
    expect(rmse(screened.predict(test.X), test.truth)).toBeLessThan(noise);
    expect(rmse(full.predict(test.X), test.truth)).toBeLessThan(noise);
    // Work in units of n³ (one likelihood evaluation with its gradient is O(n³)).
    expect(evaluations(screened)).toBeLessThan(0.5 * evaluations(full));
  });

  it("given an earlier fit's θ on the same rows: no search, the same predictions to the bit; a θ of the wrong length is E_OPTION", () => {
    const first = new Gp({ inputs: { kind: "none" } }).fit(train.X, train.y);
    const again = new Gp({ inputs: { kind: "none" }, theta: first.thetaFitted }).fit(train.X, train.y);
    expect(again.lastSearch!.stages).toHaveLength(0);
    expect(Array.from(again.predict(test.X))).toEqual(Array.from(first.predict(test.X)));
    expect(again.hyperparametersFitted.notes).toContain("hyperparameters given: no search");
    // The saved model records the fitted θ in its state, not as an option.
    expect(again.toJSON().options).not.toHaveProperty("theta");
    expectCode(() => new Gp({ inputs: { kind: "none" }, theta: [0, 0] }).fit(train.X, train.y), "E_OPTION");
  });

  it("hybrid given its seen gp's θ (cv's interval calibration): the same predictions to the bit, θ not saved as an option", () => {
    const small = sample(60, 5, noise);
    const first = new Hybrid({ inputs: { kind: "none" } }).fit(small.X, small.y);
    const seenTheta = first.seenTheta!;
    expect(seenTheta).toHaveLength(4);
    const again = new Hybrid({ inputs: { kind: "none" }, seenTheta }).fit(small.X, small.y);
    expect(Array.from(again.predict(test.X))).toEqual(Array.from(first.predict(test.X)));
    expect(again.toJSON().options).not.toHaveProperty("seenTheta");
  });
});
