// Delaunay simplex location (native/src/delaunay.cc, wasm/delaunay.ts): for each query the d+1 vertices of a
// Delaunay simplex containing it (or its projection onto the convex hull) and the barycentric weights.
import { VarmapError } from "../../errors.js";
import { arg, type KernelBackend, type KernelSpec } from "../kernel.js";
import { checkStatus } from "../status.js";
import { checkKernelShape } from "../sizes.js";

export const DELAUNAY_LOCATE: KernelSpec = {
  name: "delaunayLocate",
  module: "delaunay",
  args: [arg.f64in, arg.int, arg.int, arg.f64in, arg.int, arg.num, arg.num, arg.i32out, arg.f64out, arg.i32out, arg.f64out, arg.i32out],
  lengths: ([X, n, d, Q, nq, , , simplices, weights, qstatus, rnorm, info]) => {
    const [nn, dd, qq] = [n as number, d as number, nq as number];
    return (
      nn >= 0 &&
      qq >= 0 &&
      dd >= 1 &&
      (X as Float64Array).length >= nn * dd &&
      (Q as Float64Array).length >= qq * dd &&
      (simplices as Int32Array).length >= qq * (dd + 1) &&
      (weights as Float64Array).length >= qq * (dd + 1) &&
      (qstatus as Int32Array).length >= qq &&
      (rnorm as Float64Array).length >= qq &&
      (info as Int32Array).length >= 4
    );
  },
};

/** Per-query codes in `status`. */
export const QueryStatus = { INSIDE: 0, EXTRAPOLATED: 1, TOO_FAR: 2 } as const;

export interface Location {
  /** nq × (d+1) vertex indices into the data rows, ascending within each simplex. */
  simplices: Int32Array;
  /** nq × (d+1) barycentric weights (of the query, or of its projection onto the hull when extrapolated). */
  weights: Float64Array;
  /** Per query: 0 inside the hull, 1 extrapolated (located at its projection), 2 farther than maxExtrapolation. */
  status: Int32Array;
  /** Per query: distance to the convex hull (0 inside), in the units of the data. */
  rnorm: Float64Array;
  /** Diagnostics: distinct facet flips computed and walk steps taken. */
  flips: number;
  steps: number;
}

export interface LocateOptions {
  /** A barycentric weight >= −eps counts as inside (default 1e-10). */
  eps?: number;
  /** Largest hull distance still reported as extrapolated (default Infinity). */
  maxExtrapolation?: number;
}

/** Locates every row of Q (nq×d) in the Delaunay triangulation of X (n×d), row-major, in one kernel call. */
export function delaunayLocate(backend: KernelBackend, X: Float64Array, Q: Float64Array, d: number, opts: LocateOptions = {}): Location {
  const n = X.length / d;
  const nq = Q.length / d;
  checkKernelShape("delaunayLocate", { d }, { n, nq }, [nq * (d + 1)]);
  const simplices = new Int32Array(nq * (d + 1));
  const weights = new Float64Array(nq * (d + 1));
  const status = new Int32Array(nq);
  const rnorm = new Float64Array(nq);
  const info = new Int32Array(4);
  const eps = opts.eps ?? 1e-10;
  const maxExtrap = opts.maxExtrapolation ?? Infinity;
  const code = backend.run(DELAUNAY_LOCATE, [X, n, d, Q, nq, eps, maxExtrap, simplices, weights, status, rnorm, info]);
  if (code === 10)
    throw new VarmapError("E_DUPLICATE_POINTS", `delaunay: data points ${info[0]} and ${info[1]} coincide (closer than 1e-6 of the data's radius)`, {
      remedy: "aggregate repeated configurations into one row (or drop one of them) before fitting",
    });
  if (code === 11)
    throw new VarmapError("E_DEGENERATE_DATA", `delaunay: the ${n} data points lie in a ${info[0]}-dimensional affine subspace of the ${d} inputs`, {
      remedy: "drop inputs that are constant or linear combinations of others, or add configurations that vary them",
    });
  if (code === 12)
    throw new VarmapError("E_TOO_FEW_POINTS", `delaunay: ${n} data points cannot form a simplex in ${d} dimensions (needs ${d + 1})`, {
      remedy: "add configurations to the training set or use fewer inputs",
    });
  if (code === 13)
    throw new VarmapError("E_NO_CONVERGENCE", `delaunay: the search for query ${info[0]} did not converge`, {
      remedy: "the data are badly conditioned: rescale the inputs (e.g. --log-inputs) or remove nearly coincident points",
    });
  checkStatus("delaunayLocate", code);
  return { simplices, weights, status, rnorm, flips: info[2], steps: info[3] };
}
