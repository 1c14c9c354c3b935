// Native and WebAssembly Delaunay kernels give the same bytes: simplices, weights, query codes and hull distances,
// on random subsets of a grid (cospherical ties, queries on shared faces and outside the hull, as in the Table-2
// cross-validation) in 2 to 8 dimensions and sizes that exercise every vector tail, and on the synthetic problems
// (generated ones of the same shape when ../shared is absent). The wasm kernel computes its scans four or two
// points at a time; every lane must do the scalar operations in the scalar order.
import { describe, expect, it } from "vitest";
import type { KernelBackend } from "../../ts/backend/kernel.js";
import { delaunayLocate } from "../../ts/backend/kernels/delaunay.js";
import { syntheticProblem } from "../../ts/benchmarks/delaunay-data.js";
import { nativeBackend, nativeSkipReason, rng, wasmBackend } from "../helpers/backends.js";

function bytes(backend: KernelBackend, X: Float64Array, Q: Float64Array, d: number): Uint8Array[] {
  const loc = delaunayLocate(backend, X, Q, d);
  return [loc.simplices, loc.weights, loc.status, loc.rnorm].map((a) => new Uint8Array(a.buffer.slice(0)));
}

function expectSameBytes(X: Float64Array, Q: Float64Array, d: number): void {
  const a = bytes(nativeBackend as KernelBackend, X, Q, d);
  const b = bytes(wasmBackend, X, Q, d);
  for (let i = 0; i < a.length; i++) expect(Buffer.compare(Buffer.from(a[i]), Buffer.from(b[i]))).toBe(0);
}

/** A grid of m^d points scaled unevenly per axis; a random fraction p of it is the training set, the rest the queries. */
function gridSplit(seed: number, m: number, d: number, p: number): { X: Float64Array; Q: Float64Array } {
  const r = rng(seed);
  const n = m ** d;
  const train: number[] = [];
  const test: number[] = [];
  for (let i = 0; i < n; i++) (r() < p ? train : test).push(i);
  const point = (i: number, out: Float64Array, at: number) => {
    for (let k = 0, v = i; k < d; k++, v = Math.floor(v / m)) out[at * d + k] = ((v % m) / (m - 1)) * (1 + k * 0.37);
  };
  const X = new Float64Array(train.length * d);
  train.forEach((i, j) => point(i, X, j));
  const Q = new Float64Array((test.length + 3) * d);
  test.forEach((i, j) => point(i, Q, j));
  for (let j = test.length; j < test.length + 3; j++) for (let k = 0; k < d; k++) Q[j * d + k] = r() * 4 - 1.5; // outside
  return { X, Q };
}

describe.skipIf(!nativeBackend)("delaunay native/wasm byte parity", () => {
  it.skipIf(!nativeBackend)("grid subsets, d = 2..6 and 8, p = 0.1..0.9", () => {
    const cases: [number, number][] = [
      [2, 23],
      [3, 9],
      [4, 6],
      [5, 4],
      [6, 3],
      [8, 2],
    ];
    let seed = 1;
    for (const [d, m] of cases)
      for (const p of [0.1, 0.5, 0.9]) {
        const { X, Q } = gridSplit(seed++, m, d, p);
        if (X.length / d < 2 * (d + 1)) continue;
        expectSameBytes(X, Q, d);
      }
  });

  it.skipIf(!nativeBackend)("synthetic problems d = 4, 8 (n = 1000), 1,100 queries", () => {
    for (const d of [4, 8]) {
      const s = syntheticProblem(d, 1000);
      expectSameBytes(s.X, s.Q, d);
    }
  });
});

if (!nativeBackend) console.warn(nativeSkipReason);
