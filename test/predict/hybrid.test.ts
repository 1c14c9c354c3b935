// hybrid (issue 41): gp's prediction for queries whose combination of settings has measured siblings, mars's for
// combinations never measured; novelty by named group columns or by the dense-pair rule.
import { describe, expect, it } from "vitest";
import { createPredictor, predictorFromJSON } from "../../ts/predict/registry.js";
import type { Hybrid } from "../../ts/predict/hybrid.js";
import { matrix } from "../../ts/predict/matrix.js";

// A 3 × 3 × 4 grid of (a, b, c) without the (a, b) = (2, 20) combination; a smooth positive response.
function data() {
  const v: number[] = [],
    y: number[] = [];
  for (const a of [1, 2, 4])
    for (const b of [10, 20, 40])
      for (const c of [1, 2, 3, 4]) {
        if (a === 2 && b === 20) continue;
        v.push(a, b, c);
        y.push(Math.exp(0.3 * Math.log(a) + 0.2 * Math.log(b) - 0.1 * c + 0.05 * Math.sin(a * b + c)));
      }
  return { X: matrix(Float64Array.from(v), y.length, 3), y: Float64Array.from(y) };
}
const options = { inputs: { kind: "unit" as const, log2: [0, 1] }, response: "log" as const };

describe("hybrid", () => {
  it("answers novel combinations with mars and measured ones with gp (the dense-pair rule without group columns)", () => {
    const { X, y } = data();
    const h = createPredictor("hybrid", options).fit(X, y) as Hybrid;
    const mars = createPredictor("mars", options).fit(X, y);
    const gp = createPredictor("gp", options).fit(X, y);
    const Q = matrix(Float64Array.from([2, 20, 2, 4, 40, 3]), 2, 3);
    expect(Array.from(h.novelOf(Q))).toEqual([1, 0]);
    const p = h.predict(Q);
    expect(p[0]).toBeCloseTo(mars.predict(Q)[0], 9);
    expect(p[1]).toBeCloseTo(gp.predict(Q)[1], 6);
  });

  it("named group columns decide novelty; the model round-trips through JSON", () => {
    const { X, y } = data();
    // Group by c alone: every level of c was measured, so (2, 20, c) is not novel by it.
    const h = createPredictor("hybrid", { ...options, groups: [2] }).fit(X, y) as Hybrid;
    const Q = matrix(Float64Array.from([2, 20, 2]), 1, 3);
    expect(Array.from(h.novelOf(Q))).toEqual([0]);
    const back = predictorFromJSON(JSON.parse(JSON.stringify(h.toJSON())));
    expect(Array.from(back.predict(Q))).toEqual(Array.from(h.predict(Q)));
  });

  it("refuses itself or auto as one of its methods", () => {
    expect(() => createPredictor("hybrid", { novel: "hybrid" })).toThrow(/E_OPTION|hybrid/);
  });
});
