import { describe, expect, it } from "vitest";
import { LinearShepard } from "../../ts/predict/lsp.js";
import { matrix } from "../../ts/predict/matrix.js";
import { rng, selected } from "../helpers/backends.js";
import { expectCode } from "./conformance.js";
import { referenceLsp } from "./lsp-reference.js";

// The conformance suite runs on every registered predictor in registry-conformance.test.ts.

describe(`LinearShepard on ${selected.name}`, () => {
  it("reproduces a linear function everywhere a radius covers (local fits are exact)", () => {
    const r = rng(5);
    const n = 200,
      d = 3;
    const X = Float64Array.from({ length: n * d }, () => r());
    const lin = (x: ArrayLike<number>, o: number) => 2 - x[o] + 3 * x[o + 1] + 0.5 * x[o + 2];
    const y = Float64Array.from({ length: n }, (_, i) => lin(X, i * d));
    const Q = Float64Array.from({ length: 50 * d }, () => 0.2 + 0.6 * r());
    const model = new LinearShepard().fit(matrix(X, n, d), y);
    const ev = model.evaluate(matrix(Q, 50, d));
    for (let i = 0; i < 50; i++) {
      expect(ev.ierr[i]).not.toBe(1);
      expect(ev.values[i]).toBeCloseTo(lin(Q, i * d), 10);
    }
    expect(model.rankDeficientNodes).toBe(0);
  });

  it("refuses coincident training points with E_DUPLICATE_POINTS naming them", () => {
    const X = matrix(Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.5, 1, 0]), 6, 2);
    expectCode(() => new LinearShepard().fit(X, [1, 2, 3, 4, 5, 6]), "E_DUPLICATE_POINTS");
    expect(() => new LinearShepard().fit(X, [1, 2, 3, 4, 5, 6])).toThrow(/points 1 and 5/);
  });

  it("falls back to inverse-distance weights of m + 1 nodes outside every radius (ierr 1)", () => {
    const X = matrix(Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.5]), 5, 2);
    const model = new LinearShepard({ inputs: { kind: "none" } }).fit(X, [1, 2, 3, 4, 5]);
    const ev = model.evaluate(matrix(Float64Array.from([10, 10]), 1, 2));
    expect(ev.ierr[0]).toBe(1);
    // LSHEPVAL's slot scan keeps nodes 3, 4 and 2 (squared distances 162, 180.5, 181): node 4 replaces the
    // first slot holding the smallest 1/d, which is node 1's, although node 1 ties node 2 and has the lower index.
    const w = [1 / 162, 1 / 180.5, 1 / 181];
    const want = (w[0] * 4 + w[1] * 5 + w[2] * 3) / (w[0] + w[1] + w[2]);
    expect(ev.values[0]).toBeCloseTo(want, 12);
  });

  it("caps radii at half the data diameter exactly as LSHEP (small sets, where the cap binds)", () => {
    const r = rng(21);
    for (const [n, d] of [
      [6, 3],
      [9, 2],
      [40, 5],
    ]) {
      const X = Float64Array.from({ length: n * d }, () => r());
      const y = Float64Array.from({ length: n }, () => r());
      const model = new LinearShepard({ inputs: { kind: "none" } }).fit(matrix(X, n, d), y);
      const ref = referenceLsp(X, y, d, X);
      expect(Array.from(model.radii)).toEqual(Array.from(ref.rw));
    }
  });

  it("matches a brute-force transcription of LSHEP/LSHEPVAL on a grid full of distance ties", () => {
    // A 6 x 5 x 4 grid with unequal spacings: most neighbour sets are decided by ties (lower index first),
    // and most local fits are rank-deficient.
    const pts: number[] = [];
    for (let a = 0; a < 6; a++) for (let b = 0; b < 5; b++) for (let c = 0; c < 4; c++) pts.push(a / 5, b / 4, c / 3);
    const n = pts.length / 3;
    const r = rng(9);
    const keep = Array.from({ length: n }, (_, i) => i).filter(() => r() < 0.6);
    const X = Float64Array.from(keep.flatMap((i) => pts.slice(3 * i, 3 * i + 3)));
    const y = Float64Array.from(keep.map((i) => 1 + Math.sin(3 * pts[3 * i]) * pts[3 * i + 1] + pts[3 * i + 2] ** 2));
    const Q = Float64Array.from(pts);
    const model = new LinearShepard({ inputs: { kind: "none" } }).fit(matrix(X, keep.length, 3), y);
    const got = model.evaluate(matrix(Q, n, 3));
    const ref = referenceLsp(X, y, 3, Q);
    expect(Array.from(model.radii)).toEqual(Array.from(ref.rw));
    expect(model.rankDeficientNodes).toBe(ref.rankDeficient);
    expect(model.rankDeficientNodes).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      expect(got.ierr[i]).toBe(ref.ierr[i]);
      expect(Math.abs(got.values[i] - ref.values[i])).toBeLessThanOrEqual(1e-12 * Math.abs(ref.values[i]));
    }
  });
});

describe("LSP near-duplicate training points", () => {
  it("refuses a point 1e-15 away from another (E_DUPLICATE_POINTS) instead of predicting garbage", async () => {
    const { LinearShepard: LSP } = await import("../../ts/predict/lsp.js");
    const r = rng(3);
    const n = 60;
    const rows: number[] = [];
    for (let i = 0; i < n; i++) rows.push(r(), r());
    const y = Array.from({ length: n }, (_, i) => 1 + rows[2 * i] + 2 * rows[2 * i + 1]);
    const clean = new LSP({ inputs: { kind: "none" } }).fit({ data: Float64Array.from(rows), rows: n, cols: 2 }, y);
    expect(clean.predict({ data: Float64Array.from([0.5, 0.5]), rows: 1, cols: 2 })[0]).toBeCloseTo(2.5, 6);
    const near = [...rows, rows[0] + 1e-15, rows[1]];
    let code = "";
    try {
      new LSP({ inputs: { kind: "none" } }).fit({ data: Float64Array.from(near), rows: n + 1, cols: 2 }, [...y, y[0] + 0.3]);
    } catch (e) {
      code = (e as { code?: string }).code ?? String(e);
    }
    expect(code).toBe("E_DUPLICATE_POINTS");
  });
});
