// Squared Euclidean distances (mirror of native/src/distances.cc).
import { OK, BAD_ARGUMENT, NONFINITE, NO_MEMORY, allFinite } from "./lib/status";
import { TILE, panelWidth, pack, panelDistances } from "./lib/panel";
export { alloc, free } from "./lib/memory";

// out[i*n + j] = |Q_i - X_j|^2 for Q (nq x d) and X (n x d), row-major.
// Blocked over data rows: each block is packed once into a panel and reused by every query.
export function sqdist(X: usize, n: i32, Q: usize, nq: i32, d: i32, out: usize): i32 {
  if (n < 0 || nq < 0 || d < 1) return BAD_ARGUMENT;
  if (!allFinite(X, <usize>n * d) || !allFinite(Q, <usize>nq * d)) return NONFINITE;
  const width = panelWidth(d);
  const pan = heap.alloc((<usize>width * d) << 3);
  const tail = heap.alloc(<usize>width << 3);
  if (pan == 0 || tail == 0) return NO_MEMORY;
  for (let j0 = 0; j0 < n; j0 += width) {
    const rows = n - j0 < width ? n - j0 : width;
    const tiles = (rows + TILE - 1) / TILE;
    const whole = rows == tiles * TILE; // a whole number of tiles: write straight into out
    pack(X, j0, rows, d, width, pan);
    for (let i = 0; i < nq; ++i) {
      const row = out + ((<usize>i * n + j0) << 3);
      const q = Q + ((<usize>i * d) << 3);
      if (whole) {
        panelDistances(pan, width, tiles, d, q, row);
      } else {
        panelDistances(pan, width, tiles, d, q, tail);
        memory.copy(row, tail, <usize>rows << 3);
      }
    }
  }
  heap.free(tail);
  heap.free(pan);
  return OK;
}
