// Batched weighted linear least squares: many small independent problems, minimum-norm when rank-deficient.
import { VarmapError } from "../../errors.js";
import type { StatusError } from "../status.js";
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";

export const LSTSQ: KernelSpec = {
  name: "lstsq",
  module: "lstsq",
  // A, b, w, weighted, offsets, nprob, n, rcond, x, rank
  args: [arg.f64in, arg.f64in, arg.f64in, arg.int, arg.i32in, arg.int, arg.int, arg.num, arg.f64out, arg.i32out],
  lengths: ([A, b, w, weighted, offsets, nprob, n, , x, rank]) => {
    const off = offsets as Int32Array;
    const [np, nn] = [nprob as number, n as number];
    if (np < 0 || nn < 1 || off.length < np + 1) return false;
    const rows = off[np];
    return (
      rows >= 0 &&
      (A as Float64Array).length >= rows * nn &&
      (b as Float64Array).length >= rows &&
      (!weighted || (w as Float64Array).length >= rows) &&
      (x as Float64Array).length >= np * nn &&
      (rank as Int32Array).length >= np
    );
  },
};

/** The kernel's own status codes (>= 10), as [code, message, remedy]. */
export const LSTSQ_STATUS: Record<number, StatusError> = {
  10: ["E_LSTSQ_NO_CONVERGENCE", "the SVD of a least-squares problem did not converge", "please report this with the input that triggers it"],
};

/** Machine epsilon: the unit DGELSS's RCOND is expressed in. */
export const EPSILON = 2.220446049250313e-16;

export interface LstsqBatch {
  /** Rows of all problems stacked, row-major, `n` columns. */
  A: Float64Array;
  /** Right-hand sides, one per row. */
  b: Float64Array;
  /** Optional row weights, one per row: each row of A and b is multiplied by its weight. */
  w?: Float64Array;
  /** Problem k owns rows offsets[k] .. offsets[k+1). Length nprob + 1. */
  offsets: Int32Array;
  /** Unknowns per problem. */
  n: number;
  /** Relative rank tolerance: singular values <= rcond · s_max count as zero (as DGELSS). Default (or negative): ε. */
  rcond?: number;
}

export interface LstsqResult {
  /** nprob × n solutions, row-major. */
  x: Float64Array;
  /** Computed rank of each problem. */
  rank: Int32Array;
}

/**
 * Solves min ‖diag(w)(A_k x − b_k)‖ for every problem k, returning the minimum-norm solution when A_k is
 * rank-deficient (SVD: singular values ≤ rcond·s_max are treated as zero, as LAPACK's DGELSS does).
 */
export function lstsq(backend: KernelBackend, batch: LstsqBatch, out?: LstsqResult): LstsqResult {
  const { A, b, w, offsets, n } = batch;
  const nprob = offsets.length - 1;
  const rcond = batch.rcond ?? -1;
  if (!Number.isInteger(n) || n < 1 || nprob < 0)
    throw new VarmapError("E_KERNEL_ARGUMENT", `lstsq: bad problem shape (n = ${n}, ${offsets.length} offsets)`, {
      remedy: "pass n >= 1 and nprob + 1 offsets",
    });
  const rows = nprob >= 0 ? offsets[nprob] : 0;
  for (let k = 0; k < nprob; k++)
    if (offsets[k] < 0 || offsets[k + 1] < offsets[k])
      throw new VarmapError("E_KERNEL_ARGUMENT", `lstsq: offsets must be non-negative and non-decreasing (problem ${k})`, {
        remedy: "this is a bug in the caller; please report it",
      });
  if (A.length < rows * n || b.length < rows || (w && w.length < rows))
    throw new VarmapError("E_KERNEL_ARGUMENT", `lstsq: ${rows} rows need ${rows * n} matrix values and ${rows} right-hand sides`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const result = out ?? { x: new Float64Array(nprob * n), rank: new Int32Array(nprob) };
  const status = backend.run(LSTSQ, [A, b, w ?? new Float64Array(0), w ? 1 : 0, offsets, nprob, n, rcond, result.x, result.rank]);
  checkStatus("lstsq", status, LSTSQ_STATUS);
  return result;
}
