// Far queries (issue 44, item 14): a query a million times the data's range away, or at ±1e300, used to come back
// NaN from lsp, rbf and gp (their squared distances overflow) with nothing saying why, and its distance column was
// Infinity. Now every method answers finitely, flagged extrapolated and clamped, and queries near the data are
// predicted exactly as before.
import { describe, expect, it } from "vitest";
import { interpolationWeights } from "../../ts/distribution/weights.js";
import { FAR_QUERY_RADIUS } from "../../ts/predict/estimator.js";
import { fromRows } from "../../ts/predict/matrix.js";
import { createPredictor, predictorFromJSON } from "../../ts/predict/registry.js";

// 30 points on [0, 10] × [0, 5] (a fixed pseudo-random design), y = 3 + sin x1 + 0.2 x2.
const pts: number[][] = [];
const ys: number[] = [];
let seed = 7;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
for (let i = 0; i < 30; i++) {
  const x1 = 10 * rnd(),
    x2 = 5 * rnd();
  pts.push([x1, x2]);
  ys.push(3 + Math.sin(x1) + 0.2 * x2 + 0.01 * rnd());
}
const X = fromRows(pts);
const near = [
  [5, 2],
  [12, 6],
];
const far = [
  [1e7, 2],
  [5, 5e6],
  [1e300, -1e300],
  [-1e300, 1e300],
  [1e154, 1e154],
  [1e200, 3],
];
const Q = fromRows([...near, ...far]);

describe("far queries", () => {
  for (const method of ["lsp", "rbf", "gp", "hybrid", "auto", "lr", "mars"])
    for (const response of ["linear", "log"] as const)
      it(`${method} (${response} response): finite, extrapolated and clamped far away; unchanged near the data`, () => {
        const model = createPredictor(method, { response }).fit(X, ys);
        const t = model.predictTrusted(Q);
        for (let i = 0; i < Q.rows; i++) {
          expect(Number.isFinite(t.values[i]), `${method} query ${i}: ${t.values[i]}`).toBe(true);
          expect(Number.isFinite(t.distance[i]), `distance ${i}: ${t.distance[i]}`).toBe(true);
        }
        for (let i = near.length; i < Q.rows; i++) {
          expect(t.extrapolated[i]).toBe(1);
          expect(t.clamped[i]).toBe(1);
        }
        // The distance of a query at 1e300 is its distance in normalized units (each input over its training range).
        const range = (j: number) => Math.max(...pts.map((p) => p[j])) - Math.min(...pts.map((p) => p[j]));
        expect(t.distance[near.length + 2] / Math.hypot(1e300 / range(0), 1e300 / range(1))).toBeCloseTo(1, 6);
        // Near queries: the same bits as when predicted alone, and the saved model predicts the same far values.
        const alone = model.predict(fromRows(near));
        for (let i = 0; i < near.length; i++) expect(t.values[i]).toBe(alone[i]);
        expect(Array.from(predictorFromJSON(model.toJSON()).predict(Q))).toEqual(Array.from(t.values));
      });

  it("a far query is predicted at FAR_QUERY_RADIUS: gp there is its mean function, clamped", () => {
    const gp = createPredictor("gp", {}).fit(X, ys);
    const a = gp.predict(fromRows([[1e300, 2]]))[0];
    const b = gp.predict(fromRows([[10 * (FAR_QUERY_RADIUS + 0.5), 2]]))[0];
    expect(a).toBe(b);
  });

  it("Shepard interpolation weights of a query at 1e300 are finite convex weights with a finite distance", () => {
    const U = Float64Array.from(pts.flatMap(([a, b]) => [a / 10, b / 5]));
    const Qn = Float64Array.from([0.5, 0.5, 1e299, 0.5, -1e299, 1e299]);
    for (const name of ["shepard", "delaunay", "nearest"] as const) {
      const ws = interpolationWeights(name, U, Qn, 2);
      for (let q = 0; q < 3; q++) {
        let s = 0;
        for (let k = ws.offsets[q]; k < ws.offsets[q + 1]; k++) {
          expect(ws.weight[k] >= 0, `${name} query ${q}`).toBe(true);
          s += ws.weight[k];
        }
        expect(s, `${name} query ${q}`).toBeCloseTo(1, 12);
        expect(Number.isFinite(ws.distance[q]), `${name} distance ${q}: ${ws.distance[q]}`).toBe(true);
      }
    }
  });
});
