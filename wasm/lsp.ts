// The linear Shepard (LSP) kernels (mirror of native/src/lsp.cc; see native/include/varmap/lsp.h for the
// method and status codes). Same arithmetic in the same order, so both backends agree to rounding.
import { OK, BAD_ARGUMENT, NONFINITE, NO_MEMORY, allFinite } from "./lib/status";
import { lstsqSolve, lstsqWorkSize } from "./lib/lstsq";
export { alloc, free } from "./lib/memory";

const LSP_TOO_FEW_POINTS: i32 = 10;
const LSP_DUPLICATE_POINTS: i32 = 11;
const LSP_LSTSQ_FAILED: i32 = 12;
const LSP_BAD_RADIUS: i32 = 13;
const EPS: f64 = 2.220446049250313e-16;
const LEAF_SIZE: i32 = 16;
const PRUNE_SLACK: f64 = 1.0 + 1e-9;

@inline function ld(p: usize, i: usize): f64 {
  return load<f64>(p + (i << 3));
}
@inline function st(p: usize, i: usize, v: f64): void {
  store<f64>(p + (i << 3), v);
}
@inline function ldi(p: usize, i: usize): i32 {
  return load<i32>(p + (i << 2));
}
@inline function sti(p: usize, i: usize, v: i32): void {
  store<i32>(p + (i << 2), v);
}

// Squared distance as LSHEP/LSHEPVAL compute it (differences squared, summed in coordinate order).
function sqdist(a: usize, b: usize, m: i32): f64 {
  let s = 0.0;
  for (let j = 0; j < m; ++j) {
    const t = ld(a, j) - ld(b, j);
    s += t * t;
  }
  return s;
}

// The same sum, abandoned once a partial sum exceeds bound.
function sqdistBounded(a: usize, b: usize, m: i32, bound: f64): f64 {
  let s = 0.0;
  for (let j = 0; j < m; ++j) {
    const t = ld(a, j) - ld(b, j);
    s += t * t;
    if (s > bound) return s;
  }
  return s;
}

// ---- k-d tree (median split on the widest coordinate); cells in flat arrays ----
let X: usize = 0;
let M: i32 = 0;
let perm: usize = 0;
let cLo: usize = 0;
let cHi: usize = 0;
let cLeft: usize = 0;
let cRight: usize = 0;
let cDim: usize = 0;
let cSplit: usize = 0;
let cMax: usize = 0;
let cells: i32 = 0;

@inline function key(p: i32, d: i32): f64 {
  return ld(X, <usize>p * M + d);
}
// (coordinate, index) order: a strict total order, so the partition is deterministic.
@inline function less(p: i32, q: i32, d: i32): bool {
  const u = key(p, d), v = key(q, d);
  return u < v || (u == v && p < q);
}

// Rearranges perm[a..b) so perm[k] is the element of rank k - a, smaller ones before it, larger after.
function select(a: i32, b: i32, k: i32, d: i32): void {
  let lo = a, hi = b - 1;
  while (hi > lo) {
    // median of three as the pivot, moved to hi
    const mid = lo + ((hi - lo) >> 1);
    if (less(ldi(perm, mid), ldi(perm, lo), d)) swap(mid, lo);
    if (less(ldi(perm, hi), ldi(perm, lo), d)) swap(hi, lo);
    if (less(ldi(perm, mid), ldi(perm, hi), d)) swap(mid, hi);
    const pivot = ldi(perm, hi);
    let s = lo;
    for (let i = lo; i < hi; ++i) {
      if (less(ldi(perm, i), pivot, d)) {
        swap(i, s);
        ++s;
      }
    }
    swap(s, hi);
    if (s == k) return;
    if (s < k) lo = s + 1;
    else hi = s - 1;
  }
}
@inline function swap(i: i32, j: i32): void {
  const t = ldi(perm, i);
  sti(perm, i, ldi(perm, j));
  sti(perm, j, t);
}

