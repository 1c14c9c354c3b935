// Safe log scales (issue 16, item 4): log-response predictions are clamped to the training range of log y
// widened by a quarter of its width (capped at a factor 1e6), flagged per prediction; linear models unchanged.
import { describe, expect, it } from "vitest";
import { cvGivenSplits } from "../../ts/cv/given.js";
import { meanArePerP } from "../../ts/cv/are.js";
import { LINEAR_CLAMP_FACTOR, LOG_CLAMP_MARGIN, clampLogPredictions, logClampBounds } from "../../ts/predict/estimator.js";
import { LinearRegression } from "../../ts/predict/lr.js";
import { matrix } from "../../ts/predict/matrix.js";
import { METHOD_NAMES, createPredictor, predictorFromJSON } from "../../ts/predict/registry.js";
import { hasShared, sharedSkipReason } from "../helpers/shared.js";
import { moanaMap, moanaSplits } from "./golden-data.js";

describe("log clamp bounds", () => {
  it("widens the range by a quarter of its width on each side, at most by ln(1e6)", () => {
    expect(LOG_CLAMP_MARGIN).toBe(0.25);
    expect(logClampBounds([0, 4])).toEqual([-1, 5]);
    const [, hi] = logClampBounds([0, 200]);
    expect(hi).toBeCloseTo(200 + Math.log(1e6), 12);
    const v = Float64Array.from([Infinity, -Infinity, 2, 6, -3, NaN]);
    expect(Array.from(clampLogPredictions(v, [0, 4]))).toEqual([1, 1, 0, 1, 1, 0]);
    expect(Array.from(v.subarray(0, 5))).toEqual([5, -1, 2, 5, -1]);
    expect(Number.isNaN(v[5])).toBe(true);
  });
});

describe("log-response predictions are clamped and flagged", () => {
  // y = e^(4x) on x in [0, 1]: log y in [0, 4]; a query at x = 10 extrapolates to e^40 unclamped.
  const X = matrix(
    Float64Array.from({ length: 11 }, (_, i) => i / 10),
    11,
    1,
  );
  const y = Float64Array.from({ length: 11 }, (_, i) => Math.exp((4 * i) / 10));
  const Q = matrix(Float64Array.from([0.5, 10, -10]), 3, 1);

  it("lr: far queries come back at the clamp bounds with their flag, near ones untouched", () => {
    const model = new LinearRegression({ response: "log", inputs: { kind: "none" } }).fit(X, y);
    const r = model.predictDetailed(Q);
    expect(Array.from(r.clamped)).toEqual([0, 1, 1]);
    expect(r.values[0]).toBeCloseTo(Math.exp(2), 10);
    expect(r.values[1]).toBeCloseTo(Math.exp(5), 10);
    expect(r.values[2]).toBeCloseTo(Math.exp(-1), 10);
    expect(Array.from(model.predict(Q))).toEqual(Array.from(r.values));
    // The range travels with the model file.
    const json = JSON.parse(JSON.stringify(model.toJSON()));
    expect(json.logRange).toEqual([0, Math.log(y[10])]);
    expect(Array.from(predictorFromJSON(json).predict(Q))).toEqual(Array.from(r.values));
  });

  it("linear-response models carry their range and clamp only values a thousand times the data's scale away (issue 14)", () => {
    const model = new LinearRegression({ inputs: { kind: "none" } }).fit(X, y);
    const json = model.toJSON();
    expect("logRange" in json).toBe(false);
    // "range" (the linear clamp, issue 14) and "support" (the normalized training inputs for the trust columns, issue 15).
    expect(Object.keys(json)).toEqual(["format", "version", "method", "options", "inputs", "response", "dim", "range", "state", "support"]);
    expect(json.range).toEqual([1, y[10]]);
    expect(Array.from(model.predictDetailed(Q).clamped)).toEqual([0, 0, 0]);
    // x = 1e5 extrapolates the trend to ~5e6, beyond 54.6 + 1000 × 54.6 (the scale: max(range, |y|)): clamped to
    // that bound and flagged.
    const far = model.predictDetailed(matrix(Float64Array.from([1e5, -1e5]), 2, 1));
    expect(Array.from(far.clamped)).toEqual([1, 1]);
    expect(far.values[0]).toBe(y[10] + LINEAR_CLAMP_FACTOR * y[10]);
    expect(far.values[1]).toBe(1 - LINEAR_CLAMP_FACTOR * y[10]);
    // Models written before the linear clamp (no range) predict as they did.
    const { range: _r, ...old } = JSON.parse(JSON.stringify(json));
    expect(Array.from(predictorFromJSON(old).predictDetailed(matrix(Float64Array.from([1e5]), 1, 1)).clamped)).toEqual([0]);
  });

  it("no method returns Inf or more than 1e6 × the largest training response under a log response", () => {
    const r = (i: number) => Math.abs(Math.sin(i * 12.9898) * 43758.5453) % 1;
    const n = 30,
      d = 2;
    const Xr = matrix(
      Float64Array.from({ length: n * d }, (_, i) => r(i)),
      n,
      d,
    );
    const yr = Float64Array.from({ length: n }, (_, i) => Math.exp(3 * Xr.data[2 * i] + Xr.data[2 * i + 1]));
    const far = matrix(Float64Array.from([50, 50, -40, 30, 1e6, -1e6]), 3, d);
    const ymax = Math.max(...yr);
    for (const m of METHOD_NAMES) {
      const opts = m === "delaunay" ? { response: "log" as const, maxExtrapolation: 1e9 } : { response: "log" as const };
      let p: Float64Array;
      try {
        p = createPredictor(m, opts).fit(Xr, yr).predict(far);
      } catch {
        continue; // a method may refuse queries far outside its hull; refusing is safe
      }
      for (const v of p) {
        expect(Number.isFinite(v), m).toBe(true);
        expect(v, m).toBeLessThanOrEqual(1e6 * ymax);
      }
    }
  });
});

describe.skipIf(!hasShared)(`cv --log-response on the real fread map${hasShared ? "" : " — " + sharedSkipReason}`, () => {
  it("lsp's mean ARE stays below 1,000 % at every p (13,509 % at p = 0.1 before the clamp)", () => {
    const res = meanArePerP(cvGivenSplits(moanaMap(), moanaSplits(), "lsp", { response: "log" }));
    expect(res.length).toBe(9);
    for (const r of res) expect(r.are * 100, `p = ${r.p}`).toBeLessThan(1000);
  });
});
