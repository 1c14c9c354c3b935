// Delaunay predictor and its locate kernel: exact small cases, Delaunay (empty-sphere) and projection properties
// in 1 to 50 dimensions, consistent ties on grids, coded errors, serialization, native-vs-wasm parity.
import { describe, expect, it } from "vitest";
import { delaunayLocate, DELAUNAY_LOCATE, QueryStatus } from "../../ts/backend/kernels/delaunay.js";
import { Status } from "../../ts/backend/status.js";
import type { KernelBackend } from "../../ts/backend/kernel.js";
import { Delaunay } from "../../ts/predict/delaunay.js";
import { matrix, fromRows } from "../../ts/predict/matrix.js";
import { predictorFromJSON } from "../../ts/predict/registry.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend } from "../helpers/backends.js";
import { runConformance } from "./conformance.js";
import { circumsphere } from "./circumsphere.js";

// Dimensions 1, 2 and 4 run with every registered predictor (registry-conformance.test.ts); 8 here.
runConformance({ name: "delaunay", create: (o) => new Delaunay(o), interpolates: true, minPoints: (d) => d + 1, dims: [8] });

const raw = { inputs: { kind: "none" as const } };

function randomData(seed: number, n: number, d: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: n * d }, () => r());
}

/** Queries: convex combinations of two data points (inside) and points pushed out of the cube (outside). */
function randomQueries(seed: number, X: Float64Array, d: number, inside: number, outside: number): Float64Array {
  const r = rng(seed);
  const n = X.length / d;
  const Q = new Float64Array((inside + outside) * d);
  for (let i = 0; i < inside; i++) {
    const a = Math.floor(r() * n);
    const b = Math.floor(r() * n);
    const t = r();
    for (let k = 0; k < d; k++) Q[i * d + k] = t * X[a * d + k] + (1 - t) * X[b * d + k];
  }
  for (let i = inside; i < inside + outside; i++) for (let k = 0; k < d; k++) Q[i * d + k] = k === i % d ? 1.1 + r() : r() * 3 - 1;
  return Q;
}

function gridData(m: number, d: number): Float64Array {
  const n = m ** d;
  const X = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    let t = i;
    for (let k = d - 1; k >= 0; k--) {
      X[i * d + k] = (t % m) / (m - 1);
      t = Math.floor(t / m);
    }
  }
  return X;
}

/** The point sum_k w_k x_{s_k} for query i. */
function located(X: Float64Array, d: number, simplices: Int32Array, weights: Float64Array, i: number): Float64Array {
  const z = new Float64Array(d);
  for (let k = 0; k <= d; k++) for (let c = 0; c < d; c++) z[c] += weights[i * (d + 1) + k] * X[simplices[i * (d + 1) + k] * d + c];
  return z;
}

/** Largest amount by which a data point lies inside the circumsphere of simplex i, relative to its squared radius. */
function sphereIntrusion(X: Float64Array, d: number, simplices: Int32Array, i: number): number {
  const s = Array.from(simplices.subarray(i * (d + 1), (i + 1) * (d + 1)));
  const { c, R2 } = circumsphere(X, d, s);
  let worst = -Infinity;
  for (let p = 0; p < X.length / d; p++) {
    if (s.includes(p)) continue;
    let t = 0;
    for (let k = 0; k < d; k++) t += (X[p * d + k] - c[k]) ** 2;
    worst = Math.max(worst, (R2 - t) / R2);
  }
  return worst;
}

