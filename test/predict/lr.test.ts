import { describe, expect, it } from "vitest";
import { LinearRegression } from "../../ts/predict/lr.js";
import { matrix } from "../../ts/predict/matrix.js";
import { selected } from "../helpers/backends.js";

// The conformance suite runs on every registered predictor in registry-conformance.test.ts.

describe(`LinearRegression on ${selected.name}`, () => {
  it("recovers an exact linear function and predicts it anywhere", () => {
    const X = matrix(Float64Array.from([0, 0, 1, 0, 0, 1, 2, 3, 5, 1]), 5, 2);
    const y = Float64Array.from([0, 1, 2, 3, 5].map((_, i) => 3 + 2 * X.data[2 * i] - 0.5 * X.data[2 * i + 1]));
    const p = new LinearRegression().fit(X, y).predict(matrix(Float64Array.from([10, -4]), 1, 2));
    expect(p[0]).toBeCloseTo(3 + 20 + 2, 10);
  });

  it("gives the least-squares fit of noisy data (normal equations hold)", () => {
    const xs = [0, 1, 2, 3, 4, 5];
    const ys = [1.1, 2.9, 5.2, 7.1, 8.8, 11.3];
    const p = new LinearRegression({ inputs: { kind: "none" } }).fit(matrix(Float64Array.from(xs), 6, 1), ys).predict(matrix(Float64Array.from(xs), 6, 1));
    const res = ys.map((y, i) => y - p[i]);
    expect(Math.abs(res.reduce((a, b) => a + b, 0))).toBeLessThan(1e-12);
    expect(Math.abs(res.reduce((a, r, i) => a + r * xs[i], 0))).toBeLessThan(1e-12);
  });

  it("handles a constant input (collinear with the intercept) with the minimum-norm fit", () => {
    const X = matrix(Float64Array.from([0, 7, 1, 7, 2, 7, 3, 7]), 4, 2);
    const p = new LinearRegression().fit(X, [1, 3, 5, 7]).predict(matrix(Float64Array.from([4, 7]), 1, 2));
    expect(p[0]).toBeCloseTo(9, 10);
  });
});

describe("linear regression on extreme responses", () => {
  it("fits responses near 1e300 as the same model scaled (no NaN coefficients from overflowing norms)", async () => {
    const { LinearRegression: LR } = await import("../../ts/predict/lr.js");
    const X = { data: Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.2]), rows: 5, cols: 2 };
    const y = [1, 2, 3, 4.5, 2.2];
    const base = new LR({ inputs: { kind: "none" } }).fit(X, y).coefficients;
    const big = new LR({ inputs: { kind: "none" } }).fit(
      X,
      y.map((v) => v * 1e300),
    ).coefficients;
    big.forEach((c, i) => expect(Math.abs(c / 1e300 - base[i])).toBeLessThan(1e-12 * Math.max(1, Math.abs(base[i]))));
  });
});

describe("a map without a varying input", () => {
  it("says so (E_NO_INPUTS) instead of reporting a 1×0 matrix", async () => {
    const { LinearRegression: LR } = await import("../../ts/predict/lr.js");
    let code = "";
    try {
      new LR().fit({ data: new Float64Array(0), rows: 3, cols: 0 }, [1, 2, 3]);
    } catch (e) {
      code = (e as { code?: string }).code ?? "";
    }
    expect(code).toBe("E_NO_INPUTS");
  });
});
