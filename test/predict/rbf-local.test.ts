// The rbf local variant (issue 16, item 1): exact splines on overlapping patches blended by a partition of unity,
// by default above RBF_MAX_POINTS training points. Close to the exact spline where both run, conformant (shapes,
// serialization, errors), deterministic, and bounded far from the data.
import { describe, expect, it } from "vitest";
import { Rbf, RBF_MAX_POINTS } from "../../ts/predict/rbf.js";
import { patchLayout, patchWeights, RBF_PATCH_COVER, RBF_PATCH_POINTS } from "../../ts/predict/rbf-local.js";
import { matrix } from "../../ts/predict/matrix.js";
import { getBackend } from "../../ts/backend/index.js";
import { methodOptionsFromCli } from "../../ts/cli/method-options.js";
import { predictorFromJSON } from "../../ts/predict/registry.js";
import { rng } from "../helpers/backends.js";
import { expectCode, runConformance } from "./conformance.js";

runConformance({ name: "rbf local", create: (o) => new Rbf(o), interpolates: false, minPoints: (d) => d + 2, dims: [1, 2, 3], options: { local: true } });

function scattered(n: number, d: number, seed: number) {
  const r = rng(seed);
  const X = Float64Array.from({ length: n * d }, () => r());
  const y = Float64Array.from({ length: n }, (_, i) => {
    let s = 0;
    for (let j = 0; j < d; j++) s += Math.sin(3 * X[i * d + j]);
    return 2 + s;
  });
  return { X: matrix(X, n, d), y };
}

describe("rbf local variant", () => {
  it("patches: about RBF_PATCH_COVER per point, RBF_PATCH_POINTS each, weights summing to 1", () => {
    const { X } = scattered(1500, 2, 1);
    const layout = patchLayout(getBackend(), X);
    expect(layout.m).toBe(RBF_PATCH_POINTS);
    expect(layout.radii.length).toBe(Math.ceil((RBF_PATCH_COVER * 1500) / RBF_PATCH_POINTS));
    const covered = new Uint8Array(1500);
    for (const r of layout.members) covered[r] = 1;
    expect(covered.every((c) => c === 1)).toBe(true);
    for (let q = 0; q < 50; q++) {
      const w = patchWeights(layout.centres, layout.radii, 2, X.data, q);
      expect(w.reduce((s, x) => s + x.weight, 0)).toBeCloseTo(1, 12);
    }
    // Far from every patch: the relatively nearest one alone.
    expect(patchWeights(layout.centres, layout.radii, 2, Float64Array.from([50, 50]), 0)).toHaveLength(1);
  });

  it("predicts within 1 % of the exact spline on a set where both run, and within 0.5 % of the truth", () => {
    const { X, y } = scattered(800, 2, 2);
    const Q = scattered(300, 2, 3);
    const exact = new Rbf().fit(X, y).predict(Q.X);
    const model = new Rbf({ local: true }).fit(X, y);
    const local = model.predict(Q.X);
    let worst = 0,
      err = 0;
    for (let i = 0; i < Q.X.rows; i++) {
      worst = Math.max(worst, Math.abs(local[i] - exact[i]) / Math.abs(exact[i]));
      err += Math.abs(local[i] - Q.y[i]) / Q.y[i];
    }
    expect(worst).toBeLessThan(0.01);
    expect(err / Q.X.rows).toBeLessThan(0.005);
    expect(model.smoothing.notes[0]).toMatch(/^local variant: 11 patches of 300 points/);
  });

  it("is the default above RBF_MAX_POINTS; its model file round-trips exactly; far queries stay finite", () => {
    const n = RBF_MAX_POINTS + 1;
    const { X, y } = scattered(n, 1, 4);
    const model = new Rbf().fit(X, y);
    expect(model.smoothing.notes[0]).toMatch(/^local variant: /);
    const Q = matrix(Float64Array.from([0.1, 0.5, 0.93, 40, -40]), 5, 1);
    const p = model.predict(Q);
    for (let i = 0; i < 3; i++) expect(Math.abs(p[i] - (2 + Math.sin(3 * Q.data[i])))).toBeLessThan(1e-3);
    expect(p.every(Number.isFinite)).toBe(true);
    const json = JSON.parse(JSON.stringify(model.toJSON()));
    expect(json.state.patches.length).toBe(Math.ceil((RBF_PATCH_COVER * n) / RBF_PATCH_POINTS));
    expect(Array.from(predictorFromJSON(json).predict(Q))).toEqual(Array.from(p));
    // Deterministic: the same fit twice gives the same file.
    expect(JSON.stringify(new Rbf().fit(X, y).toJSON())).toBe(JSON.stringify(model.toJSON()));
    // A malformed patch is refused.
    json.state.patches[0].a = [1];
    expectCode(() => predictorFromJSON(json), "E_MODEL_FORMAT");
  });

  it("takes --rbf-local yes|no and refuses a non-boolean option", () => {
    expect(methodOptionsFromCli({ rbfLocal: "yes" }, "rbf")).toEqual({ local: true });
    expect(methodOptionsFromCli({ rbfLocal: "no" }, "rbf")).toEqual({ local: false });
    expectCode(() => new Rbf({ local: "maybe" as never }), "E_OPTION");
  });
});
