// lspWeights (the LSP evaluation kernel's Shepard weights): the weights lspEval combines (Σ w_k f_k equals the
// evaluation with zero gradients), convex, and identical on both backends.
import { describe, expect, it } from "vitest";
import { lspEval, lspFit, lspWeights } from "../../ts/backend/kernels/lsp.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend } from "../helpers/backends.js";

function problem(seed: number, n: number, m: number, nq: number) {
  const r = rng(seed);
  const X = Float64Array.from({ length: n * m }, r);
  const f = Float64Array.from({ length: n }, r);
  // Queries inside, at nodes, and far outside (the inverse-distance fallback).
  const Q = Float64Array.from({ length: nq * m }, (_, i) => (Math.floor(i / m) % 7 === 3 ? 3 + r() : r()));
  Q.set(X.subarray(0, m), 0);
  return { X, f, Q, m };
}

describe("lspWeights", () => {
  it("are the weights lspEval combines: Σ w_k f_k = lspEval with zero gradients; convex; codes", () => {
    const { X, f, Q, m } = problem(11, 300, 3, 200);
    const fit = lspFit(selected, X, f, m);
    const w = lspWeights(selected, { X, rw: fit.rw, m }, Q);
    const ev = lspEval(selected, { X, f, A: new Float64Array(X.length), rw: fit.rw, m }, Q);
    let worst = 0;
    for (let q = 0; q < 200; q++) {
      let s = 0,
        v = 0;
      for (let k = w.offsets[q]; k < w.offsets[q + 1]; k++) {
        expect(w.weight[k]).toBeGreaterThanOrEqual(0);
        s += w.weight[k];
        v += w.weight[k] * f[w.index[k]];
      }
      expect(s).toBeCloseTo(1, 13);
      worst = Math.max(worst, Math.abs(v - ev.values[q]));
      expect(w.code[q] === 1).toBe(ev.ierr[q] === 1);
    }
    expect(worst).toBeLessThanOrEqual(1e-14);
    expect(w.code[0]).toBe(3);
    expect(w.offsets[1]).toBe(1);
    expect(Array.from(w.code).filter((c) => c === 1).length).toBeGreaterThan(0);
  });
  // The search paths: a scan of all nodes (<= 1,024 nodes, or too many dimensions for a tree), the k-d tree,
  // and the tree's first 32 queries followed by scans when it prunes too little (radii 0.45 in the unit cube).
  for (const [label, seed, n, m, radius] of [
    ["scan, few nodes", 15, 600, 3, 0],
    ["tree", 16, 1500, 3, 0],
    ["tree probe, then scans", 17, 1500, 3, 0.45],
    ["scan, many dimensions", 18, 1300, 10, 0],
  ] as const)
    it(`the covering nodes are exactly those with |q - x_k| < R_w, weights LSHEPVAL's: ${label}`, () => {
      const { X, f, Q } = problem(seed, n, m, 200);
      const rw = radius > 0 ? new Float64Array(n).fill(radius) : lspFit(selected, X, f, m).rw;
      const w = lspWeights(selected, { X, rw, m }, Q);
      let covered = 0;
      for (let q = 0; q < 200; q++) {
        const near: number[] = [],
          tw: number[] = [];
        for (let k = 0; k < n; k++) {
          let s = 0;
          for (let j = 0; j < m; j++) s += (Q[q * m + j] - X[k * m + j]) ** 2;
          const d = Math.sqrt(s);
          if (d < rw[k]) near.push(k), tw.push(((rw[k] - d) / (rw[k] * d)) ** 2);
        }
        if (w.code[q] !== 0) {
          expect(w.code[q] === 1).toBe(near.length === 0);
          continue;
        }
        covered++;
        expect(Array.from(w.index.subarray(w.offsets[q], w.offsets[q + 1]))).toEqual(near);
        const sum = tw.reduce((a, b) => a + b, 0);
        tw.forEach((t, e) => expect(Math.abs(w.weight[w.offsets[q] + e] - t / sum)).toBeLessThanOrEqual(1e-15));
      }
      expect(covered).toBeGreaterThan(100);
    });
  it.skipIf(!nativeBackend)("native and wasm agree exactly (scan of all nodes; tree, then scans above 1,024 nodes)", () => {
    for (const [seed, n, m2] of [
      [12, 500, 4],
      [13, 1500, 3],
      [14, 1300, 9],
    ]) {
      const { X, f, Q, m } = problem(seed, n, m2, 300);
      const fit = lspFit(wasmBackend, X, f, m);
      const a = lspWeights(nativeBackend!, { X, rw: fit.rw, m }, Q),
        b = lspWeights(wasmBackend, { X, rw: fit.rw, m }, Q);
      expect(a.offsets).toEqual(b.offsets);
      expect(a.index).toEqual(b.index);
      expect(a.code).toEqual(b.code);
      expect(a.weight).toEqual(b.weight);
    }
  });
  if (!nativeBackend) console.warn(nativeSkipReason);
});
