// Squared Euclidean distances from query rows to data rows.
import { VarmapError } from "../../errors.js";
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";

export const SQDIST: KernelSpec = {
  name: "sqdist",
  module: "distances",
  args: [arg.f64in, arg.int, arg.f64in, arg.int, arg.int, arg.f64out],
  lengths: ([X, n, Q, nq, d, out]) => {
    const [ni, nqi, di] = [n, nq, d] as number[];
    if (!(ni >= 0 && nqi >= 0 && di >= 1)) return false;
    return (X as Float64Array).length >= ni * di && (Q as Float64Array).length >= nqi * di && (out as Float64Array).length >= nqi * ni;
  },
};

/** out[i*n + j] = |Q_i − X_j|² for X (n×d) and Q (nq×d), row-major. */
export function sqdist(backend: KernelBackend, X: Float64Array, Q: Float64Array, d: number, out?: Float64Array): Float64Array {
  const n = X.length / d;
  const nq = Q.length / d;
  if (!Number.isInteger(d) || d < 1 || !Number.isInteger(n) || !Number.isInteger(nq))
    throw new VarmapError("E_KERNEL_ARGUMENT", `sqdist: ${X.length} and ${Q.length} values are not whole rows of d = ${d}`, {
      remedy: "this is a bug in the caller; please report it",
    });
  const result = out ?? new Float64Array(n * nq);
  checkStatus("sqdist", backend.run(SQDIST, [X, n, Q, nq, d, result]));
  return result;
}
