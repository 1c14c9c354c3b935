// Squared Euclidean distances (mirror of native/src/distances.cc).
import { OK, BAD_ARGUMENT, NONFINITE, allFinite } from "./lib/status";
export { alloc, free } from "./lib/memory";

// out[i*n + j] = |Q_i - X_j|^2 for Q (nq x d) and X (n x d), row-major.
export function sqdist(X: usize, n: i32, Q: usize, nq: i32, d: i32, out: usize): i32 {
  if (n < 0 || nq < 0 || d < 1) return BAD_ARGUMENT;
  if (!allFinite(X, <usize>n * d) || !allFinite(Q, <usize>nq * d)) return NONFINITE;
  for (let i = 0; i < nq; ++i) {
    const q = Q + ((<usize>i * d) << 3);
    const row = out + ((<usize>i * n) << 3);
    for (let j = 0; j < n; ++j) {
      const x = X + ((<usize>j * d) << 3);
      let s = 0.0;
      for (let k = 0; k < d; ++k) {
        const t = load<f64>(q + (<usize>k << 3)) - load<f64>(x + (<usize>k << 3));
        s += t * t;
      }
      store<f64>(row + (<usize>j << 3), s);
    }
  }
  return OK;
}
