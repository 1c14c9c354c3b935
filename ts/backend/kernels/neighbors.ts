// The k nearest neighbours of each query row among data rows (exact; ties by lower index).
import { VarmapError } from "../../errors.js";
import type { StatusError } from "../status.js";
import { arg, type KernelArg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";
import { checkKernelShape } from "../sizes.js";

export const KNN: KernelSpec = {
  name: "knn",
  module: "neighbors",
  // X, n, Q, nq, d, exclude, hasExclude, k, idx (out), dist (out)
  args: [arg.f64in, arg.int, arg.f64in, arg.int, arg.int, arg.i32in, arg.int, arg.int, arg.i32out, arg.f64out],
  lengths: (a: readonly KernelArg[]) => {
    const [n, nq, d, hasExclude, k] = [a[1], a[3], a[4], a[6], a[7]] as number[];
    const len = (i: number) => (a[i] as Float64Array | Int32Array).length;
    if (!(n >= 0 && nq >= 0 && d >= 1 && k >= 0)) return false;
    return len(0) >= n * d && len(2) >= nq * d && (!hasExclude || len(5) >= nq) && len(8) >= nq * k && len(9) >= nq * k;
  },
};

/** Status codes of the knn kernel (native/include/varmap/neighbors.h). */
export const KNN_TOO_FEW_POINTS = 10;

const codes: Record<number, StatusError> = {
  [KNN_TOO_FEW_POINTS]: [
    "E_TOO_FEW_POINTS",
    "k is larger than the number of data points to choose from",
    "ask for fewer neighbours or provide more data points",
  ],
};

export interface Neighbors {
  /** indices[i*k + r]: the data row of query i's r-th nearest neighbour (nearest first, ties by lower index). */
  indices: Int32Array;
  /** distances[i*k + r]: its Euclidean distance. */
  distances: Float64Array;
}

export interface KnnOptions {
  /** exclude[i] is a data row query i must not return (-1: none), e.g. the query's own row. */
  exclude?: Int32Array;
  /** The queries are the data rows themselves (Q = X): return the k nearest *other* rows. */
  excludeSelf?: boolean;
  /** Caller-provided outputs (nq*k each), reused across calls. */
  out?: Neighbors;
}

/** The k nearest neighbours in X (n×d, row-major) of each row of Q (nq×d). */
export function knn(backend: KernelBackend, X: Float64Array, Q: Float64Array, d: number, k: number, opts: KnnOptions = {}): Neighbors {
  const n = X.length / d;
  const nq = Q.length / d;
  if (!Number.isInteger(d) || d < 1 || !Number.isInteger(n) || !Number.isInteger(nq))
    throw new VarmapError("E_KERNEL_ARGUMENT", `knn: ${X.length} and ${Q.length} values are not whole rows of d = ${d}`, {
      remedy: "this is a bug in the caller; please report it",
    });
  checkKernelShape("knn", {}, { k }, [nq * k]); // k = 0 is allowed (no neighbours)
  let exclude = opts.exclude;
  if (opts.excludeSelf) {
    if (nq > n) throw new VarmapError("E_ARGUMENT", "knn: excludeSelf needs the queries to be the data rows");
    exclude = Int32Array.from({ length: nq }, (_, i) => i);
  }
  const result = opts.out ?? { indices: new Int32Array(nq * k), distances: new Float64Array(nq * k) };
  const status = backend.run(KNN, [X, n, Q, nq, d, exclude ?? new Int32Array(0), exclude ? 1 : 0, k, result.indices, result.distances]);
  checkStatus("knn", status, codes);
  return result;
}
