import { describe, expect, it } from "vitest";
import { knn, KNN, KNN_TOO_FEW_POINTS } from "../../ts/backend/kernels/neighbors.js";
import { Status } from "../../ts/backend/status.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend, relErr } from "../helpers/backends.js";

/** Plain reference: sort every candidate by (squared distance, index). */
function reference(X: Float64Array, Q: Float64Array, d: number, k: number, exclude?: Int32Array) {
  const n = X.length / d,
    nq = Q.length / d;
  const indices: number[] = [],
    distances: number[] = [];
  for (let i = 0; i < nq; i++) {
    const cand: [number, number][] = [];
    for (let j = 0; j < n; j++) {
      if (exclude && exclude[i] === j) continue;
      let s = 0;
      for (let c = 0; c < d; c++) {
        const t = Q[i * d + c] - X[j * d + c];
        s += t * t;
      }
      cand.push([s, j]);
    }
    cand.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (let r = 0; r < k; r++) {
      indices.push(cand[r][1]);
      distances.push(Math.sqrt(cand[r][0]));
    }
  }
  return { indices, distances };
}

describe(`knn on ${selected.name}`, () => {
  it("finds exact neighbours in one dimension, ties by lower index", () => {
    const X = Float64Array.from([0, 1, 3, 6]);
    const r = knn(selected, X, Float64Array.from([2, 6]), 1, 3);
    expect(Array.from(r.indices)).toEqual([1, 2, 0, 3, 2, 1]);
    expect(Array.from(r.distances)).toEqual([1, 1, 2, 0, 3, 5]);
  });

  it("orders equal distances by lower index, including duplicate points", () => {
    // The four corners of a square around the query and two copies of one corner.
    const X = Float64Array.from([1, 1, -1, 1, 1, -1, -1, -1, 5, 5, 1, -1]);
    const r = knn(selected, X, Float64Array.from([0, 0]), 2, 5);
    expect(Array.from(r.indices)).toEqual([0, 1, 2, 3, 5]);
    expect(Array.from(r.distances)).toEqual([Math.SQRT2, Math.SQRT2, Math.SQRT2, Math.SQRT2, Math.SQRT2]);
    const dup = knn(selected, Float64Array.from([2, 2, 2, 1]), Float64Array.from([2]), 1, 4);
    expect(Array.from(dup.indices)).toEqual([0, 1, 2, 3]);
    expect(Array.from(dup.distances)).toEqual([0, 0, 0, 1]);
  });

  it("excludes each query's own row (nearest other points)", () => {
    const X = Float64Array.from([0, 1, 3, 6]);
    const r = knn(selected, X, X, 1, 2, { excludeSelf: true });
    expect(Array.from(r.indices)).toEqual([1, 2, 0, 2, 1, 0, 2, 1]);
    expect(Array.from(r.distances)).toEqual([1, 3, 1, 2, 2, 3, 3, 5]);
    const partial = knn(selected, X, Float64Array.from([0, 0]), 1, 1, { exclude: Int32Array.from([-1, 0]) });
    expect(Array.from(partial.indices)).toEqual([0, 1]);
  });

  it("matches a sorting reference on tie-heavy integer grids across panel boundaries", () => {
    const r = rng(3);
    for (const [n, nq, d, k] of [
      [1500, 40, 3, 7],
      [700, 25, 2, 30],
      [90, 10, 11, 90],
      [300, 20, 1, 1],
    ]) {
      const X = Float64Array.from({ length: n * d }, () => Math.floor(r() * 5));
      const Q = Float64Array.from({ length: nq * d }, () => Math.floor(r() * 5));
      const got = knn(selected, X, Q, d, k);
      const want = reference(X, Q, d, k);
      expect(Array.from(got.indices)).toEqual(want.indices);
      expect(Array.from(got.distances)).toEqual(want.distances);
      const exclude = Int32Array.from({ length: nq }, (_, i) => (i % 3 === 0 ? -1 : (i * 37) % n));
      const kx = Math.min(k, n - 1);
      const gotX = knn(selected, X, Q, d, kx, { exclude });
      expect(Array.from(gotX.indices)).toEqual(reference(X, Q, d, kx, exclude).indices);
    }
  });

  it("handles k = 0, no queries and k = n", () => {
    const X = Float64Array.from([3, 1, 2]);
    expect(knn(selected, X, Float64Array.from([0]), 1, 0).indices.length).toBe(0);
    expect(knn(selected, X, new Float64Array(0), 1, 2).indices.length).toBe(0);
    expect(Array.from(knn(selected, X, Float64Array.from([0]), 1, 3).indices)).toEqual([1, 2, 0]);
  });

  it("returns a status for NaN/Inf, bad sizes and too few points, never crashes", () => {
    const X = Float64Array.from([0, 1, 2]);
    const Q = Float64Array.from([0.5]);
    const none = new Int32Array(0);
    const run = (x: Float64Array, q: Float64Array, d: number, ex: Int32Array, hasEx: number, k: number, idxLen = k, distLen = k) =>
      selected.run(KNN, [x, x.length / d, q, q.length / d, d, ex, hasEx, k, new Int32Array(idxLen), new Float64Array(distLen)]);
    expect(run(X, Q, 1, none, 0, 2)).toBe(Status.OK);
    expect(run(Float64Array.from([0, NaN, 2]), Q, 1, none, 0, 2)).toBe(Status.NONFINITE);
    expect(run(X, Float64Array.from([-Infinity]), 1, none, 0, 2)).toBe(Status.NONFINITE);
    expect(selected.run(KNN, [X, 3, Q, 1, 0, none, 0, 1, new Int32Array(1), new Float64Array(1)])).toBe(Status.BAD_ARGUMENT);
    expect(run(X, Q, 1, none, 0, -1, 0, 0)).toBe(Status.BAD_ARGUMENT);
    expect(run(X, Q, 1, Int32Array.from([3]), 1, 1)).toBe(Status.BAD_ARGUMENT);
    expect(run(X, Q, 1, Int32Array.from([-2]), 1, 1)).toBe(Status.BAD_ARGUMENT);
    expect(run(X, Q, 1, none, 1, 1)).toBe(Status.BAD_ARGUMENT); // exclusion requested but no array
    expect(run(X, Q, 1, none, 0, 2, 1, 2)).toBe(Status.BAD_ARGUMENT); // output too short
    expect(run(X, Q, 1, none, 0, 2, 2, 1)).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(KNN, [X, 4, Q, 1, 1, none, 0, 1, new Int32Array(1), new Float64Array(1)])).toBe(Status.BAD_ARGUMENT);
    expect(run(X, Q, 1, none, 0, 4)).toBe(KNN_TOO_FEW_POINTS);
    expect(run(X, Q, 1, Int32Array.from([1]), 1, 3)).toBe(KNN_TOO_FEW_POINTS);
    expect(run(X, Q, 1, Int32Array.from([-1]), 1, 3)).toBe(Status.OK);
    expect(() => knn(selected, X, Q, 1, 4)).toThrow(/E_TOO_FEW_POINTS|larger than the number of data points/);
    expect(() => knn(selected, Float64Array.from([Infinity]), Q, 1, 1)).toThrow(/NaN or infinity/);
    expect(() => knn(selected, Float64Array.from([1, 2, 3]), Float64Array.from([1, 2]), 2, 1)).toThrow(/not whole rows of d = 2/);
  });
});

describe("knn parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`gives identical indices and distances to 1e-12 on random batches${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const r = rng(19);
    for (const [n, nq, d, k] of [
      [2000, 60, 4, 7],
      [500, 40, 8, 15],
      [301, 30, 1, 5],
      [64, 64, 20, 63],
    ]) {
      const X = Float64Array.from({ length: n * d }, () => r() * 10 - 5);
      const Q = Float64Array.from({ length: nq * d }, (_, t) => (t % 3 === 0 ? X[t % (n * d)] : r() * 10 - 5));
      for (const exclude of [undefined, Int32Array.from({ length: nq }, (_, i) => (i * 7) % n)]) {
        const a = knn(nativeBackend!, X, Q, d, k, { exclude });
        const b = knn(wasmBackend, X, Q, d, k, { exclude });
        expect(Array.from(a.indices)).toEqual(Array.from(b.indices));
        for (let i = 0; i < a.distances.length; i++) expect(relErr(a.distances[i], b.distances[i])).toBeLessThanOrEqual(1e-12);
      }
    }
  });
});
