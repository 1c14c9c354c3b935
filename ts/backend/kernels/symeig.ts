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
  // The same checks as native/binding/symeig.cc.
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
