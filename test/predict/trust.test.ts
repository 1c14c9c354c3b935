// How far to trust a prediction (issue 15, item 3): extrapolated, distance and clamped for every registered
// predictor, computed once in ts/predict/trust.ts; the Delaunay hull test; clamping only for nonnegative statistics.
import { describe, expect, it } from "vitest";
import { fromRows, matrix } from "../../ts/predict/matrix.js";
import { createPredictor, METHOD_NAMES, predictorFromJSON } from "../../ts/predict/registry.js";
import { clampNegative, isNonNegativeStat, nearestDistance, outsideBox, trustWarnings } from "../../ts/predict/trust.js";
import { countFlags, flagAdvice, mixtureFlags } from "../../ts/mixture/flags.js";
import { isMoanaDesign, paperAre } from "../../ts/cv/paper.js";

// A 6 × 6 grid on [0, 10] × [0, 5], y = 1 + 0.3 x1 − 0.4 x2 + a small wiggle: positive on the grid, a linear trend
// that turns negative beyond it.
const pts: number[][] = [];
const ys: number[] = [];
for (let i = 0; i < 6; i++)
  for (let j = 0; j < 6; j++) {
    const x1 = 2 * i,
      x2 = j;
    pts.push([x1, x2]);
    ys.push(3 + 0.3 * x1 - 0.4 * x2 + 0.05 * Math.sin(7 * i + 3 * j));
  }
const X = fromRows(pts);
// Queries: a training point, the grid's centre, a point far outside (where the trend is negative).
const Q = fromRows([
  [4, 3],
  [5, 2.5],
  [0, 40],
]);

describe("trust columns for every predictor", () => {
  for (const method of METHOD_NAMES) {
    it(`${method}: extrapolated, distance in normalized units, clamped, and the same after a JSON round trip`, () => {
      const model = createPredictor(method).fit(X, ys);
      const t = model.predictTrusted(Q, { nonNegative: true });
      expect(Array.from(t.extrapolated)).toEqual([0, 0, 1]);
      // Normalized to the unit cube: x1 / 10, x2 / 5. (4, 3) is a training point; (5, 2.5) is 0.1 in x1 and 0.1 in x2
      // from its nearest (4, 2)/(6, 2)/(4, 3)/(6, 3); (0, 40) is 7 units of x2 above (0, 5).
      expect(t.distance[0]).toBe(0);
      expect(t.distance[1]).toBeCloseTo(Math.hypot(0.1, 0.1), 12);
      expect(t.distance[2]).toBeCloseTo(7, 12);
      for (let i = 0; i < 3; i++) {
        expect(t.clamped[i]).toBe(t.negative[i] | t.logClamped[i]);
        if (t.negative[i]) expect(t.values[i]).toBe(0);
        expect(t.values[i] >= 0 || Number.isNaN(t.values[i])).toBe(true);
      }
      // Without nonNegative the values are the model's own, and predict() agrees with them.
      const raw = model.predictTrusted(Q);
      expect(Array.from(raw.negative)).toEqual([0, 0, 0]);
      expect(Array.from(raw.values)).toEqual(Array.from(model.predict(Q)));
      for (let i = 0; i < 3; i++) if (t.negative[i]) expect(raw.values[i]).toBeLessThan(0);
      // Delaunay and LSP keep their normalized training inputs in their state: the file does not repeat them.
      if (method === "delaunay" || method === "lsp") expect(model.toJSON().support).toBeUndefined();
      else expect(model.toJSON().support).toHaveLength(36 * 2);
      const back = predictorFromJSON(JSON.parse(JSON.stringify(model.toJSON()))).predictTrusted(Q, { nonNegative: true });
      expect(Array.from(back.extrapolated)).toEqual(Array.from(t.extrapolated));
      expect(Array.from(back.distance)).toEqual(Array.from(t.distance));
      expect(Array.from(back.values)).toEqual(Array.from(t.values));
    });
  }

  it("lr and mars extrapolate the trend below zero far outside: clamped to 0 and flagged", () => {
    for (const method of ["lr", "mars"]) {
      const t = createPredictor(method).fit(X, ys).predictTrusted(Q, { nonNegative: true });
      expect(t.negative[2]).toBe(1);
      expect(t.clamped[2]).toBe(1);
      expect(t.values[2]).toBe(0);
    }
  });

  it("Delaunay flags a query inside the bounding box but outside the hull; the box test of the others does not", () => {
    // A triangle of training points: (0.9, 0.9) lies in the box [0,1]² but beyond the hypotenuse.
    const T = fromRows([
      [0, 0],
      [1, 0],
      [0, 1],
      [0.2, 0.2],
    ]);
    const y = [1, 2, 3, 2];
    const q = fromRows([
      [0.9, 0.9],
      [0.25, 0.25],
    ]);
    expect(Array.from(createPredictor("delaunay").fit(T, y).predictTrusted(q).extrapolated)).toEqual([1, 0]);
    expect(Array.from(createPredictor("lr").fit(T, y).predictTrusted(q).extrapolated)).toEqual([0, 0]);
  });

  it("a model file written before models carried their training inputs: box [0,1]^d, distance NaN", () => {
    const json = createPredictor("lr").fit(X, ys).toJSON();
    delete json.support;
    const t = predictorFromJSON(json).predictTrusted(Q);
    expect(Array.from(t.extrapolated)).toEqual([0, 0, 1]);
    expect(Array.from(t.distance).every(Number.isNaN)).toBe(true);
  });
});

