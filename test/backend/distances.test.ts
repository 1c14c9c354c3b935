import { describe, expect, it } from "vitest";
import { sqdist, SQDIST } from "../../ts/backend/kernels/distances.js";
import { Status } from "../../ts/backend/status.js";
import { nativeBackend, nativeSkipReason, rng, selected, wasmBackend, relErr } from "../helpers/backends.js";

describe(`sqdist on ${selected.name}`, () => {
  it("computes exact small cases", () => {
    const X = Float64Array.from([0, 0, 0, 1, 2, 2, 3, 0, 4]);
    const Q = Float64Array.from([0, 0, 0, 1, 1, 1]);
    expect(Array.from(sqdist(selected, X, Q, 3))).toEqual([0, 9, 25, 3, 2, 14]);
  });

  it("handles one dimension and empty batches", () => {
    expect(Array.from(sqdist(selected, Float64Array.from([1, 4]), Float64Array.from([2]), 1))).toEqual([1, 4]);
    expect(sqdist(selected, Float64Array.from([1, 4]), new Float64Array(0), 1).length).toBe(0);
  });

  it("returns a status for NaN/Inf and mismatched sizes, never crashes", () => {
    const out = new Float64Array(2);
    expect(selected.run(SQDIST, [Float64Array.from([NaN, 1]), 2, Float64Array.from([0]), 1, 1, out])).toBe(Status.NONFINITE);
    expect(selected.run(SQDIST, [Float64Array.from([Infinity, 1]), 2, Float64Array.from([0]), 1, 1, out])).toBe(Status.NONFINITE);
    expect(selected.run(SQDIST, [Float64Array.from([0, 1]), 2, Float64Array.from([0]), 1, 0, out])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(SQDIST, [Float64Array.from([0, 1]), 2, Float64Array.from([0]), 1, 1, new Float64Array(1)])).toBe(
      selected.name === "native" ? Status.BAD_ARGUMENT : Status.BAD_ARGUMENT,
    );
    expect(() => sqdist(selected, Float64Array.from([NaN, 1]), Float64Array.from([0]), 1)).toThrow(/NaN or infinity/);
    expect(() => sqdist(selected, Float64Array.from([1, 2, 3]), Float64Array.from([0, 0]), 2)).toThrow(/not whole rows of d = 2/);
  });
});

describe(`sqdist blocked kernel on ${selected.name}`, () => {
  it("equals the plain summation loop bit for bit at ragged sizes (partial tiles and panels)", () => {
    const r = rng(11);
    for (const [n, nq, d] of [
      [1, 1, 1],
      [7, 3, 2],
      [9, 2, 3],
      [517, 5, 4],
      [1030, 3, 8],
      [70, 4, 300],
    ]) {
      const X = Float64Array.from({ length: n * d }, () => r() * 2e3 - 1e3);
      const Q = Float64Array.from({ length: nq * d }, () => r() * 2e3 - 1e3);
      const got = sqdist(selected, X, Q, d);
      for (let i = 0; i < nq; i++)
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let k = 0; k < d; k++) {
            const t = Q[i * d + k] - X[j * d + k];
            s += t * t;
          }
          if (got[i * n + j] !== s) expect({ i, j, n, d, got: got[i * n + j] }).toEqual({ i, j, n, d, got: s });
        }
    }
  });
});

describe("sqdist parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`agrees to 1e-12 relative on random batches${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const r = rng(7);
    for (const d of [1, 3, 8, 20]) {
      const X = Float64Array.from({ length: 200 * d }, () => r() * 10 - 5);
      const Q = Float64Array.from({ length: 50 * d }, () => r() * 10 - 5);
      const a = sqdist(nativeBackend!, X, Q, d);
      const b = sqdist(wasmBackend, X, Q, d);
      for (let i = 0; i < a.length; i++) expect(relErr(a[i], b[i])).toBeLessThanOrEqual(1e-12);
    }
  });
});

describe("kernels read SharedArrayBuffer-backed arrays (what the worker pool passes)", () => {
  it(`sqdist on ${selected.name} with shared inputs and a shared, offset output`, () => {
    const X = new Float64Array(new SharedArrayBuffer(6 * 8));
    X.set([0, 0, 3, 4, 1, 1]);
    const Q = new Float64Array(new SharedArrayBuffer(3 * 8), 8, 2);
    Q.set([1, 2]);
    const out = new Float64Array(new SharedArrayBuffer(5 * 8), 16, 3);
    sqdist(selected, X, Q, 2, out);
    expect(Array.from(out)).toEqual([5, 8, 1]);
  });
});