function build(a: i32, b: i32): i32 {
  const id = cells++;
  sti(cLo, id, a);
  sti(cHi, id, b);
  sti(cLeft, id, -1);
  sti(cRight, id, -1);
  sti(cDim, id, 0);
  st(cSplit, id, 0.0);
  if (b - a <= LEAF_SIZE) return id;
  let best = 0;
  let spread = -1.0;
  for (let j = 0; j < M; ++j) {
    let mn = key(ldi(perm, a), j), mx = mn;
    for (let i = a + 1; i < b; ++i) {
      const v = key(ldi(perm, i), j);
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
    }
    if (mx - mn > spread) {
      spread = mx - mn;
      best = j;
    }
  }
  if (!(spread > 0.0)) return id;
  const mid = a + ((b - a) >> 1);
  select(a, b, mid, best);
  sti(cDim, id, best);
  st(cSplit, id, key(ldi(perm, mid), best));
  const l = build(a, mid);
  const r = build(mid, b);
  sti(cLeft, id, l);
  sti(cRight, id, r);
  return id;
}

// Allocates and builds the tree over n rows of Xp (m columns); false when out of memory.
function buildTree(Xp: usize, n: i32, m: i32): bool {
  X = Xp;
  M = m;
  const cap = <usize>(2 * (n / 8 + 2));
  perm = heap.alloc(<usize>n * 4 + 8);
  cLo = heap.alloc(cap * 4);
  cHi = heap.alloc(cap * 4);
  cLeft = heap.alloc(cap * 4);
  cRight = heap.alloc(cap * 4);
  cDim = heap.alloc(cap * 4);
  cSplit = heap.alloc(cap * 8);
  cMax = heap.alloc(cap * 8);
  if (!perm || !cLo || !cHi || !cLeft || !cRight || !cDim || !cSplit || !cMax) return false;
  for (let i = 0; i < n; ++i) sti(perm, i, i);
  cells = 0;
  if (n > 0) build(0, n);
  return true;
}

function freeTree(): void {
  if (perm) heap.free(perm);
  if (cLo) heap.free(cLo);
  if (cHi) heap.free(cHi);
  if (cLeft) heap.free(cLeft);
  if (cRight) heap.free(cRight);
  if (cDim) heap.free(cDim);
  if (cSplit) heap.free(cSplit);
  if (cMax) heap.free(cMax);
  perm = cLo = cHi = cLeft = cRight = cDim = cSplit = cMax = 0;
}

// ---- k nearest (excluding self), ordered by (squared distance, index) ----
let kK: i32 = 0;
let kQ: usize = 0;
let kSelf: i32 = 0;
let kD2: usize = 0;
let kIdx: usize = 0;
let kOff: usize = 0;
let kCount: i32 = 0;

@inline function better(d: f64, i: i32, slot: i32): bool {
  const ds = ld(kD2, slot);
  return d < ds || (d == ds && i < ldi(kIdx, slot));
}

function offer(d: f64, i: i32): void {
  let s = kCount < kK ? kCount++ : kK - 1;
  while (s > 0 && better(d, i, s - 1)) {
    st(kD2, s, ld(kD2, s - 1));
    sti(kIdx, s, ldi(kIdx, s - 1));
    --s;
  }
  st(kD2, s, d);
  sti(kIdx, s, i);
}

function knnSearch(c: i32, lb: f64): void {
  const left = ldi(cLeft, c);
  if (left < 0) {
    const hi = ldi(cHi, c);
    for (let p = ldi(cLo, c); p < hi; ++p) {
      const i = ldi(perm, p);
      if (i == kSelf) continue;
      if (kCount < kK) {
        offer(sqdist(X + ((<usize>i * M) << 3), kQ, M), i);
      } else {
        const d = sqdistBounded(X + ((<usize>i * M) << 3), kQ, M, ld(kD2, kK - 1));
        if (better(d, i, kK - 1)) offer(d, i);
      }
    }
    return;
  }
  const j = ldi(cDim, c);
  const diff = ld(kQ, j) - ld(cSplit, c);
  const right = ldi(cRight, c);
  const nearC = diff < 0.0 ? left : right;
  const farC = diff < 0.0 ? right : left;
  knnSearch(nearC, lb);
  const old = ld(kOff, j);
  const flb = lb - old * old + diff * diff;
  if (kCount < kK || flb <= ld(kD2, kK - 1) * PRUNE_SLACK) {
    st(kOff, j, diff);
    knnSearch(farC, flb);
    st(kOff, j, old);
  }
}