describe(`delaunay locate kernel on ${selected.name}`, () => {
  it("interpolates in one dimension, projects outside and flags points beyond maxExtrapolation", () => {
    const X = Float64Array.from([0, 1, 3]);
    const loc = delaunayLocate(selected, X, Float64Array.from([2, 0.25, 5, -0.5]), 1, { maxExtrapolation: 1 });
    expect(Array.from(loc.simplices)).toEqual([1, 2, 0, 1, 1, 2, 0, 1]);
    expect(loc.weights[0]).toBeCloseTo(0.5, 14);
    expect(loc.weights[1]).toBeCloseTo(0.5, 14);
    expect(loc.weights[2]).toBeCloseTo(0.75, 14);
    expect(Array.from(loc.status)).toEqual([QueryStatus.INSIDE, QueryStatus.INSIDE, QueryStatus.TOO_FAR, QueryStatus.EXTRAPOLATED]);
    expect(loc.rnorm[2]).toBeCloseTo(2, 14);
    expect(loc.rnorm[3]).toBeCloseTo(0.5, 14);
    expect(located(X, 1, loc.simplices, loc.weights, 2)[0]).toBeCloseTo(3, 14);
  });

  it("locates in a square with its centre and projects onto the nearest edge", () => {
    const X = Float64Array.from([0, 0, 1, 0, 0, 1, 1, 1, 0.5, 0.5]);
    const Q = Float64Array.from([0.5, 0.1, 0.9, 0.5, 2, 0.5, -1, -1]);
    const loc = delaunayLocate(selected, X, Q, 2);
    expect(Array.from(loc.simplices.subarray(0, 3))).toEqual([0, 1, 4]);
    expect(Array.from(loc.simplices.subarray(3, 6))).toEqual([1, 3, 4]);
    expect(Array.from(loc.status)).toEqual([0, 0, 1, 1]);
    expect(loc.rnorm[2]).toBeCloseTo(1, 14);
    expect(loc.rnorm[3]).toBeCloseTo(Math.SQRT2, 14);
    const z = located(X, 2, loc.simplices, loc.weights, 2);
    expect(z[0]).toBeCloseTo(1, 13);
    expect(z[1]).toBeCloseTo(0.5, 13);
  });

  for (const [d, n] of [
    [2, 60],
    [3, 80],
    [5, 120],
    [10, 150],
    [50, 120],
  ] as const)
    it(`finds empty-sphere simplices containing the query (d=${d}, n=${n}) and exact hull projections`, () => {
      const X = randomData(10 + d, n, d);
      const Q = randomQueries(20 + d, X, d, 20, 5);
      const loc = delaunayLocate(selected, X, Q, d);
      for (let i = 0; i < 25; i++) {
        const w = loc.weights.subarray(i * (d + 1), (i + 1) * (d + 1));
        expect(Math.abs(w.reduce((s, v) => s + v, 0) - 1)).toBeLessThan(1e-12);
        for (const v of w) expect(v).toBeGreaterThanOrEqual(-1e-10);
        expect(sphereIntrusion(X, d, loc.simplices, i)).toBeLessThan(1e-9);
        const z = located(X, d, loc.simplices, loc.weights, i);
        const q = Q.subarray(i * d, (i + 1) * d);
        if (i < 20) {
          expect(loc.status[i]).toBe(QueryStatus.INSIDE);
          for (let k = 0; k < d; k++) expect(Math.abs(z[k] - q[k])).toBeLessThan(1e-11);
        } else {
          // z is the projection of q onto the hull iff (x - z).(q - z) <= 0 for every data point x.
          expect(loc.status[i]).toBe(QueryStatus.EXTRAPOLATED);
          let dist = 0;
          for (let k = 0; k < d; k++) dist += (q[k] - z[k]) ** 2;
          expect(Math.abs(Math.sqrt(dist) - loc.rnorm[i])).toBeLessThan(1e-12 * Math.max(1, loc.rnorm[i]));
          for (let p = 0; p < n; p++) {
            let s = 0;
            for (let k = 0; k < d; k++) s += (X[p * d + k] - z[k]) * (q[k] - z[k]);
            expect(s).toBeLessThan(1e-10);
          }
        }
      }
    });

  it("breaks grid ties the same way whatever the batch or query order", () => {
    const d = 3;
    const X = gridData(4, d);
    const Q = randomQueries(5, X, d, 30, 6);
    const all = new Float64Array(Q.length + X.length);
    all.set(Q);
    all.set(X, Q.length); // queries on grid points lie on many simplices at once
    const nq = all.length / d;
    const batch = delaunayLocate(selected, X, all, d);
    const rev = new Float64Array(all.length);
    for (let i = 0; i < nq; i++) rev.set(all.subarray(i * d, (i + 1) * d), (nq - 1 - i) * d);
    const reversed = delaunayLocate(selected, X, rev, d);
    for (let i = 0; i < nq; i++) {
      const one = delaunayLocate(selected, X, all.subarray(i * d, (i + 1) * d), d);
      const j = nq - 1 - i;
      expect(Array.from(one.simplices)).toEqual(Array.from(batch.simplices.subarray(i * (d + 1), (i + 1) * (d + 1))));
      expect(Array.from(one.weights)).toEqual(Array.from(batch.weights.subarray(i * (d + 1), (i + 1) * (d + 1))));
      expect(Array.from(reversed.simplices.subarray(j * (d + 1), (j + 1) * (d + 1)))).toEqual(Array.from(one.simplices));
    }
  });

  it("returns coded statuses for bad input and never crashes", () => {
    const info = new Int32Array(4);
    const run = (X: Float64Array, n: number, d: number) =>
      selected.run(DELAUNAY_LOCATE, [
        X,
        n,
        d,
        Float64Array.from(new Array(d).fill(0.5)),
        1,
        1e-10,
        Infinity,
        new Int32Array(d + 1),
        new Float64Array(d + 1),
        new Int32Array(1),
        new Float64Array(1),
        info,
      ]);
    expect(run(Float64Array.from([0, 0, 1, 0, 0, 1, 1, 0]), 4, 2)).toBe(10);
    expect(Array.from(info.subarray(0, 2))).toEqual([1, 3]);
    expect(run(Float64Array.from([0, 0, 1, 1, 2, 2, 3, 3]), 4, 2)).toBe(11);
    expect(info[0]).toBe(1);
    expect(run(Float64Array.from([0, 0, 1, 0]), 2, 2)).toBe(12);
    expect(run(Float64Array.from([0, 0, 1, NaN, 0, 1]), 3, 2)).toBe(Status.NONFINITE);
    expect(run(Float64Array.from([0, 0, 1, 0, 0, 1]), 3, 0)).toBe(Status.BAD_ARGUMENT);
    expect(() => delaunayLocate(selected, Float64Array.from([0, 0, 1, 0, 0, 1, 1e-9, 0]), Float64Array.from([0.2, 0.2]), 2)).toThrow(
      /data points 0 and 3 coincide/,
    );
  });
});

