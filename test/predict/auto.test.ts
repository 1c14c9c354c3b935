// The auto predictor chooses by inner cross-validation on the training data only.
import { describe, expect, it } from "vitest";
import { AutoMethod } from "../../ts/predict/auto.js";
import { matrix } from "../../ts/predict/matrix.js";
import { counterRng } from "../../ts/data/random.js";
import { expectCode } from "./conformance.js";

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

  it("refuses itself or an unknown method as a candidate", () => {
    expectCode(() => new AutoMethod({ candidates: ["auto"] }), "E_OPTION");
    expectCode(() => new AutoMethod({ candidates: ["nope"] }), "E_METHOD");
    expectCode(() => new AutoMethod({ folds: 1 }), "E_OPTION");
  });
});