// ---- nodes whose radius of influence covers a query ----
let vRw: usize = 0;
let vQ: usize = 0;
let vOff: usize = 0;
let vCover: usize = 0;
let vCount: i32 = 0;

function coverSearch(c: i32, lb: f64): void {
  const r = ld(cMax, c);
  if (lb > r * r * PRUNE_SLACK) return;
  const left = ldi(cLeft, c);
  if (left < 0) {
    const hi = ldi(cHi, c);
    for (let p = ldi(cLo, c); p < hi; ++p) {
      const k = ldi(perm, p);
      const rk = ld(vRw, k);
      const r2 = rk * rk * PRUNE_SLACK;
      const d = sqdistBounded(X + ((<usize>k * M) << 3), vQ, M, r2);
      if (d <= r2 && Math.sqrt(d) < rk) sti(vCover, vCount++, k);
    }
    return;
  }
  const j = ldi(cDim, c);
  const diff = ld(vQ, j) - ld(cSplit, c);
  const right = ldi(cRight, c);
  const nearC = diff < 0.0 ? left : right;
  const farC = diff < 0.0 ? right : left;
  coverSearch(nearC, lb);
  const old = ld(vOff, j);
  st(vOff, j, diff);
  coverSearch(farC, lb - old * old + diff * diff);
  st(vOff, j, old);
}

// Sorts n i32 at p ascending (heap sort: no recursion, no allocation).
function sortI32(p: usize, n: i32): void {
  for (let start = (n >> 1) - 1; start >= 0; --start) siftDown(p, start, n);
  for (let end = n - 1; end > 0; --end) {
    const t = ldi(p, 0);
    sti(p, 0, ldi(p, end));
    sti(p, end, t);
    siftDown(p, 0, end);
  }
}
function siftDown(p: usize, root: i32, n: i32): void {
  let r = root;
  while (true) {
    let child = 2 * r + 1;
    if (child >= n) return;
    if (child + 1 < n && ldi(p, child + 1) > ldi(p, child)) ++child;
    if (ldi(p, r) >= ldi(p, child)) return;
    const t = ldi(p, r);
    sti(p, r, ldi(p, child));
    sti(p, child, t);
    r = child;
  }
}

// LSHEP's DIAM (largest squared distance between two rows), given a lower bound from an actual pair: pairs
// pruned by |x_i - x_j| <= r_i + r_j through the centroid, rows scanned by decreasing r (see the native code).
// Returns -1 when out of memory.
function diameter2(Xp: usize, n: i32, m: i32, lower: f64): f64 {
  const c = heap.alloc(<usize>m * 8);
  const r = heap.alloc(<usize>n * 8);
  const order = heap.alloc(<usize>n * 4);
  if (!c || !r || !order) {
    if (c) heap.free(c);
    if (r) heap.free(r);
    if (order) heap.free(order);
    return -1.0;
  }
  for (let j = 0; j < m; ++j) st(c, j, 0.0);
  for (let i = 0; i < n; ++i) for (let j = 0; j < m; ++j) st(c, j, ld(c, j) + ld(Xp, <usize>i * m + j));
  for (let j = 0; j < m; ++j) st(c, j, ld(c, j) / <f64>n);
  for (let i = 0; i < n; ++i) {
    st(r, i, Math.sqrt(sqdist(Xp + ((<usize>i * m) << 3), c, m)));
    sti(order, i, i);
  }
  sortByKeyDesc(order, n, r);
  let best = lower;
  const r0 = ld(r, ldi(order, 0));
  for (let a = 0; a < n; ++a) {
    const i = ldi(order, a);
    const ri = ld(r, i);
    if ((ri + r0) * PRUNE_SLACK < Math.sqrt(best)) break;
    for (let b = 0; b < a; ++b) {
      const j = ldi(order, b);
      if ((ri + ld(r, j)) * PRUNE_SLACK < Math.sqrt(best)) break;
      best = max(best, sqdist(Xp + ((<usize>i * m) << 3), Xp + ((<usize>j * m) << 3), m));
    }
  }
  heap.free(c);
  heap.free(r);
  heap.free(order);
  return best;
}