describe(`Delaunay predictor on ${selected.name}`, () => {
  it("reproduces linear functions inside and at the projection outside, and NaN beyond maxExtrapolation", () => {
    const d = 4;
    const X = randomData(3, 200, d);
    const f = (x: ArrayLike<number>) => 1 + 2 * x[0] - x[1] + 0.5 * x[2] + 3 * x[3];
    const y = Array.from({ length: 200 }, (_, i) => f(X.subarray(i * d, (i + 1) * d)));
    const Q = randomQueries(4, X, d, 30, 10);
    const model = new Delaunay({ maxExtrapolation: 0.3 }).fit(matrix(X, 200, d), y);
    const pred = model.predict(matrix(Q, 40, d));
    const loc = model.locate(matrix(Q, 40, d));
    for (let i = 0; i < 40; i++) {
      if (i < 30) expect(pred[i]).toBeCloseTo(f(Q.subarray(i * d, (i + 1) * d)), 10);
      if (loc.status[i] === QueryStatus.TOO_FAR) expect(pred[i]).toBeNaN();
      else expect(pred[i]).toBeCloseTo(f(located(X, d, loc.simplices, loc.weights, i)), 10);
      expect(loc.extrapolated[i]).toBe(i >= 30);
    }
    expect(Array.from(loc.status).filter((s) => s === QueryStatus.TOO_FAR).length).toBeGreaterThan(0);
  });

  it("interpolates the data exactly and round-trips through JSON", () => {
    const X = gridData(3, 3);
    const y = Array.from({ length: 27 }, (_, i) => Math.sin(i));
    const model = new Delaunay().fit(matrix(X, 27, 3), y);
    const at = model.predict(matrix(X, 27, 3));
    for (let i = 0; i < 27; i++) expect(at[i]).toBeCloseTo(y[i], 12);
    const Q = matrix(randomQueries(9, X, 3, 20, 5), 25, 3);
    const restored = predictorFromJSON(JSON.parse(JSON.stringify(model.toJSON())));
    expect(Array.from(restored.predict(Q))).toEqual(Array.from(model.predict(Q)));
  });

  it("raises coded errors with remedies", () => {
    expect(() =>
      new Delaunay().fit(
        fromRows([
          [0, 0],
          [1, 0],
        ]),
        [1, 2],
      ),
    ).toThrow(expect.objectContaining({ code: "E_TOO_FEW_POINTS" }));
    expect(() =>
      new Delaunay(raw).fit(
        fromRows([
          [0, 0],
          [1, 1],
          [2, 2],
          [3, 3],
        ]),
        [1, 2, 3, 4],
      ),
    ).toThrow(expect.objectContaining({ code: "E_DEGENERATE_DATA" }));
    expect(() =>
      new Delaunay(raw).fit(
        fromRows([
          [0, 0],
          [1, 0],
          [0, 1],
          [0, 0],
        ]),
        [1, 2, 3, 4],
      ),
    ).toThrow(expect.objectContaining({ code: "E_DUPLICATE_POINTS" }));
    expect(() => new Delaunay({ eps: -1 })).toThrow(expect.objectContaining({ code: "E_OPTION" }));
    expect(() => new Delaunay().predict(fromRows([[0, 0]]))).toThrow(expect.objectContaining({ code: "E_NOT_FITTED" }));
  });
});

