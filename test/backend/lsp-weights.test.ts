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
