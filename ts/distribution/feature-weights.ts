// `--feature-weights lr`: stretch the inputs before the interpolation weights are computed, by how much the
// response moves along each of them (the idea of Lux et al. 2018, who tuned feature weights by simulated annealing;
// here a closed form from the training data alone). A least-squares line of the training configurations' log mean
// (the mean when a mean is not positive) on the normalized inputs gives slopes β_j; input j is scaled by
// max(|β_j| / max_k |β_k|, FLOOR). Inputs along which the distribution barely changes shrink, so Delaunay and
// Shepard prefer neighbours along them — configurations whose runs are nearly the same — to neighbours across a
// steep direction. Only the weights see the scaled inputs; hull membership (extrapolated) does not change, since
// scaling is linear.
import type { ConfigRuns } from "./methods.js";

export const FEATURE_WEIGHT_NAMES = ["none", "lr"] as const;
export type FeatureWeightsName = (typeof FEATURE_WEIGHT_NAMES)[number];

/** Smallest scale of an input: no input collapses entirely (Delaunay needs full-dimensional points). */
export const FEATURE_WEIGHT_FLOOR = 0.05;

/** Per-input scales from the training configurations (normalized inputs U, rows × d, and their runs). */
export function featureScales(U: Float64Array, d: number, train: Pick<ConfigRuns, "mean">): Float64Array {
  const n = train.mean.length;
  const positive = train.mean.every((m) => m > 0);
  const y = Float64Array.from(train.mean, (m) => (positive ? Math.log(m) : m));
  // Normal equations of [1, u] (d + 1 unknowns; d is small), solved by Gaussian elimination with partial pivoting.
  const p = d + 1,
    A = new Float64Array(p * p),
    b = new Float64Array(p);
  const row = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    row[0] = 1;
    for (let j = 0; j < d; j++) row[j + 1] = U[i * d + j];
    for (let a = 0; a < p; a++) {
      b[a] += row[a] * y[i];
      for (let c = 0; c < p; c++) A[a * p + c] += row[a] * row[c];
    }
  }
  for (let k = 0; k < p; k++) {
    let piv = k;
    for (let i = k + 1; i < p; i++) if (Math.abs(A[i * p + k]) > Math.abs(A[piv * p + k])) piv = i;
    if (piv !== k) {
      for (let j = 0; j < p; j++) [A[k * p + j], A[piv * p + j]] = [A[piv * p + j], A[k * p + j]];
      [b[k], b[piv]] = [b[piv], b[k]];
    }
    if (A[k * p + k] === 0) continue;
    for (let i = k + 1; i < p; i++) {
      const f = A[i * p + k] / A[k * p + k];
      for (let j = k; j < p; j++) A[i * p + j] -= f * A[k * p + j];
      b[i] -= f * b[k];
    }
  }
  const beta = new Float64Array(p);
  for (let k = p - 1; k >= 0; k--) {
    let s = b[k];
    for (let j = k + 1; j < p; j++) s -= A[k * p + j] * beta[j];
    beta[k] = A[k * p + k] !== 0 ? s / A[k * p + k] : 0;
  }
  const slopes = Array.from(beta.subarray(1), Math.abs);
  const top = Math.max(...slopes);
  return Float64Array.from(slopes, (v) => (top > 0 && Number.isFinite(v) ? Math.max(v / top, FEATURE_WEIGHT_FLOOR) : 1));
}

/** U (rows × d) with input j multiplied by scales[j]. */
export function scaleInputs(U: Float64Array, scales: Float64Array, d: number): Float64Array {
  return Float64Array.from(U, (v, i) => v * scales[i % d]);
}
