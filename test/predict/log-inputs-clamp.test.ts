// Safe log scales for inputs (issue 16, item 4): with --log-inputs, a query far outside the training range in log
// space is predicted at the edge of the training range widened by LOG_CLAMP_MARGIN (logInputClampBounds) and
// flagged clamped, like a log-response prediction cut to its safe range. No method, on either response scale,
// returns Inf or more than 1e6 × the largest training response, however far the query.
import { describe, expect, it } from "vitest";
import { LOG_CLAMP_MARGIN, logInputClampBounds } from "../../ts/predict/estimator.js";
import { matrix } from "../../ts/predict/matrix.js";
import { METHOD_NAMES, createPredictor, predictorFromJSON } from "../../ts/predict/registry.js";

// A 6 × 5 grid of powers of two (threads 1..32, sizes 64..1024) with a response smooth in log2 of both.
const A = [1, 2, 4, 8, 16, 32],
  B = [64, 128, 256, 512, 1024];
const rows: number[] = [],
  ys: number[] = [];
for (const a of A)
  for (const b of B) {
    rows.push(a, b);
    ys.push(0.5 + 0.3 * Math.log2(a) + 0.2 * (Math.log2(b) - 6) ** 2 + 0.05 * Math.sin(a * b));
  }
const X = matrix(Float64Array.from(rows), ys.length, 2);
const y = Float64Array.from(ys);
const maxY = Math.max(...ys);
// Far queries: 1e9 × the largest input (each, and both), 1e-9 × the smallest; then two inside the grid.
const far = [32e9, 1024, 1, 1024e9, 32e9, 1024e9, 1e-9, 64, 1, 1e-9, 1e-9, 1e-9];
const near = [4, 256, 5, 300];
const Q = matrix(Float64Array.from([...far, ...near]), (far.length + near.length) / 2, 2);
const nFar = far.length / 2;

describe("logInputClampBounds", () => {
  it("widens the training range by LOG_CLAMP_MARGIN of its width on each side", () => {
    expect(LOG_CLAMP_MARGIN).toBe(0.25);
    expect(logInputClampBounds(0, 1)).toEqual([-0.25, 1.25]);
    expect(logInputClampBounds(0.2, 0.2)).toEqual([0.2, 0.2]);
  });
});

describe("--log-inputs: far queries are clamped and flagged for every method", () => {
  for (const method of METHOD_NAMES)
    for (const response of ["linear", "log"] as const)
      it(`${method}, ${response} response: finite, ≤ 1e6 × the largest training response, flagged; inside queries untouched`, () => {
        const model = createPredictor(method, { inputs: { kind: "unit", log2: [0, 1] }, response }).fit(X, y);
        const t = model.predictTrusted(Q);
        for (let i = 0; i < Q.rows; i++) {
          expect(Number.isFinite(t.values[i]), `query ${i}`).toBe(true);
          expect(Math.abs(t.values[i])).toBeLessThanOrEqual(1e6 * maxY);
        }
        expect(Array.from(t.inputClamped)).toEqual([...Array(nFar).fill(1), 0, 0]);
        for (let i = 0; i < nFar; i++) expect(t.clamped[i]).toBe(1);
        for (let i = 0; i < Q.rows; i++) expect(t.extrapolated[i]).toBe(i < nFar ? 1 : 0);
        // Twice as far gives the same prediction: both are predicted at the edge of the safe range.
        const farther = model.predict(matrix(Float64Array.from([32e18, 1024, 1e-18, 1e-18]), 2, 2));
        expect(farther[0]).toBeCloseTo(t.values[0], 10);
        expect(farther[1]).toBeCloseTo(t.values[5], 10);
        // The model file carries what the clamp needs.
        const back = predictorFromJSON(JSON.parse(JSON.stringify(model.toJSON()))).predictTrusted(Q);
        expect(Array.from(back.inputClamped)).toEqual(Array.from(t.inputClamped));
        for (let i = 0; i < Q.rows; i++) expect(back.values[i]).toBeCloseTo(t.values[i], 10);
      });

  it("lr: the clamped query is predicted where the edge of the safe range is (a quarter of the log range beyond the largest input)", () => {
    const model = createPredictor("lr", { inputs: { kind: "unit", log2: [0, 1] } }).fit(X, y);
    // threads: log2 range [0, 5], edge 5 + 1.25; sizes: [6, 10], edge 10 + 1.
    const edge = model.predict(matrix(Float64Array.from([2 ** 6.25, 2 ** 11]), 1, 2))[0];
    const q = model.predictDetailed(matrix(Float64Array.from([32e9, 1024e9, 2 ** 6.2, 2 ** 10.9]), 2, 2));
    expect(q.values[0]).toBeCloseTo(edge, 10);
    expect(Array.from(q.clamped)).toEqual([1, 0]); // just inside the safe range: predicted as it is
  });

  it("inputs not log-scaled are not clamped (their far queries are bounded by the response clamp)", () => {
    const model = createPredictor("lr", { inputs: { kind: "unit" } }).fit(X, y);
    const t = model.predictTrusted(matrix(Float64Array.from([32e9, 1024]), 1, 2));
    expect(t.inputClamped[0]).toBe(0);
    expect(t.clamped[0]).toBe(1); // the linear response clamp (issue 14) cuts the 1e9-times extrapolation
    expect(Number.isFinite(t.values[0]) && t.values[0] <= 1e6 * maxY).toBe(true);
  });
});

describe("--log-inputs clamp keeps a declined query declined", () => {
  it("delaunay with --max-extrapolation: a query beyond it stays NaN although its moved input would be near", () => {
    const model = createPredictor("delaunay", { inputs: { kind: "unit", log2: [0, 1] }, maxExtrapolation: 0.5 }).fit(X, y);
    const t = model.predictTrusted(matrix(Float64Array.from([32e9, 1024, 40, 1024]), 2, 2));
    expect(Number.isNaN(t.values[0])).toBe(true); // 30 doublings out: beyond 0.5 normalized units
    expect(t.inputClamped[0]).toBe(1);
    expect(Number.isFinite(t.values[1])).toBe(true); // just outside, inside the safe range: predicted as it is
  });
});
