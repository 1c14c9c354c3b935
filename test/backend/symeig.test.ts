import { describe, expect, it } from "vitest";
import { applyQ, applyQt, RBFGRAM, rbfgram, SYMEIG, SYMTRID, symeig, symtrid } from "../../ts/backend/kernels/symeig.js";
import { tridiagonalFit, tridiagonalSpectrum } from "../../ts/predict/rbf.js";
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

/** Q T Qᵀ rebuilt from symtrid's output, column by column (Q e_j through applyQ). */
function rebuilt(t: ReturnType<typeof symtrid>): Float64Array {
  const m = t.m;
  const QT = new Float64Array(m * m); // row j: Q T e_j
  for (let j = 0; j < m; j++) {
    const col = new Float64Array(m);
    col[j] = t.d[j];
    if (j > 0) col[j - 1] = t.e[j];
    if (j + 1 < m) col[j + 1] = t.e[j + 1];
    applyQ(t, col);
    QT.set(col, j * m);
  }
  // (Q T Qᵀ)_{ij} = Σ_k (Q T)_{ik} Q_{jk}: apply Q to the rows of (QT)ᵀ.
  const out = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    const row = Float64Array.from({ length: m }, (_, k) => QT[k * m + i]);
    applyQ(t, row);
    out.set(row, i * m);
  }
  return out;
}

describe(`symtrid on ${selected.name}`, () => {
  for (const m of [1, 2, 3, 17, 90])
    it(`random symmetric ${m} × ${m}: Q T Qᵀ = A to 1e-13 (relative), Qᵀ Q x = x`, () => {
      const A = randomSymmetric(m, 7 * m);
      const t = symtrid(selected, A, m);
      const B = rebuilt(t);
      let err = 0,
        scale = 0;
      for (let k = 0; k < m * m; k++) (err = Math.max(err, Math.abs(B[k] - A[k]))), (scale = Math.max(scale, Math.abs(A[k])));
      expect(err).toBeLessThanOrEqual(1e-13 * m * scale);
      const x = Float64Array.from({ length: m }, (_, i) => Math.sin(i + 1));
      const y = Float64Array.from(x);
      applyQt(t, y);
      applyQ(t, y);
      for (let i = 0; i < m; i++) expect(y[i]).toBeCloseTo(x[i], 13);
    });

  it("the tridiagonal's spectrum and GCV pieces equal symeig's: extremes, Σ|μ|, Σ λ/(μ+λ) and the residual", () => {
    const m = 40;
    // A positive semidefinite matrix with a few negative eigenvalues added: G Gᵀ − 0.5 e eᵀ.
    const r = rng(3);
    const G = Float64Array.from({ length: m * m }, () => r() - 0.5);
    const A = new Float64Array(m * m);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) {
        let s = -0.5 * (i < 3 && j < 3 ? 1 : 0);
        for (let k = 0; k < m; k++) s += G[i * m + k] * G[j * m + k];
        A[i * m + j] = s;
      }
    const eig = symeig(selected, A, m);
    const mu = Array.from(eig.values);
    const t = symtrid(selected, A, m);
    const spec = tridiagonalSpectrum(t.d, t.e);
    const top = Math.max(...mu.map(Math.abs));
    expect(Math.abs(spec.min - Math.min(...mu))).toBeLessThan(1e-12 * top);
    expect(Math.abs(spec.max - Math.max(...mu))).toBeLessThan(1e-12 * top);
    expect(Math.abs(spec.absSum - mu.reduce((s, v) => s + Math.abs(v), 0))).toBeLessThan(1e-11 * top);
    const y = Float64Array.from({ length: m }, (_, i) => Math.cos(i));
    const zE = Float64Array.from({ length: m }, (_, i) => eig.vectors.subarray(i * m, (i + 1) * m).reduce((s, v, j) => s + v * y[j], 0));
    const zT = Float64Array.from(y);
    applyQt(t, zT);
    for (const lambda of [Math.abs(Math.min(...mu)) + 0.01, 1, 100]) {
      let rss = 0,
        tr = 0;
      mu.forEach((v, i) => {
        const f = lambda / (v + lambda);
        (rss += (f * zE[i]) ** 2), (tr += f);
      });
      const got = tridiagonalFit(t.d, t.e, zT, lambda);
      expect(Math.abs(got.tr - tr) / tr).toBeLessThan(1e-9);
      expect(Math.abs(got.rss - rss) / rss).toBeLessThan(1e-9);
    }
  });

  it("returns status codes for NaN and short buffers, never crashes", () => {
    expect(selected.run(SYMTRID, [Float64Array.from([1, NaN, NaN, 1]), 2, new Float64Array(2), new Float64Array(2)])).toBe(Status.NONFINITE);
    expect(selected.run(SYMTRID, [new Float64Array(3), 2, new Float64Array(2), new Float64Array(2)])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(SYMTRID, [new Float64Array(4), 2, new Float64Array(2), new Float64Array(1)])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(SYMTRID, [new Float64Array(0), 0, new Float64Array(0), new Float64Array(0)])).toBe(Status.OK);
  });
});

