// Interpolation weights w_i(y) over the training configurations (spec E.2), taken from the predictors' own
// kernels: Delaunay barycentric weights from Delaunay.locate(), Shepard weights from the LSP evaluation kernel
// (lspWeights), the nearest configuration from the knn kernel. Every query's weights are >= 0 and sum to 1.
import { VarmapError } from "../errors.js";
import { getBackend, type BackendChoice } from "../backend/index.js";
import { knn } from "../backend/kernels/neighbors.js";
import { Delaunay, QueryStatus } from "../predict/delaunay.js";
import { LinearShepard } from "../predict/lsp.js";
import { matrix } from "../predict/matrix.js";
import { finiteDistances } from "../predict/trust.js";

export const WEIGHT_NAMES = ["delaunay", "shepard", "nearest"] as const;
export type WeightsName = (typeof WEIGHT_NAMES)[number];

/** Sparse weights of nq queries: query q's are index/weight[offsets[q] .. offsets[q+1]) (rows of the training inputs). */
export interface WeightSet {
  offsets: Int32Array;
  index: Int32Array;
  weight: Float64Array;
  /** 1 where the query lies outside the training hull (Delaunay: weights at its projection; Shepard: no radius covers it). */
  extrapolated: Uint8Array;
  /** Distance to the hull (Delaunay), else to the nearest training configuration, in normalized units. */
  distance: Float64Array;
}

export interface WeightOptions {
  backend?: BackendChoice;
}

/**
 * Weights of the queries Q (nq × d, normalized inputs) over the training inputs X (n × d, normalized, in
 * training order: Delaunay and LSP break ties by it).
 */
export function interpolationWeights(name: WeightsName, X: Float64Array, Q: Float64Array, d: number, opts: WeightOptions = {}): WeightSet {
  const ws =
    name === "delaunay"
      ? delaunayWeights(X, Q, d, opts)
      : name === "shepard"
        ? shepardWeights(X, Q, d, opts)
        : name === "nearest"
          ? nearestWeights(X, Q, d, opts)
          : undefined;
  // A query near ±1e300 overflows the kernels' squared distances: its distance is recomputed without (issue 44).
  if (ws) return { ...ws, distance: finiteDistances(matrix(X, X.length / d, d), matrix(Q, Q.length / d, d), ws.distance) };
  throw new VarmapError("E_USAGE", `unknown weights '${String(name)}'`, { remedy: `use one of ${WEIGHT_NAMES.join(", ")}` });
}

function delaunayWeights(X: Float64Array, Q: Float64Array, d: number, opts: WeightOptions): WeightSet {
  const n = X.length / d,
    nq = Q.length / d,
    m = d + 1;
  const model = new Delaunay({ backend: opts.backend, inputs: { kind: "none" } }).fit(matrix(X, n, d), new Float64Array(n));
  const loc = model.locate(matrix(Q, nq, d));
  const offsets = Int32Array.from({ length: nq + 1 }, (_, q) => q * m);
  const index = Int32Array.from(loc.simplices);
  const weight = Float64Array.from(loc.weights);
  // Barycentric weights may be a rounding error below zero on a facet: clip and renormalize (convex weights).
  for (let q = 0; q < nq; q++) {
    let s = 0;
    for (let k = q * m; k < (q + 1) * m; k++) s += weight[k] = Math.max(weight[k], 0);
    for (let k = q * m; k < (q + 1) * m; k++) weight[k] /= s;
  }
  return {
    offsets,
    index,
    weight,
    extrapolated: Uint8Array.from(loc.status, (s) => (s === QueryStatus.INSIDE ? 0 : 1)),
    distance: Float64Array.from(loc.rnorm),
  };
}

function nearestWeights(X: Float64Array, Q: Float64Array, d: number, opts: WeightOptions): WeightSet {
  const nq = Q.length / d;
  const nb = knn(getBackend(opts.backend), X, Q, d, 1);
  return {
    offsets: Int32Array.from({ length: nq + 1 }, (_, q) => q),
    index: Int32Array.from(nb.indices),
    weight: new Float64Array(nq).fill(1),
    extrapolated: new Uint8Array(nq),
    distance: Float64Array.from(nb.distances),
  };
}

function shepardWeights(X: Float64Array, Q: Float64Array, d: number, opts: WeightOptions): WeightSet {
  const n = X.length / d;
  // The LSP fit supplies the radii R_w; its evaluation kernel then reports the normalized weights it uses.
  const model = new LinearShepard({ backend: opts.backend, inputs: { kind: "none" } }).fit(matrix(X, n, d), new Float64Array(n));
  const w = model.shepardWeights(matrix(Q, Q.length / d, d));
  const nq = Q.length / d;
  const nb = knn(getBackend(opts.backend), X, Q, d, 1);
  return {
    offsets: w.offsets,
    index: w.index,
    weight: w.weight,
    extrapolated: Uint8Array.from(w.fallback),
    distance: Float64Array.from(nb.distances.subarray(0, nq)),
  };
}
