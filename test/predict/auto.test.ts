// The auto predictor chooses by inner cross-validation on the training data only.
import { describe, expect, it } from "vitest";
import { AutoMethod } from "../../ts/predict/auto.js";
import { matrix } from "../../ts/predict/matrix.js";
import { counterRng } from "../../ts/data/random.js";
import { expectCode } from "./conformance.js";
import { Gp } from "../../ts/predict/gp.js";

function sample(n: number, f: (a: number, b: number) => number) {
  const r = counterRng(3, "auto-test", n);
  const X = Float64Array.from({ length: 2 * n }, () => r.next());
  return { X: matrix(X, n, 2), y: Float64Array.from({ length: n }, (_, i) => f(X[2 * i], X[2 * i + 1])) };
}

describe("auto predictor", () => {
  it("picks the candidate with the lowest inner-CV ARE and reports every candidate's score", () => {
    const { X, y } = sample(80, (a, b) => 2 + a + 0.5 * b); // exactly linear: lr is exact
    const m = new AutoMethod({ candidates: ["mars", "lr", "lsp"] }).fit(X, y);
    const { chosen, scores } = m.choice;
    expect(Object.keys(scores).sort()).toEqual(["lr", "lsp", "mars"]);
    const best = Object.entries(scores).reduce((a, b) => (b[1]! < a[1]! ? b : a));
    expect(chosen).toBe(best[0]);
    expect(scores.lr!).toBeLessThan(1e-10);
  });

  it("a nonlinear surface is not given to lr", () => {
    const { X, y } = sample(120, (a, b) => 2 + Math.sin(6 * a) + b * b);
    const m = new AutoMethod({ candidates: ["lr", "rbf"] }).fit(X, y);
    expect(m.choice.chosen).toBe("rbf");
    expect(m.choice.scores.rbf!).toBeLessThan(m.choice.scores.lr!);
  });

  it("gp as a candidate: one hyperparameter search, its folds solved at those hyperparameters, the same model kept", () => {
    const { X, y } = sample(90, (a, b) => 2 + Math.sin(6 * a) + b * b);
    const m = new AutoMethod({ candidates: ["lr", "gp"] }).fit(X, y);
    expect(m.choice.chosen).toBe("gp");
    expect(m.choice.scores.gp!).toBeLessThan(m.choice.scores.lr!);
    // The kept model is the gp fitted on all training rows: the same predictions as a gp fitted directly.
    const q = sample(7, (a) => a).X;
    const ref = new Gp().fit(X, y).predict(q);
    m.predict(q).forEach((v, i) => expect(v).toBeCloseTo(ref[i], 10));
  });

  it("Gp.solvedOn keeps the hyperparameters and reproduces a fit of the same rows at them", () => {
    const { X, y } = sample(60, (a, b) => 1 + Math.cos(4 * a) * b);
    const gp = new Gp().fit(X, y);
    const again = gp.solvedOn(X, y);
    expect(again.hyperparametersFitted.lengthScales).toEqual(gp.hyperparametersFitted.lengthScales);
    const q = sample(5, (a) => a).X;
    const a = gp.predict(q),
      b = again.predict(q);
    a.forEach((v, i) => expect(b[i]).toBeCloseTo(v, 12));
  });

  it("refuses itself or an unknown method as a candidate", () => {
    expectCode(() => new AutoMethod({ candidates: ["auto"] }), "E_OPTION");
    expectCode(() => new AutoMethod({ candidates: ["nope"] }), "E_METHOD");
    expectCode(() => new AutoMethod({ folds: 1 }), "E_OPTION");
  });
});