describe("symtrid parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`the same tridiagonal and reflectors to 1e-12${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    for (const m of [2, 9, 64, 150]) {
      const A = randomSymmetric(m, 300 + m);
      const a = symtrid(nativeBackend!, A, m),
        b = symtrid(wasmBackend, A, m);
      const scale = Math.max(...Array.from(a.d, Math.abs), ...Array.from(a.e, Math.abs));
      for (let k = 0; k < m; k++) {
        expect(Math.abs(a.d[k] - b.d[k])).toBeLessThanOrEqual(1e-12 * scale);
        expect(Math.abs(a.e[k] - b.e[k])).toBeLessThanOrEqual(1e-12 * scale);
      }
      for (let k = 0; k < m * m; k++) expect(Math.abs(a.reflectors[k] - b.reflectors[k])).toBeLessThanOrEqual(1e-10);
    }
  });
});

/** Householder vectors (n × q row-major, unit) of the tail [1, X] as rbf.ts builds them, for rbfgram's tests. */
function tailReflectors(X: Float64Array, n: number, d: number): { V: Float64Array; q: number } {
  const q = d + 1;
  const V = new Float64Array(n * q);
  const cols = Array.from({ length: q }, (_, j) => Float64Array.from({ length: n }, (_, i) => (j === 0 ? 1 : X[i * d + j - 1])));
  for (let t = 0; t < q; t++) {
    const col = cols[t];
    for (let r = 0; r < t; r++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += V[i * q + r] * col[i];
      for (let i = 0; i < n; i++) col[i] -= 2 * s * V[i * q + r];
    }
    let norm = 0;
    for (let i = t; i < n; i++) norm += col[i] * col[i];
    const alpha = col[t] >= 0 ? -Math.sqrt(norm) : Math.sqrt(norm);
    col[t] -= alpha;
    let vn = 0;
    for (let i = t; i < n; i++) vn += col[i] * col[i];
    for (let i = t; i < n; i++) V[i * q + t] = col[i] / Math.sqrt(vn);
  }
  return { V, q };
}

describe(`rbfgram on ${selected.name}`, () => {
  it("K is φ of the distances; B is (H_q ⋯ H_1 K H_1 ⋯ H_q)[q:, q:] applied reflector by reflector, to 1e-12", () => {
    const n = 40,
      d = 3,
      r = rng(9);
    const X = Float64Array.from({ length: n * d }, r);
    const { V, q } = tailReflectors(X, n, d);
    for (const cubic of [false, true]) {
      const { K, B } = rbfgram(selected, X, n, d, cubic, V, q);
      const M = new Float64Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let t = 0; t < d; t++) s += (X[i * d + t] - X[j * d + t]) ** 2;
          const rr = Math.sqrt(s);
          M[i * n + j] = cubic ? rr ** 3 : rr > 0 ? rr * rr * Math.log(rr) : 0;
        }
      for (let k = 0; k < n * n; k++) expect(Math.abs(K[k] - M[k])).toBeLessThan(1e-14);
      for (let t = 0; t < q; t++) {
        // M ← H M H, H = I − 2 v vᵀ
        const v = Float64Array.from({ length: n }, (_, i) => V[i * q + t]);
        const w = Float64Array.from({ length: n }, (_, i) => v.reduce((s, vj, j) => s + M[i * n + j] * vj, 0));
        const vMv = v.reduce((s, vi, i) => s + vi * w[i], 0);
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) M[i * n + j] += -2 * v[i] * w[j] - 2 * w[i] * v[j] + 4 * vMv * v[i] * v[j];
      }
      const m = n - q;
      for (let i = 0; i < m; i++) for (let j = 0; j <= i; j++) expect(Math.abs(B[i * m + j] - M[(q + i) * n + q + j])).toBeLessThan(1e-12);
    }
  });

  it("returns status codes for NaN, a bad q and short buffers", () => {
    const X = Float64Array.from([0, 0, 1, 0, 0, 1]);
    expect(selected.run(RBFGRAM, [Float64Array.from([0, NaN, 1, 0, 0, 1]), 3, 2, 0, new Float64Array(3), 1, new Float64Array(9), new Float64Array(4)])).toBe(
      Status.NONFINITE,
    );
    expect(selected.run(RBFGRAM, [X, 3, 2, 0, new Float64Array(3), 4, new Float64Array(9), new Float64Array(4)])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(RBFGRAM, [X, 3, 2, 0, new Float64Array(3), 1, new Float64Array(8), new Float64Array(4)])).toBe(Status.BAD_ARGUMENT);
    expect(selected.run(RBFGRAM, [new Float64Array(0), 0, 2, 0, new Float64Array(0), 0, new Float64Array(0), new Float64Array(0)])).toBe(Status.OK);
  });
});

describe("rbfgram parity native vs wasm", () => {
  it.skipIf(!nativeBackend)(`the same K and B to 1e-13${nativeBackend ? "" : " — " + nativeSkipReason}`, () => {
    const n = 120,
      d = 4,
      r = rng(11);
    const X = Float64Array.from({ length: n * d }, r);
    const { V, q } = tailReflectors(X, n, d);
    for (const cubic of [false, true]) {
      const a = rbfgram(nativeBackend!, X, n, d, cubic, V, q),
        b = rbfgram(wasmBackend, X, n, d, cubic, V, q);
      for (let k = 0; k < n * n; k++) expect(Math.abs(a.K[k] - b.K[k])).toBeLessThanOrEqual(1e-13);
      for (let k = 0; k < a.B.length; k++) expect(Math.abs(a.B[k] - b.B[k])).toBeLessThanOrEqual(1e-12);
    }
  });
});