function expectSameLocation(a: KernelBackend, b: KernelBackend, X: Float64Array, Q: Float64Array, d: number): void {
  const la = delaunayLocate(a, X, Q, d);
  const lb = delaunayLocate(b, X, Q, d);
  expect(Array.from(la.simplices)).toEqual(Array.from(lb.simplices));
  expect(Array.from(la.status)).toEqual(Array.from(lb.status));
  for (let i = 0; i < la.weights.length; i++) expect(Math.abs(la.weights[i] - lb.weights[i])).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(la.weights[i])));
  for (let i = 0; i < la.rnorm.length; i++) expect(Math.abs(la.rnorm[i] - lb.rnorm[i])).toBeLessThanOrEqual(1e-12 * Math.max(1, la.rnorm[i]));
}

describe("delaunay parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`identical simplices, weights to 1e-12, random data d = 1..50${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    for (const [d, n] of [
      [1, 30],
      [2, 100],
      [4, 300],
      [8, 300],
      [20, 200],
      [50, 120],
    ] as const) {
      const X = randomData(100 + d, n, d);
      expectSameLocation(nativeBackend!, wasmBackend, X, randomQueries(200 + d, X, d, 40, 10), d);
    }
  });
  it.skipIf(!nativeBackend)(`identical on cospherical grids${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    for (const [m, d] of [
      [5, 2],
      [4, 3],
      [3, 4],
    ] as const) {
      const X = gridData(m, d);
      const Q = randomQueries(300 + d, X, d, 50, 10);
      const all = new Float64Array(Q.length + X.length);
      all.set(Q);
      all.set(X, Q.length);
      expectSameLocation(nativeBackend!, wasmBackend, X, all, d);
    }
  });
});