describe("trust.ts helpers", () => {
  it("box, nearest distance and negative clamp by hand", () => {
    const T = matrix(Float64Array.from([0, 0, 1, 2]), 2, 2);
    const q = matrix(Float64Array.from([0.5, 1, 1 + 1e-12, 2, -0.1, 0]), 3, 2);
    expect(Array.from(outsideBox(T, q))).toEqual([0, 0, 1]);
    const d = nearestDistance(T, q);
    expect(d[0]).toBe(Math.hypot(0.5, 1));
    expect(Math.abs(d[1] - 1e-12)).toBeLessThan(1e-15); // 1 + 1e-12 is not exact in binary
    expect(d[2]).toBeCloseTo(0.1, 15);
    const v = Float64Array.from([-1, 0, 2, NaN, -0]);
    expect(Array.from(clampNegative(v))).toEqual([1, 0, 0, 0, 0]);
    expect(Array.from(v)).toEqual([0, 0, 2, NaN, -0]);
  });

  it("nonnegative statistics are the dispersions", () => {
    expect(["sd", "var", "ci90", "cv"].every(isNonNegativeStat)).toBe(true);
    expect(["mean", "q10", "q90", undefined].some(isNonNegativeStat)).toBe(false);
  });

  it("one warning line per kind that occurred, naming the method's extrapolation test", () => {
    expect(trustWarnings({ predictions: 10, extrapolated: 0, negative: 0, logClamped: 0, missing: 0 }, "lr")).toEqual([]);
    const lines = trustWarnings({ predictions: 10, extrapolated: 2, negative: 1, logClamped: 0, missing: 3 }, "delaunay");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^2 of 10 \(20\.0%\) delaunay prediction\(s\) extrapolated .*convex hull/);
    expect(trustWarnings({ predictions: 4, extrapolated: 1, negative: 0, logClamped: 0, missing: 0 }, "lr")[0]).toMatch(/bounding box/);
  });
});

describe("mixture flags", () => {
  it("k_at_max, floor_bound and single-run components, with one line of advice each", () => {
    expect(mixtureFlags({ k: 3, n: 40, floorBound: false, w: [0.5, 0.49, 0.01] }, 3)).toEqual({ kAtMax: true, floorBound: false, singleRun: true });
    expect(mixtureFlags({ k: 2, n: 40, floorBound: true, w: [0.5, 0.5] }, 3)).toEqual({ kAtMax: false, floorBound: true, singleRun: false });
    // kmax = 1: one component was all that was asked for, no k_at_max.
    expect(mixtureFlags({ k: 1, n: 10, floorBound: false, w: [1] }, 1).kAtMax).toBe(false);
    const c = countFlags([{ k: 3, n: 40, floorBound: true, w: [0.5, 0.49, 0.01] }, null, { k: 1, n: 40, floorBound: false, w: [1] }], 3);
    expect(c).toEqual({ configurations: 2, kmax: 3, kAtMax: 1, floorBound: 1, singleRun: 1 });
    const advice = flagAdvice(c);
    expect(advice.map((l) => l.split(":")[0])).toEqual(["k_at_max", "floor_bound", "single-run components"]);
    expect(flagAdvice({ configurations: 5, kmax: 3, kAtMax: 0, floorBound: 0, singleRun: 0 })).toEqual([]);
  });
});

describe("the MOANA paper's Table 2", () => {
  it("is shown for the MOANA design's sd maps only, with the paper's figures", () => {
    expect(isMoanaDesign({ factors: ["host_sched", "vm_sched", "mode"], stat: "sd", response: "linear" })).toBe(true);
    expect(isMoanaDesign({ factors: ["host_sched", "vm_sched", "mode"], stat: "mean", response: "linear" })).toBe(false);
    expect(isMoanaDesign({ factors: ["dataset", "host", "test"], stat: "sd", response: "linear" })).toBe(false);
    expect(paperAre(0.5, "lsp")).toBe(12.22);
    expect(paperAre(0.1, "delaunay")).toBe(23.39);
    expect(paperAre(0.5, "rbf")).toBeUndefined();
  });
});
