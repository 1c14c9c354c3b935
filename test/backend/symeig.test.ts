import { describe, expect, it } from "vitest";
import { SYMEIG, symeig } from "../../ts/backend/kernels/symeig.js";
import { Status } from "../../ts/backend/status.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend } from "../helpers/backends.js";

function randomSymmetric(m: number, seed: number): Float64Array {
  const r = rng(seed);
  const A = new Float64Array(m * m);
  for (let i = 0; i < m; i++)
    for (let j = 0; j <= i; j++) {
      const v = 2 * r() - 1;
      A[i * m + j] = v;
      A[j * m + i] = v;
    }
  return A;
}

/** max_k ‖A v_k − w_k v_k‖ and max |v_iᵀ v_j − δ_ij|. */
function residuals(A: Float64Array, m: number, w: Float64Array, V: Float64Array): { eig: number; orth: number } {
  let eig = 0,
    orth = 0;
  for (let k = 0; k < m; k++) {
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < m; j++) s += A[i * m + j] * V[k * m + j];
      eig = Math.max(eig, Math.abs(s - w[k] * V[k * m + i]));
    }
    for (let l = 0; l <= k; l++) {
      let s = 0;
      for (let j = 0; j < m; j++) s += V[k * m + j] * V[l * m + j];
      orth = Math.max(orth, Math.abs(s - (k === l ? 1 : 0)));
    }
  }
  return { eig, orth };
}

describe(`symeig on ${selected.name}`, () => {
  it("diagonalizes a 2 × 2 matrix exactly: [[2, 1], [1, 2]] has eigenvalues 1 and 3", () => {
    const r = symeig(selected, Float64Array.from([2, 1, 1, 2]), 2);
    expect(Array.from(r.values).sort()).toEqual([expect.closeTo(1, 14), expect.closeTo(3, 14)]);
  });

  for (const m of [1, 3, 17, 120])
    it(`random symmetric ${m} × ${m}: A v = w v and V orthonormal to 1e-12 (relative)`, () => {
      const A = randomSymmetric(m, m);
      const r = symeig(selected, A, m);
      const res = residuals(A, m, r.values, r.vectors);
      expect(res.eig).toBeLessThanOrEqual(1e-12 * m);
      expect(res.orth).toBeLessThanOrEqual(1e-12 * m);
    });

  it("handles a singular matrix with repeated rows (near-duplicate points) and the zero matrix", () => {
    const m = 6;
    const A = randomSymmetric(m, 5);
    for (let j = 0; j < m; j++) (A[1 * m + j] = A[0 * m + j]), (A[j * m + 1] = A[j * m + 0]);
    A[1 * m + 1] = A[0];
    const r = symeig(selected, A, m);
    expect(Math.min(...Array.from(r.values, Math.abs))).toBeLessThan(1e-13);
    expect(residuals(A, m, r.values, r.vectors).eig).toBeLessThan(1e-13);
    const Z = symeig(selected, new Float64Array(16), 4);
    expect(Array.from(Z.values)).toEqual([0, 0, 0, 0]);
  });

  it("returns status codes for NaN and short buffers, never crashes", () => {
    expect(selected.run(SYMEIG, [Float64Array.from([1, NaN, NaN, 1]), 2, new Float64Array(2)])).toBe(Status.NONFINITE);
    expect(selected.run(SYMEIG, [new Float64Array(3), 2, new Float64Array(2)])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(SYMEIG, [new Float64Array(4), 2, new Float64Array(1)])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(SYMEIG, [new Float64Array(0), 0, new Float64Array(0)])).toBe(Status.OK);
    expect(() => symeig(selected, Float64Array.from([1, Infinity, Infinity, 1]), 2)).toThrow(/NaN or infinity/);
  });
});

describe("symeig parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`same eigenvalues to 1e-12 and eigenvectors up to sign${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    for (const m of [2, 9, 64]) {
      const A = randomSymmetric(m, 100 + m);
      const a = symeig(nativeBackend!, A, m),
        b = symeig(wasmBackend, A, m);
      const scale = Math.max(...Array.from(a.values, Math.abs));
      for (let k = 0; k < m; k++) {
        expect(Math.abs(a.values[k] - b.values[k])).toBeLessThanOrEqual(1e-12 * scale);
        let dot = 0;
        for (let j = 0; j < m; j++) dot += a.vectors[k * m + j] * b.vectors[k * m + j];
        expect(Math.abs(Math.abs(dot) - 1)).toBeLessThanOrEqual(1e-10);
      }
    }
  });
});