// Heap sort of the indices at p by key[index] descending, ties by lower index first.
@inline function before(key: usize, a: i32, b: i32): bool {
  const ka = ld(key, a), kb = ld(key, b);
  return ka > kb || (ka == kb && a < b);
}
function sortByKeyDesc(p: usize, n: i32, key: usize): void {
  for (let start = (n >> 1) - 1; start >= 0; --start) siftKey(p, start, n, key);
  for (let end = n - 1; end > 0; --end) {
    const t = ldi(p, 0);
    sti(p, 0, ldi(p, end));
    sti(p, end, t);
    siftKey(p, 0, end, key);
  }
}
// Max-heap on the reverse order, so the sorted result runs from "first" to "last".
function siftKey(p: usize, root: i32, n: i32, key: usize): void {
  let r = root;
  while (true) {
    let child = 2 * r + 1;
    if (child >= n) return;
    if (child + 1 < n && before(key, ldi(p, child), ldi(p, child + 1))) ++child;
    if (!before(key, ldi(p, r), ldi(p, child))) return;
    const t = ldi(p, r);
    sti(p, r, ldi(p, child));
    sti(p, child, t);
    r = child;
  }
}

export function lspFit(Xp: usize, f: usize, n: i32, m: i32, A: usize, rw: usize, rank: usize): i32 {
  if (n < 0 || m < 1) return BAD_ARGUMENT;
  if (!allFinite(Xp, <usize>n * m) || !allFinite(f, <usize>n)) return NONFINITE;
  if (n <= m + 1) return LSP_TOO_FEW_POINTS;
  const np = min(n - 1, (3 * m + 1) / 2);
  const rcond = <f64>np * EPS;
  if (!buildTree(Xp, n, m)) {
    freeTree();
    return NO_MEMORY;
  }
  const d2 = heap.alloc(<usize>np * 8);
  const idx = heap.alloc(<usize>np * 4);
  const off = heap.alloc(<usize>m * 8);
  const alpha = heap.alloc(<usize>np * m * 8);
  const beta = heap.alloc(<usize>np * 8);
  const omega = heap.alloc(<usize>np * 8);
  const rk = heap.alloc(8);
  const work = heap.alloc(lstsqWorkSize(np, m) << 3);
  let status = OK;
  if (!d2 || !idx || !off || !alpha || !beta || !omega || !rk || !work) status = NO_MEMORY;
  let duplicates = false;
  let maxRw = 0.0;
  for (let j = 0; j < m && status == OK; ++j) st(off, j, 0.0);
  for (let k = 0; k < n && status == OK; ++k) {
    const xk = Xp + ((<usize>k * m) << 3);
    kK = np;
    kQ = xk;
    kSelf = k;
    kD2 = d2;
    kIdx = idx;
    kOff = off;
    kCount = 0;
    knnSearch(0, 0.0);
    if (ld(d2, 0) == 0.0) {
      duplicates = true;
      sti(rank, k, -1);
      st(rw, k, 0.0);
      for (let j = 0; j < m; ++j) st(A, <usize>k * m + j, 0.0);
      continue;
    }
    for (let i = 0; i < np; ++i) {
      const ii = ldi(idx, i);
      const xi = Xp + ((<usize>ii * m) << 3);
      for (let j = 0; j < m; ++j) st(alpha, <usize>i * m + j, ld(xi, j) - ld(xk, j));
      st(beta, i, ld(f, ii) - ld(f, k));
    }
    const dnp = Math.sqrt(ld(d2, np - 1));
    st(rw, k, dnp);
    maxRw = max(maxRw, dnp);
    const rp = 1.1 * dnp;
    for (let i = 0; i < np; ++i) {
      const d = Math.sqrt(ld(d2, i));
      st(omega, i, (rp - d) / (rp * d));
    }
    if (lstsqSolve(alpha, beta, omega, np, m, rcond, A + ((<usize>k * m) << 3), rk, work) != OK) {
      status = LSP_LSTSQ_FAILED;
      break;
    }
    sti(rank, k, load<i32>(rk));
  }
  freeTree();
  if (d2) heap.free(d2);
  if (idx) heap.free(idx);
  if (off) heap.free(off);
  if (alpha) heap.free(alpha);
  if (beta) heap.free(beta);
  if (omega) heap.free(omega);
  if (rk) heap.free(rk);
  if (work) heap.free(work);
  if (status != OK) return status;
  if (duplicates) return LSP_DUPLICATE_POINTS;

  // R_w = min(diameter / 2, d_NP): the exact diameter only when a double-sweep lower bound does not settle it.
  let a = 0;
  let best = -1.0;
  for (let i = 0; i < n; ++i) {
    const d = sqdist(Xp + ((<usize>i * m) << 3), Xp, m);
    if (d > best) {
      best = d;
      a = i;
    }
  }
  let lower = 0.0;
  for (let i = 0; i < n; ++i) lower = max(lower, sqdist(Xp + ((<usize>i * m) << 3), Xp + ((<usize>a * m) << 3), m));
  if (maxRw > Math.sqrt(lower) / 2.0) {
    const d2 = diameter2(Xp, n, m, lower);
    if (d2 < 0.0) return NO_MEMORY;
    const cap = Math.sqrt(d2) / 2.0;
    for (let k = 0; k < n; ++k) st(rw, k, min(cap, ld(rw, k)));
  }
  return OK;
}

