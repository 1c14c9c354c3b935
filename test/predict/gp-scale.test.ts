// gp at any response scale (issue 44, item 15): responses near 1e160 overflowed σ² (y²) inside the likelihood kernel
// (E_KERNEL_INTERNAL, "this is a bug") and near 1e-160 lost their digits to subnormals. The fit now divides such
// responses by a power of two (exact) and multiplies predictions back, so they are scale-equivariant; responses of
// usual magnitude are not touched (the same bits as before).
import { describe, expect, it } from "vitest";
import { type Gp, GP_SAFE_EXPONENT, responseExponent } from "../../ts/predict/gp.js";
import { modelScaleVariances } from "../../ts/predict/estimator.js";
import { fromRows } from "../../ts/predict/matrix.js";
import { createPredictor, predictorFromJSON } from "../../ts/predict/registry.js";

const pts: number[][] = [];
const ys: number[] = [];
let seed = 11;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
for (let i = 0; i < 40; i++) {
  const x1 = 10 * rnd(),
    x2 = 5 * rnd();
  pts.push([x1, x2]);
  ys.push(3 + Math.sin(x1) + 0.2 * x2 + 0.01 * rnd());
}
const X = fromRows(pts);
const Q = fromRows([
  [5, 2],
  [1, 1],
  [7, 3],
  [11, 6],
]);

describe("gp response scale", () => {
  const base = createPredictor("gp", {}).fit(X, ys).predict(Q);
  for (const f of [1e160, 1e-160, 1e298, 1e-300])
    it(`responses × ${f}: predictions × ${f} (relative 1e-6), and the saved model predicts the same`, () => {
      const model = createPredictor("gp", {}).fit(
        X,
        ys.map((v) => v * f),
      );
      const p = model.predict(Q);
      for (let i = 0; i < Q.rows; i++) expect(Math.abs(p[i] / f / base[i] - 1), `query ${i}`).toBeLessThan(1e-6);
      expect(Array.from(predictorFromJSON(model.toJSON()).predict(Q))).toEqual(Array.from(p));
      // The interval scales too (its sd is multiplied back, not squared at the response's scale).
      const { lo, hi } = (model as Gp).predictInterval(Q, 0.9);
      for (let i = 0; i < Q.rows; i++) expect(Number.isFinite(lo[i]) && Number.isFinite(hi[i]) && lo[i] < p[i] && p[i] < hi[i]).toBe(true);
    });

  it("responses of usual magnitude are fitted as given (no scale recorded)", () => {
    expect(responseExponent(ys.map((v) => v * 1e5))).toBe(0);
    expect(responseExponent([2 ** GP_SAFE_EXPONENT * 1.5])).toBe(0);
    expect(responseExponent([2 ** (GP_SAFE_EXPONENT + 1)])).toBe(GP_SAFE_EXPONENT + 1);
    expect(responseExponent([1e-160])).toBe(Math.floor(Math.log2(1e-160)));
    const json = createPredictor("gp", {}).fit(X, ys).toJSON() as { state: { yScale?: number } };
    expect(json.state.yScale).toBeUndefined();
  });

  it("measured variances that over- or underflowed (responses near 1e±160) are unknown, not weights", () => {
    const y = Float64Array.from([1, 2, 3]);
    expect(modelScaleVariances(y, [0.1, 0.2, 0.3], "linear")).toBeDefined();
    expect(modelScaleVariances(y, [0, 0.2, 0.3], "linear")).toBeDefined();
    expect(modelScaleVariances(y, [1e-312, 0.2, 0.3], "linear")).toBeUndefined();
    expect(modelScaleVariances(y, [Infinity, 0.2, 0.3], "linear")).toBeUndefined();
    expect(modelScaleVariances(y, [NaN, 0.2, 0.3], "linear")).toBeUndefined();
  });

  it("gp says so when measured variances were given but cannot be used at this scale", () => {
    const lost = (f: number) => {
      const y = ys.map((v) => v * f);
      const yVar = y.map((v) => (0.01 * v) ** 2); // overflows to Infinity at 1e160
      const model = createPredictor("gp", {}).fit(X, y, yVar) as Gp;
      return model.hyperparametersFitted.notes.some((n) => n.includes("measured variances do not fit in a double"));
    };
    expect(lost(1)).toBe(false);
    expect(lost(1e160)).toBe(true);
  });
});
