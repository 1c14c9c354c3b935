// The k nearest neighbours of each query row (mirror of native/src/neighbors.cc; codes in neighbors.h).
import { OK, BAD_ARGUMENT, NONFINITE, NO_MEMORY, allFinite } from "./lib/status";
import { TILE, panelWidth, pack, panelDistances } from "./lib/panel";
export { alloc, free } from "./lib/memory";

export const KNN_TOO_FEW_POINTS: i32 = 10;

// A bounded max-heap of (squared distance, index) pairs ordered lexicographically, kept in the output buffers
// (key: f64 at dist, id: i32 at idx), so ties go to the lower index whatever the scan order.
@inline function before(key: usize, id: usize, a: i32, b: i32): bool {
  const ka = load<f64>(key + (<usize>a << 3)), kb = load<f64>(key + (<usize>b << 3));
  return ka < kb || (ka == kb && load<i32>(id + (<usize>a << 2)) < load<i32>(id + (<usize>b << 2)));
}

@inline function swap(key: usize, id: usize, a: i32, b: i32): void {
  const pa = key + (<usize>a << 3), pb = key + (<usize>b << 3);
  const k = load<f64>(pa);
  store<f64>(pa, load<f64>(pb));
  store<f64>(pb, k);
  const ia = id + (<usize>a << 2), ib = id + (<usize>b << 2);
  const i = load<i32>(ia);
  store<i32>(ia, load<i32>(ib));
  store<i32>(ib, i);
}

function siftUp(key: usize, id: usize, c: i32): void {
  while (c > 0) {
    const p = (c - 1) / 2;
    if (!before(key, id, p, c)) break;
    swap(key, id, p, c);
    c = p;
  }
}

function siftDown(key: usize, id: usize, p: i32, size: i32): void {
  for (;;) {
    const l = 2 * p + 1, r = l + 1;
    let m = p;
    if (l < size && before(key, id, m, l)) m = l;
    if (r < size && before(key, id, m, r)) m = r;
    if (m == p) break;
    swap(key, id, p, m);
    p = m;
  }
}

// True when one of the 8 doubles at p (one panel tile) is below w.
@inline function anyBelow8(p: usize, w: f64): bool {
  const ws = f64x2.splat(w);
  const lo = v128.or(f64x2.lt(v128.load(p, 0), ws), f64x2.lt(v128.load(p, 16), ws));
  const hi = v128.or(f64x2.lt(v128.load(p, 32), ws), f64x2.lt(v128.load(p, 48), ws));
  return v128.any_true(v128.or(lo, hi));
}

// For each query i: idx[i*k + r] / dist[i*k + r] are the data row and Euclidean distance of its r-th nearest
// neighbour, nearest first, ties by lower index; with hasExclude != 0, data row exclude[i] (-1: none) is skipped.
export function knn(X: usize, n: i32, Q: usize, nq: i32, d: i32, exclude: usize, hasExclude: i32, k: i32,
                    idx: usize, dist: usize): i32 {
  if (n < 0 || nq < 0 || d < 1 || k < 0) return BAD_ARGUMENT;
  if (hasExclude) {
    for (let i = 0; i < nq; ++i) {
      const e = load<i32>(exclude + (<usize>i << 2));
      if (e < -1 || e >= n) return BAD_ARGUMENT;
    }
  }
  if (!allFinite(X, <usize>n * d) || !allFinite(Q, <usize>nq * d)) return NONFINITE;
  for (let i = 0; i < nq; ++i) {
    const excluded = hasExclude && load<i32>(exclude + (<usize>i << 2)) >= 0 ? 1 : 0;
    if (k > n - excluded) return KNN_TOO_FEW_POINTS;
  }
  if (k == 0 || nq == 0) return OK;

  // Blocked like sqdist: each panel of data rows is packed once and scanned by every query's heap.
  const width = panelWidth(d);
  const pan = heap.alloc((<usize>width * d) << 3);
  const d2 = heap.alloc(<usize>width << 3);
  const sizes = heap.alloc(<usize>nq << 2);
  if (pan == 0 || d2 == 0 || sizes == 0) return NO_MEMORY;
  memory.fill(sizes, 0, <usize>nq << 2);
  for (let j0 = 0; j0 < n; j0 += width) {
    const rows = n - j0 < width ? n - j0 : width;
    const tiles = (rows + TILE - 1) / TILE;
    pack(X, j0, rows, d, width, pan);
    for (let i = 0; i < nq; ++i) {
      panelDistances(pan, width, tiles, d, Q + ((<usize>i * d) << 3), d2);
      const key = dist + ((<usize>i * k) << 3);
      const id = idx + ((<usize>i * k) << 2);
      const skip = hasExclude ? load<i32>(exclude + (<usize>i << 2)) - j0 : -1;
      const sp = sizes + (<usize>i << 2);
      let size = load<i32>(sp);
      // Candidates come in increasing index, so an equal distance never displaces a kept one (lower index).
      let worst = size == k ? load<f64>(key) : Infinity;
      for (let t0 = 0; t0 < rows; t0 += TILE) {
        const t1 = t0 + TILE < rows ? t0 + TILE : rows;
        // Once the heap is full most tiles hold no candidate: one vector comparison rejects them together.
        if (size == k && t1 - t0 == TILE && !anyBelow8(d2 + (<usize>t0 << 3), worst)) continue;
        for (let j = t0; j < t1; ++j) {
          const v = load<f64>(d2 + (<usize>j << 3));
          if (j == skip || !(size < k || v < worst)) continue;
          if (size < k) {
            store<f64>(key + (<usize>size << 3), v);
            store<i32>(id + (<usize>size << 2), j0 + j);
            siftUp(key, id, size++);
          } else {
            store<f64>(key, v);
            store<i32>(id, j0 + j);
            siftDown(key, id, 0, size);
          }
          if (size == k) worst = load<f64>(key);
        }
      }
      store<i32>(sp, size);
    }
  }
  for (let i = 0; i < nq; ++i) {
    const key = dist + ((<usize>i * k) << 3);
    const id = idx + ((<usize>i * k) << 2);
    for (let end = k - 1; end > 0; --end) { // heap sort: ascending (distance, index)
      swap(key, id, 0, end);
      siftDown(key, id, 0, end);
    }
    for (let r = 0; r < k; ++r) store<f64>(key + (<usize>r << 3), Math.sqrt(load<f64>(key + (<usize>r << 3))));
  }
  heap.free(sizes);
  heap.free(d2);
  heap.free(pan);
  return OK;
}
