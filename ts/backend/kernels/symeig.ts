// Symmetric eigendecomposition of one dense matrix (the rbf predictor's dense solve).
import { VarmapError } from "../../errors.js";
import type { StatusError } from "../status.js";
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";

export const SYMEIG: KernelSpec = {
  name: "symeig",
  module: "symeig",
  // A (m*m, in: the matrix, out: eigenvectors as rows), m, w (m eigenvalues)
  args: [arg.f64inout, arg.int, arg.f64out],
  lengths: ([A, m, w]) => {
    const mm = m as number;
    return mm >= 0 && (A as Float64Array).length >= mm * mm && (w as Float64Array).length >= mm;
  },
};

export const SYMEIG_STATUS: Record<number, StatusError> = {
  10: ["E_SYMEIG_NO_CONVERGENCE", "the QL iteration of a symmetric eigendecomposition did not converge", "please report this with the input that triggers it"],
};

export interface SymeigResult {
  /** Eigenvalues, unsorted. */
  values: Float64Array;
  /** m × m row-major: row i is the unit eigenvector of values[i]. */
  vectors: Float64Array;
}

/** A = Σ_i values[i] · v_i v_iᵀ for a symmetric m × m matrix (row-major; the lower triangle is used). */
export function symeig(backend: KernelBackend, A: Float64Array, m: number): SymeigResult {
  if (!Number.isInteger(m) || m < 0 || A.length !== m * m)
    throw new VarmapError("E_KERNEL_ARGUMENT", `symeig: a ${m} × ${m} matrix needs ${m * m} values, got ${A.length}`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const vectors = Float64Array.from(A);
  const values = new Float64Array(m);
  checkStatus("symeig", backend.run(SYMEIG, [vectors, m, values]), SYMEIG_STATUS);
  return { values, vectors };
}

export const SYMTRID: KernelSpec = {
  name: "symtrid",
  module: "symeig",
  // A (m*m, in: the matrix, out: the Householder vectors by rows), m, d (m, diagonal), e (m, subdiagonal)
  args: [arg.f64inout, arg.int, arg.f64out, arg.f64out],
  lengths: ([A, m, d, e]) => {
    const mm = m as number;
    return mm >= 0 && (A as Float64Array).length >= mm * mm && (d as Float64Array).length >= mm && (e as Float64Array).length >= mm;
  },
};

export interface SymtridResult {
  /** T's diagonal. */
  d: Float64Array;
  /** T's subdiagonal: e[i] = T[i][i−1], e[0] = 0. */
  e: Float64Array;
  /** m × m row-major: row i, entries 0…i−1, holds the unit (or zero) vector v_i of H_i = I − 2 v_i v_iᵀ. */
  reflectors: Float64Array;
  m: number;
}

/**
 * T = Qᵀ A Q tridiagonal for a symmetric m × m matrix (row-major; the lower triangle is used), Q = H_{m−1} ⋯ H_2
 * kept as its Householder vectors: about a sixth of symeig's cost (no eigenvectors are formed). inPlace: A itself
 * becomes `reflectors` (no copy).
 */
export function symtrid(backend: KernelBackend, A: Float64Array, m: number, inPlace = false): SymtridResult {
  if (!Number.isInteger(m) || m < 0 || A.length !== m * m)
    throw new VarmapError("E_KERNEL_ARGUMENT", `symtrid: a ${m} × ${m} matrix needs ${m * m} values, got ${A.length}`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const reflectors = inPlace ? A : Float64Array.from(A);
  const d = new Float64Array(m),
    e = new Float64Array(m);
  checkStatus("symtrid", backend.run(SYMTRID, [reflectors, m, d, e]), SYMEIG_STATUS);
  return { d, e, reflectors, m };
}

/** x ← Qᵀ x (Q of symtrid: H_2 ⋯ H_{m−1} x, the largest reflector first). */
export function applyQt(t: SymtridResult, x: Float64Array): void {
  for (let i = t.m - 1; i >= 2; i--) reflect(t, i, x);
}

/** x ← Q x (H_{m−1} ⋯ H_2 x, the smallest reflector first). */
export function applyQ(t: SymtridResult, x: Float64Array): void {
  for (let i = 2; i < t.m; i++) reflect(t, i, x);
}

function reflect(t: SymtridResult, i: number, x: Float64Array): void {
  const V = t.reflectors,
    o = i * t.m;
  let s = 0;
  for (let k = 0; k < i; k++) s += V[o + k] * x[k];
  if (s === 0) return;
  s *= 2;
  for (let k = 0; k < i; k++) x[k] -= s * V[o + k];
}

export const RBFGRAM: KernelSpec = {
  name: "rbfgram",
  module: "symeig",
  // X (n*d), n, d, cubic (0/1), V (n*q), q, K (n*n out), B ((n−q)² out)
  args: [arg.f64in, arg.int, arg.int, arg.int, arg.f64in, arg.int, arg.f64out, arg.f64out],
  lengths: ([X, n, d, , V, q, K, B]) => {
    const nn = n as number,
      dd = d as number,
      qq = q as number;
    if (!(nn >= 0 && dd >= 0 && qq >= 0 && qq <= nn)) return false;
    const mm = nn - qq;
    return (
      (X as Float64Array).length >= nn * dd &&
      (V as Float64Array).length >= nn * qq &&
      (K as Float64Array).length >= nn * nn &&
      (B as Float64Array).length >= mm * mm
    );
  },
};

/**
 * The rbf predictor's kernel matrix K (n × n, K_ij = φ(‖x_i − x_j‖), φ = r² log r or r³) and the lower triangle of
 * B = (Qᵀ K Q)[q:, q:], Q = H_1 ⋯ H_q (H_t = I − 2 v_t v_tᵀ, v_t column t of the n × q row-major V): the projected
 * matrix whose tridiagonalization gives the spline at every λ (native/include/varmap/symeig.h).
 */
export function rbfgram(
  backend: KernelBackend,
  X: Float64Array,
  n: number,
  d: number,
  cubic: boolean,
  V: Float64Array,
  q: number,
): { K: Float64Array; B: Float64Array } {
  if (!Number.isInteger(n) || !Number.isInteger(d) || !Number.isInteger(q) || n < 0 || d < 0 || q < 0 || q > n || X.length !== n * d || V.length !== n * q)
    throw new VarmapError(
      "E_KERNEL_ARGUMENT",
      `rbfgram: ${n} points in ${d} inputs with ${q} reflectors need ${n * d} and ${n * q} values, got ${X.length} and ${V.length}`,
      {
        remedy: "this is a bug in the caller; please report it",
      },
    );
  const K = new Float64Array(n * n),
    B = new Float64Array((n - q) * (n - q));
  checkStatus("rbfgram", backend.run(RBFGRAM, [X, n, d, cubic ? 1 : 0, V, q, K, B]), SYMEIG_STATUS);
  return { K, B };
}