export function lspEval(Xp: usize, f: usize, A: usize, rw: usize, n: i32, m: i32, Q: usize, nq: i32, out: usize, ierr: usize): i32 {
  if (n < 1 || m < 1 || nq < 0) return BAD_ARGUMENT;
  if (!allFinite(Xp, <usize>n * m) || !allFinite(f, <usize>n) || !allFinite(A, <usize>n * m) || !allFinite(Q, <usize>nq * m)) return NONFINITE;
  for (let k = 0; k < n; ++k) {
    const r = ld(rw, k);
    if (!(r > 0.0) || !isFinite<f64>(r)) return LSP_BAD_RADIUS;
  }
  if (!buildTree(Xp, n, m)) {
    freeTree();
    return NO_MEMORY;
  }
  // Per-cell maximum radius, children before parents (children have larger ids).
  for (let c = cells - 1; c >= 0; --c) {
    const left = ldi(cLeft, c);
    if (left < 0) {
      let mx = 0.0;
      const hi = ldi(cHi, c);
      for (let i = ldi(cLo, c); i < hi; ++i) mx = max(mx, ld(rw, ldi(perm, i)));
      st(cMax, c, mx);
    } else {
      st(cMax, c, max(ld(cMax, left), ld(cMax, ldi(cRight, c))));
    }
  }
  const cover = heap.alloc(<usize>n * 4);
  const sw = heap.alloc(<usize>n * 8);
  const swc = heap.alloc(<usize>n * 8);
  const off = heap.alloc(<usize>m * 8);
  const slope = heap.alloc(<usize>(m + 1) * 8);
  const D = heap.alloc(<usize>(m + 1) * 8);
  const ID = heap.alloc(<usize>(m + 1) * 4);
  let status = OK;
  if (!cover || !sw || !swc || !off || !slope || !D || !ID) status = NO_MEMORY;
  for (let j = 0; j < m && status == OK; ++j) st(off, j, 0.0);
  for (let iq = 0; iq < nq && status == OK; ++iq) {
    const q = Q + ((<usize>iq * m) << 3);
    vRw = rw;
    vQ = q;
    vOff = off;
    vCover = cover;
    vCount = 0;
    coverSearch(0, 0.0);
    const nc = vCount;
    sti(ierr, iq, 0);
    if (nc == 0) {
      // LSHEPVAL's fallback, exactly: all nodes in index order, m + 1 slots of 1/d.
      for (let s = 0; s <= m; ++s) {
        st(D, s, 0.0);
        sti(ID, s, 0);
      }
      let J = 0;
      let temp = 0.0;
      for (let k = 0; k < n; ++k) {
        const w = 1.0 / Math.sqrt(sqdist(q, Xp + ((<usize>k * m) << 3), m));
        if (w > temp) {
          st(D, J, w);
          sti(ID, J, k);
          J = 0;
          for (let s = 1; s <= m; ++s) if (ld(D, s) < ld(D, J)) J = s;
          temp = ld(D, J);
        }
      }
      let sum = 0.0;
      for (let s = 0; s <= m; ++s) {
        const v = ld(D, s);
        st(D, s, v * v);
        sum += v * v;
      }
      let v = 0.0;
      for (let s = 0; s <= m; ++s) v += (ld(D, s) / sum) * ld(f, ldi(ID, s));
      st(out, iq, v);
      sti(ierr, iq, 1);
      continue;
    }
    sortI32(cover, nc);
    let atNode = false;
    let sum = 0.0;
    for (let i = 0; i < nc; ++i) {
      const k = ldi(cover, i);
      const xk = Xp + ((<usize>k * m) << 3);
      const rk = ld(rw, k);
      const dist = Math.sqrt(sqdist(q, xk, m));
      if (rk - dist == rk) {
        st(out, iq, ld(f, k));
        atNode = true;
        break;
      }
      const t = (rk - dist) / (rk * dist);
      st(sw, i, t * t);
      let s = 0.0;
      const ak = A + ((<usize>k * m) << 3);
      for (let j = 0; j < m; ++j) s += ld(ak, j) * (ld(q, j) - ld(xk, j));
      st(swc, i, s + ld(f, k));
      sum += t * t;
    }
    if (atNode) continue;
    let v = 0.0;
    for (let i = 0; i < nc; ++i) {
      const w = ld(sw, i) / sum;
      st(sw, i, w);
      v += w * ld(swc, i);
    }
    st(out, iq, v);
    // LSHEPVAL's IER = 2 test on the hyperplane normals.
    for (let j = 0; j <= m; ++j) st(slope, j, 0.0);
    for (let i = 0; i < nc; ++i) {
      const ak = A + ((<usize>ldi(cover, i) * m) << 3);
      const w = ld(sw, i);
      for (let j = 0; j < m; ++j) st(slope, j, ld(slope, j) + ld(ak, j) * w);
      st(slope, m, ld(slope, m) + -w);
    }
    let sn = 0.0;
    for (let j = 0; j <= m; ++j) sn += ld(slope, j) * ld(slope, j);
    sn = Math.sqrt(sn);
    for (let i = 0; i < nc; ++i) {
      const ak = A + ((<usize>ldi(cover, i) * m) << 3);
      let nn = 0.0;
      for (let j = 0; j < m; ++j) nn += ld(ak, j) * ld(ak, j);
      nn = Math.sqrt(nn + 1.0);
      let dot = 0.0;
      for (let j = 0; j < m; ++j) dot += (ld(slope, j) / sn) * (ld(ak, j) / nn);
      dot += (ld(slope, m) / sn) * (-1.0 / nn);
      if (dot < 0.9) {
        sti(ierr, iq, 2);
        break;
      }
    }
  }
  freeTree();
  if (cover) heap.free(cover);
  if (sw) heap.free(sw);
  if (swc) heap.free(swc);
  if (off) heap.free(off);
  if (slope) heap.free(slope);
  if (D) heap.free(D);
  if (ID) heap.free(ID);
  return status;
}
