// The local variant of the rbf predictor (issue 16, item 1): above a few thousand training points one dense solve
// costs O(n³), so the spline is fitted on overlapping patches and blended by a partition of unity,
//
//   f(x) = Σ_p w_p(x) f_p(x) / Σ_p w_p(x),     w_p(x) = (1 − (‖x − c_p‖ / r_p)²)₊²,
//
// where f_p is the exact smoothing spline (λ by GCV, as the global fit chooses it) of the RBF_PATCH_POINTS training
// points nearest the patch centre c_p and r_p the distance of the farthest of them. Centres are spread by
// farthest-point sampling (deterministic: it starts at the point nearest the centroid), RBF_PATCH_COVER times as
// many as a tiling needs, so every training point lies in about that many patches and the weights overlap. The
// sizes are measured (bench/rbf-local-workload.ts, f = Σ sin(3 x_j) in 4 inputs, 10,000 points): 300 points and a
// cover of 2 / 4 / 6 give an RMSE of 5.5e-3 / 1.9e-3 / 1.5e-3 for 2.4 / 4.7 / 6.8 s of CPU; 500 points and a cover
// of 2, 2.2e-3 for 6.8 s: a cover of 4 is the knee. The
// patches' neighbour lists come from one batched call of the knn kernel (native/src/neighbors.cc). Cost: P solves of
// m = RBF_PATCH_POINTS points, O(P m³), linear in n; a prediction evaluates the few patches that cover it.
import { knn } from "../backend/kernels/neighbors.js";
import type { KernelBackend } from "../backend/kernel.js";
import type { Matrix } from "./matrix.js";

/** Training points per patch of the local variant. */
export const RBF_PATCH_POINTS = 300;
/** How many patches cover a training point on average (the overlap of the partition of unity). */
export const RBF_PATCH_COVER = 4;

export interface PatchLayout {
  /** Patch centres, row-major (patches × d). */
  centres: Float64Array;
  /** Per patch, its training rows (patches × m, nearest first). */
  members: Int32Array;
  /** Per patch, the distance of its farthest member (the support radius of its weight). */
  radii: Float64Array;
  /** Points per patch. */
  m: number;
}

/** The patches of an n-point training set X (normalized inputs): centres, members and radii. */
export function patchLayout(backend: KernelBackend, X: Matrix, m = RBF_PATCH_POINTS, cover = RBF_PATCH_COVER): PatchLayout {
  const { rows: n, cols: d, data } = X;
  const size = Math.min(m, n);
  const count = Math.max(1, Math.min(n, Math.ceil((cover * n) / size)));
  // Farthest-point sampling from the point nearest the centroid: centres spread over the data, none on top of another.
  const centroid = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let t = 0; t < d; t++) centroid[t] += data[i * d + t] / n;
  const dist2 = (i: number, c: ArrayLike<number>, off: number): number => {
    let s = 0;
    for (let t = 0; t < d; t++) {
      const e = data[i * d + t] - c[off + t];
      s += e * e;
    }
    return s;
  };
  let first = 0;
  for (let i = 1, best = dist2(0, centroid, 0); i < n; i++) {
    const v = dist2(i, centroid, 0);
    if (v < best) (best = v), (first = i);
  }
  const centres = new Float64Array(count * d);
  const nearest = new Float64Array(n).fill(Infinity);
  let pick = first;
  for (let p = 0; p < count; p++) {
    centres.set(data.subarray(pick * d, (pick + 1) * d), p * d);
    let far = -1,
      farIndex = 0;
    for (let i = 0; i < n; i++) {
      const v = dist2(i, centres, p * d);
      if (v < nearest[i]) nearest[i] = v;
      if (nearest[i] > far) (far = nearest[i]), (farIndex = i);
    }
    pick = farIndex;
  }
  const nb = knn(backend, data, centres, d, size);
  const radii = new Float64Array(count);
  for (let p = 0; p < count; p++) radii[p] = nb.distances[p * size + size - 1];
  return { centres, members: nb.indices, radii, m: size };
}

/**
 * The partition-of-unity weights of one query (row q of Q) over the patches: (1 − (ρ/r)²)₊² normalized to sum 1. A
 * query outside every patch's support (far from the data) takes the patch whose support it is relatively nearest.
 */
export function patchWeights(centres: Float64Array, radii: Float64Array, d: number, Q: Float64Array, q: number): { patch: number; weight: number }[] {
  const out: { patch: number; weight: number }[] = [];
  let total = 0,
    nearest = 0,
    nearestRatio = Infinity;
  for (let p = 0; p < radii.length; p++) {
    let s = 0;
    for (let t = 0; t < d; t++) {
      const e = Q[q * d + t] - centres[p * d + t];
      s += e * e;
    }
    const r = radii[p] > 0 ? radii[p] : Number.MIN_VALUE;
    const ratio2 = s / (r * r);
    if (ratio2 < nearestRatio) (nearestRatio = ratio2), (nearest = p);
    if (ratio2 < 1) {
      const w = (1 - ratio2) ** 2;
      out.push({ patch: p, weight: w });
      total += w;
    }
  }
  if (!(total > 0)) return [{ patch: nearest, weight: 1 }];
  for (const o of out) o.weight /= total;
  return out;
}
