// The linear Shepard (LSP) kernels (mirror of native/src/lsp.cc; see native/include/varmap/lsp.h for the
// method and status codes). Same arithmetic in the same order, so both backends agree to rounding.
import { OK, BAD_ARGUMENT, NONFINITE, NO_MEMORY, allFinite } from "./lib/status";
import { lstsqSolve, lstsqWorkSize } from "./lib/lstsq";
export { alloc, free } from "./lib/memory";

const LSP_TOO_FEW_POINTS: i32 = 10;
const LSP_DUPLICATE_POINTS: i32 = 11;
// Squared relative distance under which the nearest other node counts as a duplicate (1e-6 in distance).
const NEAR_DUPLICATE2: f64 = 1e-12;
// Rank tolerance of the local fits: SHEPPACK's NP·ε, but never below 1e-6 (see native/src/lsp.cc kMinRcond).
const MIN_RCOND: f64 = 1e-6;
const LSP_LSTSQ_FAILED: i32 = 12;
const LSP_BAD_RADIUS: i32 = 13;
const LSP_WEIGHTS_CAPACITY: i32 = 14;
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
let leafSize: i32 = LEAF_SIZE;
// Leaf coordinates copied contiguously, dimension-major within each leaf (xs[lo*m + j*len + p]), and per leaf
// position the radius squared with slack (evaluation); scratch distances and candidate positions per leaf.
let xs: usize = 0;
let reach2: usize = 0;
let sbuf: usize = 0;
let hits: usize = 0;
let maxLeaf: i32 = 0;
const SCAN_ALL: i32 = 1024;

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
  if (b - a <= leafSize) return id;
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
function buildTree(Xp: usize, n: i32, m: i32, leaf: i32): bool {
  X = Xp;
  M = m;
  leafSize = leaf;
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
  xs = heap.alloc(<usize>n * m * 8 + 8);
  if (!xs) return false;
  maxLeaf = 0;
  for (let c = 0; c < cells; ++c) {
    if (ldi(cLeft, c) >= 0) continue;
    const lo = ldi(cLo, c), len = ldi(cHi, c) - lo;
    if (len > maxLeaf) maxLeaf = len;
    const block = xs + ((<usize>lo * m) << 3);
    for (let p = 0; p < len; ++p)
      for (let j = 0; j < m; ++j) st(block, <usize>j * len + p, key(ldi(perm, lo + p), j));
  }
  sbuf = heap.alloc(<usize>maxLeaf * 8 + 8);
  hits = heap.alloc(<usize>maxLeaf * 4 + 8);
  reach2 = heap.alloc(<usize>n * 8 + 8);
  return sbuf != 0 && hits != 0 && reach2 != 0;
}

// Squared distances (LSHEP's sum order) from q to the points of leaf c into sbuf; the positions with
// sbuf[p] <= bound (bound < 0: use reach2 per position) into hits; returns their count.
function leafBelow(c: i32, q: usize, bound: f64): i32 {
  const lo = ldi(cLo, c), len = ldi(cHi, c) - lo;
  const block = xs + ((<usize>lo * M) << 3);
  // Four points at a time in registers (two f64x2), each summed over the coordinates in order.
  let p = 0;
  for (; p + 4 <= len; p += 4) {
    let a0 = f64x2.splat(0.0), a1 = a0;
    let x = block + (<usize>p << 3);
    for (let j = 0; j < M; ++j) {
      const qv = v128.load64_splat(q + (<usize>j << 3));
      a0 = sq2(a0, v128.load(x), qv);
      a1 = sq2(a1, v128.load(x, 16), qv);
      x += <usize>len << 3;
    }
    v128.store(sbuf + (<usize>p << 3), a0);
    v128.store(sbuf + (<usize>p << 3), a1, 16);
  }
  for (; p < len; ++p) {
    let s = 0.0;
    for (let j = 0; j < M; ++j) {
      const t = ld(block, <usize>j * len + p) - ld(q, j);
      s += t * t;
    }
    st(sbuf, p, s);
  }
  let h = 0;
  if (bound >= 0.0) {
    for (let p = 0; p < len; ++p) if (ld(sbuf, p) <= bound) sti(hits, h++, p);
  } else {
    const r = reach2 + (<usize>lo << 3);
    for (let p = 0; p < len; ++p) if (ld(sbuf, p) <= ld(r, p)) sti(hits, h++, p);
  }
  return h;
}

function freeTree(): void {
  if (xs) heap.free(xs);
  if (sbuf) heap.free(sbuf);
  if (hits) heap.free(hits);
  if (reach2) heap.free(reach2);
  xs = sbuf = hits = reach2 = 0;
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

// ---- scanning every node for a tile of queries (where a tree cannot prune; see native/src/lsp.cc) ----
// Nodes in blocks of BLOCK, dimension-major within a block (bX[(b * m + j) * BLOCK + p]); TILE queries share
// each block's loads. Every squared distance is summed over the coordinates in order (x_j - q_j), as sqdist.
const BLOCK: i32 = 8;
const TILE: i32 = 4;
// The first PROBE searches run on the tree; if they computed more than n / SCAN_SHARE distances each on
// average, the rest scan (same nodes, same distances: only the speed differs).
const PROBE: i32 = 32;
const SCAN_SHARE: i32 = 4;
// Whether an evaluation's tree is worth building and probing: n >= LEAF_SIZE 2^(1.5 m) (see native).
function treeMayPrune(n: i32, m: i32): bool {
  return n > SCAN_ALL && <f64>n >= <f64>LEAF_SIZE * Math.pow(2.0, 1.5 * <f64>m);
}
let bX: usize = 0;
let bNb: i32 = 0;
let bN: i32 = 0;
let bM: i32 = 0;
let bTileQ: usize = 0; // TILE x m queries of the current tile
let bS: usize = 0; // TILE * BLOCK distances of one block

// Copies the n rows of Xp into blocks (padding nodes repeat row 0); false when out of memory.
function buildBlocks(Xp: usize, n: i32, m: i32): bool {
  bN = n;
  bM = m;
  bNb = (n + BLOCK - 1) / BLOCK;
  bX = heap.alloc(<usize>bNb * m * BLOCK * 8 + 8);
  bTileQ = heap.alloc(<usize>TILE * m * 8 + 8);
  bS = heap.alloc(<usize>TILE * BLOCK * 8 + 8);
  if (!bX || !bTileQ || !bS) return false;
  for (let k = 0; k < bNb * BLOCK; ++k) {
    const row = k < n ? k : 0; // padding: row 0
    const x = Xp + ((<usize>row * m) << 3);
    const blk = bX + ((<usize>(k / BLOCK) * m * BLOCK + <usize>(k % BLOCK)) << 3);
    for (let j = 0; j < m; ++j) st(blk, <usize>j * BLOCK, ld(x, j));
  }
  return true;
}
function freeBlocks(): void {
  if (bX) heap.free(bX);
  if (bTileQ) heap.free(bTileQ);
  if (bS) heap.free(bS);
  bX = bTileQ = bS = 0;
}

// Sets the tile's queries from rows r0 .. r0 + nt of P (m columns); a short tile repeats its last row.
function setTile(P: usize, r0: i32, nt: i32): void {
  const m = bM;
  for (let t = 0; t < TILE; ++t) {
    const row = P + ((<usize>(r0 + min(t, nt - 1)) * m) << 3);
    for (let j = 0; j < m; ++j) st(bTileQ, <usize>t * m + j, ld(row, j));
  }
}

@inline function sq2(acc: v128, x: v128, q: v128): v128 {
  const t = f64x2.sub(x, q);
  return f64x2.add(acc, f64x2.mul(t, t));
}

// bS[t * BLOCK + p] = squared distance from tile query t to node p of block b (two halves of four nodes);
// returns whether any is within its bound: reach[node] (perNode) or bounds[t].
function tileBlock(b: i32, perNode: bool, reach: usize, bounds: usize): bool {
  const m = bM;
  const blk = bX + ((<usize>b * m * BLOCK) << 3);
  const q0 = bTileQ, q1 = bTileQ + ((<usize>m) << 3), q2 = bTileQ + ((<usize>2 * m) << 3), q3 = bTileQ + ((<usize>3 * m) << 3);
  let hit = i64x2.splat(0);
  for (let half = 0; half < 2; ++half) {
    let a0 = f64x2.splat(0.0), a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, d0 = a0, d1 = a0;
    let x = blk + (<usize>half << 5);
    for (let j = 0; j < m; ++j) {
      const x0 = v128.load(x), x1 = v128.load(x, 16);
      const j8 = <usize>j << 3;
      let qv = v128.load64_splat(q0 + j8);
      a0 = sq2(a0, x0, qv);
      a1 = sq2(a1, x1, qv);
      qv = v128.load64_splat(q1 + j8);
      b0 = sq2(b0, x0, qv);
      b1 = sq2(b1, x1, qv);
      qv = v128.load64_splat(q2 + j8);
      c0 = sq2(c0, x0, qv);
      c1 = sq2(c1, x1, qv);
      qv = v128.load64_splat(q3 + j8);
      d0 = sq2(d0, x0, qv);
      d1 = sq2(d1, x1, qv);
      x += <usize>BLOCK << 3;
    }
    const o = bS + (<usize>half << 5);
    v128.store(o, a0);
    v128.store(o, a1, 16);
    v128.store(o, b0, 64);
    v128.store(o, b1, 80);
    v128.store(o, c0, 128);
    v128.store(o, c1, 144);
    v128.store(o, d0, 192);
    v128.store(o, d1, 208);
    if (perNode) {
      const r = reach + ((<usize>b * BLOCK + (<usize>half << 2)) << 3);
      const r0 = v128.load(r), r1 = v128.load(r, 16);
      hit = v128.or(hit, v128.or(v128.or(f64x2.le(a0, r0), f64x2.le(a1, r1)), v128.or(f64x2.le(b0, r0), f64x2.le(b1, r1))));
      hit = v128.or(hit, v128.or(v128.or(f64x2.le(c0, r0), f64x2.le(c1, r1)), v128.or(f64x2.le(d0, r0), f64x2.le(d1, r1))));
    } else {
      let r = v128.load64_splat(bounds);
      hit = v128.or(hit, v128.or(f64x2.le(a0, r), f64x2.le(a1, r)));
      r = v128.load64_splat(bounds + 8);
      hit = v128.or(hit, v128.or(f64x2.le(b0, r), f64x2.le(b1, r)));
      r = v128.load64_splat(bounds + 16);
      hit = v128.or(hit, v128.or(f64x2.le(c0, r), f64x2.le(c1, r)));
      r = v128.load64_splat(bounds + 24);
      hit = v128.or(hit, v128.or(f64x2.le(d0, r), f64x2.le(d1, r)));
    }
  }
  return v128.any_true(hit);
}

// Blocks [b0, b1): the nodes with distance <= bound for each tile query t, appended (ascending) to
// hk/hs[t * stride + h[t] ..]; bound per node (reach, perNode) or per query (bounds[t]). Branch-free: every
// pair is written, the count advances on a hit.
function scanTile(b0: i32, b1: i32, perNode: bool, reach: usize, bounds: usize, hk: usize, hs: usize, stride: i32, h: usize): void {
  for (let b = b0; b < b1; ++b) {
    if (!tileBlock(b, perNode, reach, bounds)) continue;
    const r = reach + ((<usize>b * BLOCK) << 3);
    for (let t = 0; t < TILE; ++t) {
      let c = ldi(h, t);
      const base = <usize>t * stride;
      const bt = perNode ? 0.0 : ld(bounds, t);
      for (let p = 0; p < BLOCK; ++p) {
        const d = ld(bS, t * BLOCK + p);
        sti(hk, base + c, b * BLOCK + p);
        st(hs, base + c, d);
        c += <i32>(d <= (perNode ? ld(r, p) : bt));
      }
      sti(h, t, c);
    }
  }
}

// s[k] for every node k < n: squared distances from q (the fallback's scan of all nodes).
function scanAll(q: usize, s: usize): void {
  const m = bM, n = bN;
  for (let b = 0; b < bNb; ++b) {
    let a0 = f64x2.splat(0.0), a1 = a0, a2 = a0, a3 = a0;
    let x = bX + ((<usize>b * m * BLOCK) << 3);
    for (let j = 0; j < m; ++j) {
      const qv = v128.load64_splat(q + (<usize>j << 3));
      a0 = sq2(a0, v128.load(x), qv);
      a1 = sq2(a1, v128.load(x, 16), qv);
      a2 = sq2(a2, v128.load(x, 32), qv);
      a3 = sq2(a3, v128.load(x, 48), qv);
      x += <usize>BLOCK << 3;
    }
    v128.store(bS, a0);
    v128.store(bS, a1, 16);
    v128.store(bS, a2, 32);
    v128.store(bS, a3, 48);
    for (let p = 0; p < BLOCK && b * BLOCK + p < n; ++p) st(s, b * BLOCK + p, ld(bS, p));
  }
}

// ---- k nearest (excluding self), ordered by (squared distance, index) ----
let kK: i32 = 0;
let kQ: usize = 0;
let kSelf: i32 = 0;
let kD2: usize = 0;
let kIdx: usize = 0;
let kOff: usize = 0;
let kCount: i32 = 0;
let kVisits: i64 = 0; // leaf points whose distance was computed (to choose between the tree and a scan)

@inline function better(d: f64, i: i32, slot: i32): bool {
  return nearer(d, i, ld(kD2, slot), ldi(kIdx, slot));
}
// LSHEP's SORT order: (squared distance, index).
@inline function nearer(d: f64, i: i32, e: f64, j: i32): bool {
  return d < e || (d == e && i < j);
}

function offer(d: f64, i: i32): void {
  kCount = insertNearest(d, i, kK, kD2, kIdx, kCount);
}
// Inserts (d, i) into the ascending list (d2, idx) of count <= k entries, dropping the k-th when full;
// returns the new count.
function insertNearest(d: f64, i: i32, k: i32, d2: usize, idx: usize, count: i32): i32 {
  let s = count < k ? count++ : k - 1;
  while (s > 0 && nearer(d, i, ld(d2, s - 1), ldi(idx, s - 1))) {
    st(d2, s, ld(d2, s - 1));
    sti(idx, s, ldi(idx, s - 1));
    --s;
  }
  st(d2, s, d);
  sti(idx, s, i);
  return count;
}

function knnSearch(c: i32, lb: f64): void {
  const left = ldi(cLeft, c);
  if (left < 0) {
    const lo = ldi(cLo, c);
    kVisits += ldi(cHi, c) - lo;
    const h = leafBelow(c, kQ, kCount < kK ? Infinity : ld(kD2, kK - 1));
    for (let e = 0; e < h; ++e) {
      const p = ldi(hits, e);
      const i = ldi(perm, lo + p);
      if (i == kSelf) continue;
      const d = ld(sbuf, p);
      if (kCount < kK || better(d, i, kK - 1)) offer(d, i);
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

// The np nearest rows to row `row` of the tree's points Xp (m columns), excluding itself, into d2/idx;
// off is m doubles of scratch for the search's per-dimension offsets.
function nearestOthers(Xp: usize, m: i32, row: i32, np: i32, d2: usize, idx: usize, off: usize): void {
  kK = np;
  kQ = Xp + ((<usize>row * m) << 3);
  kSelf = row;
  kD2 = d2;
  kIdx = idx;
  kOff = off;
  kCount = 0;
  knnSearch(0, 0.0);
}

// ---- nodes whose radius of influence covers a query ----
let vRw: usize = 0;
let vQ: usize = 0;
let vOff: usize = 0;
let vCover: usize = 0;
let vDist: usize = 0; // their squared distances
let vCount: i32 = 0;
let vVisits: i64 = 0;

function coverSearch(c: i32, lb: f64): void {
  const r = ld(cMax, c);
  if (lb > r * r * PRUNE_SLACK) return;
  const left = ldi(cLeft, c);
  if (left < 0) {
    const lo = ldi(cLo, c);
    vVisits += ldi(cHi, c) - lo;
    const h = leafBelow(c, vQ, -1.0);
    for (let e = 0; e < h; ++e) {
      const p = ldi(hits, e);
      const k = ldi(perm, lo + p);
      const d = ld(sbuf, p);
      if (Math.sqrt(d) < ld(vRw, k)) {
        st(vDist, vCount, d);
        sti(vCover, vCount++, k);
      }
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

// Sorts n i32 at p ascending, carrying the f64 at v along (heap sort: no recursion, no allocation).
function sortI32(p: usize, v: usize, n: i32): void {
  for (let start = (n >> 1) - 1; start >= 0; --start) siftDown(p, v, start, n);
  for (let end = n - 1; end > 0; --end) {
    swapEntries(p, v, 0, end);
    siftDown(p, v, 0, end);
  }
}
@inline function swapEntries(p: usize, v: usize, a: i32, b: i32): void {
  const t = ldi(p, a);
  sti(p, a, ldi(p, b));
  sti(p, b, t);
  const u = ld(v, a);
  st(v, a, ld(v, b));
  st(v, b, u);
}
function siftDown(p: usize, v: usize, root: i32, n: i32): void {
  let r = root;
  while (true) {
    let child = 2 * r + 1;
    if (child >= n) return;
    if (child + 1 < n && ldi(p, child + 1) > ldi(p, child)) ++child;
    if (ldi(p, r) >= ldi(p, child)) return;
    swapEntries(p, v, r, child);
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

// ---- one node's local fit (LSHEP), shared by lspFit and lspSubsets ----
let nfNp: i32 = 0;
let nfM: i32 = 0;
let nfRcond: f64 = 0.0;
let nfAlpha: usize = 0;
let nfBeta: usize = 0;
let nfOmega: usize = 0;
let nfRk: usize = 0;
let nfWork: usize = 0;

// Scratch for fits with NP neighbours in m dimensions; false when out of memory.
function nodeScratch(np: i32, m: i32): bool {
  nfNp = np;
  nfM = m;
  nfRcond = Math.max(<f64>np * EPS, MIN_RCOND);
  nfAlpha = heap.alloc(<usize>np * m * 8 + 8);
  nfBeta = heap.alloc(<usize>np * 8 + 8);
  nfOmega = heap.alloc(<usize>np * 8 + 8);
  nfRk = heap.alloc(8);
  nfWork = heap.alloc((lstsqWorkSize(np, m) << 3) + 8);
  return nfAlpha != 0 && nfBeta != 0 && nfOmega != 0 && nfRk != 0 && nfWork != 0;
}
function freeNodeScratch(): void {
  if (nfAlpha) heap.free(nfAlpha);
  if (nfBeta) heap.free(nfBeta);
  if (nfOmega) heap.free(nfOmega);
  if (nfRk) heap.free(nfRk);
  if (nfWork) heap.free(nfWork);
  nfAlpha = nfBeta = nfOmega = nfRk = nfWork = 0;
}

// LSHEP's local fit of node k of (Xp, f) from its NP nearest others (d2 ascending, idx their rows): writes
// A[k], rw[k] = d_NP (before the diameter cap) and rank[k]. OK, LSP_DUPLICATE_POINTS (node marked rank -1) or
// LSP_LSTSQ_FAILED.
function fitNode(Xp: usize, f: usize, k: i32, d2: usize, idx: usize, A: usize, rw: usize, rank: usize): i32 {
  const np = nfNp, m = nfM;
  const xk = Xp + ((<usize>k * m) << 3);
  // A coincident node (LSHEP would divide by zero), or a nearly coincident one: closer than 1e-6 of the
  // neighbourhood's radius, its weight (R_p − d)/(R_p·d) swamps the local fit and predictions become garbage.
  if (ld(d2, 0) <= NEAR_DUPLICATE2 * ld(d2, np - 1)) {
    sti(rank, k, -1);
    st(rw, k, 0.0);
    for (let j = 0; j < m; ++j) st(A, <usize>k * m + j, 0.0);
    return LSP_DUPLICATE_POINTS;
  }
  for (let i = 0; i < np; ++i) {
    const ii = ldi(idx, i);
    const xi = Xp + ((<usize>ii * m) << 3);
    for (let j = 0; j < m; ++j) st(nfAlpha, <usize>i * m + j, ld(xi, j) - ld(xk, j));
    st(nfBeta, i, ld(f, ii) - ld(f, k));
  }
  const dnp = Math.sqrt(ld(d2, np - 1));
  st(rw, k, dnp);
  const rp = 1.1 * dnp;
  for (let i = 0; i < np; ++i) {
    const d = Math.sqrt(ld(d2, i));
    st(nfOmega, i, (rp - d) / (rp * d));
  }
  if (lstsqSolve(nfAlpha, nfBeta, nfOmega, np, m, nfRcond, A + ((<usize>k * m) << 3), nfRk, nfWork) != OK) return LSP_LSTSQ_FAILED;
  sti(rank, k, load<i32>(nfRk));
  return OK;
}

// R_w = min(diameter / 2, d_NP): the exact diameter only when a double-sweep lower bound does not settle it.
function capRadii(Xp: usize, n: i32, m: i32, rw: usize): i32 {
  let maxRw = 0.0;
  for (let k = 0; k < n; ++k) maxRw = max(maxRw, ld(rw, k));
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

function badRadius(rw: usize, n: i32): bool {
  for (let k = 0; k < n; ++k) {
    const r = ld(rw, k);
    if (!(r > 0.0) || !isFinite<f64>(r)) return true;
  }
  return false;
}

// ---- LSHEPVAL at one query, given the covering nodes in ascending order ----
let peSw: usize = 0;
let peSwc: usize = 0;
let peSlope: usize = 0;
let peMean: usize = 0;
let peD: usize = 0;
let peID: usize = 0;
let peWid: usize = 0;
let peAll: usize = 0; // the fallback's n squared distances
// Per node, its hyperplane normal (a_k, -1) divided by its length (the quotients LSHEPVAL's IER = 2 test
// forms), computed once per evaluation: unit n x m and last n (-1 / length); 0 when not computed.
let nUnit: usize = 0;
let nLast: usize = 0;

// Scratch for evaluations over n nodes in m dimensions; false when out of memory.
function evalScratch(n: i32, m: i32): bool {
  const slots = <usize>max(n, m + 1);
  peSw = heap.alloc(slots * 8 + 8);
  peSwc = heap.alloc(slots * 8 + 8);
  peWid = heap.alloc(slots * 4 + 4);
  peSlope = heap.alloc(<usize>(m + 1) * 8);
  peMean = heap.alloc(<usize>(m + 1) * 8);
  peD = heap.alloc(<usize>(m + 1) * 8);
  peID = heap.alloc(<usize>(m + 1) * 4);
  peAll = heap.alloc(<usize>n * 8 + 8);
  return peSw != 0 && peSwc != 0 && peSlope != 0 && peMean != 0 && peD != 0 && peID != 0 && peWid != 0 && peAll != 0;
}
function freeEvalScratch(): void {
  if (peSw) heap.free(peSw);
  if (peSwc) heap.free(peSwc);
  if (peSlope) heap.free(peSlope);
  if (peMean) heap.free(peMean);
  if (peD) heap.free(peD);
  if (peID) heap.free(peID);
  if (peWid) heap.free(peWid);
  if (peAll) heap.free(peAll);
  peSw = peSwc = peSlope = peMean = peD = peID = peWid = peAll = 0;
}

// The unit normals of the n nodes' fits A; false when out of memory.
function unitNormals(A: usize, n: i32, m: i32): bool {
  nUnit = heap.alloc(<usize>n * m * 8 + 8);
  nLast = heap.alloc(<usize>n * 8 + 8);
  if (!nUnit || !nLast) return false;
  for (let k = 0; k < n; ++k) {
    const ak = A + ((<usize>k * m) << 3);
    let nn = 0.0;
    for (let j = 0; j < m; ++j) nn += ld(ak, j) * ld(ak, j);
    nn = Math.sqrt(nn + 1.0);
    for (let j = 0; j < m; ++j) st(nUnit, <usize>k * m + j, ld(ak, j) / nn);
    st(nLast, k, -1.0 / nn);
  }
  return true;
}
function freeUnitNormals(): void {
  if (nUnit) heap.free(nUnit);
  if (nLast) heap.free(nLast);
  nUnit = nLast = 0;
}

// LSHEPVAL's normalized weights at q (evalPoint and lspWeights share them): nodes at peWid, weights at peSw;
// returns their count and stores the code at codep: 0 covering nodes, 1 the fallback's m + 1 inverse-distance
// slots, 3 q is the node peWid[0] (weight 1; LSHEPVAL returns f_k). dist: the covering nodes' squared
// distances, or 0 to compute them.
function pointWeights(Xp: usize, rw: usize, n: i32, m: i32, q: usize, cover: usize, dist: usize, nc: i32, codep: usize): i32 {
  store<i32>(codep, 0);
  if (nc == 0) {
    // LSHEPVAL's fallback, exactly: all nodes in index order, m + 1 slots of 1/d. The distances come first
    // (from the blocks when there are some); 1/d is formed only below farther, a squared distance beyond which
    // 1/d cannot exceed the smallest slot (far above rounding: (1/temp)^2 (1 + 1e-9)).
    if (bX) scanAll(q, peAll);
    else for (let k = 0; k < n; ++k) st(peAll, k, sqdist(q, Xp + ((<usize>k * m) << 3), m));
    for (let s = 0; s <= m; ++s) {
      st(peD, s, 0.0);
      sti(peID, s, 0);
    }
    let J = 0;
    let temp = 0.0,
      farther = Infinity;
    for (let k = 0; k < n; ++k) {
      const dk = ld(peAll, k);
      if (dk > farther) continue;
      const w = 1.0 / Math.sqrt(dk);
      if (w > temp) {
        st(peD, J, w);
        sti(peID, J, k);
        J = 0;
        for (let s = 1; s <= m; ++s) if (ld(peD, s) < ld(peD, J)) J = s;
        temp = ld(peD, J);
        if (temp > 0.0) farther = (1.0 / temp) * (1.0 / temp) * (1.0 + 1e-9);
      }
    }
    let sum = 0.0;
    for (let s = 0; s <= m; ++s) {
      const v = ld(peD, s);
      st(peD, s, v * v);
      sum += v * v;
    }
    for (let s = 0; s <= m; ++s) {
      st(peSw, s, ld(peD, s) / sum);
      sti(peWid, s, ldi(peID, s));
    }
    store<i32>(codep, 1);
    return m + 1;
  }
  let sum = 0.0;
  for (let i = 0; i < nc; ++i) {
    const k = ldi(cover, i);
    const rk = ld(rw, k);
    const dist2 = dist ? ld(dist, i) : sqdist(q, Xp + ((<usize>k * m) << 3), m);
    const d = Math.sqrt(dist2);
    if (rk - d == rk) {
      st(peSw, 0, 1.0);
      sti(peWid, 0, k);
      store<i32>(codep, 3);
      return 1;
    }
    const t = (rk - d) / (rk * d);
    st(peSw, i, t * t);
    sti(peWid, i, k);
    sum += t * t;
  }
  for (let i = 0; i < nc; ++i) st(peSw, i, ld(peSw, i) / sum);
  return nc;
}

// out[j] = sum over i < nc of A[cover[i]][j] * w[i], each sum in i order from 0, for j < m: eight, four or two
// columns per pass held in registers (summing into memory would wait on each store).
function weightedRows(A: usize, m: i32, cover: usize, w: usize, nc: i32, out: usize): void {
  let j0 = 0;
  for (; j0 + 8 <= m; j0 += 8) {
    let s0 = f64x2.splat(0.0), s1 = s0, s2 = s0, s3 = s0;
    for (let i = 0; i < nc; ++i) {
      const a = A + ((<usize>ldi(cover, i) * m + <usize>j0) << 3);
      const wi = v128.load64_splat(w + (<usize>i << 3));
      s0 = f64x2.add(s0, f64x2.mul(v128.load(a), wi));
      s1 = f64x2.add(s1, f64x2.mul(v128.load(a, 16), wi));
      s2 = f64x2.add(s2, f64x2.mul(v128.load(a, 32), wi));
      s3 = f64x2.add(s3, f64x2.mul(v128.load(a, 48), wi));
    }
    const o = out + (<usize>j0 << 3);
    v128.store(o, s0);
    v128.store(o, s1, 16);
    v128.store(o, s2, 32);
    v128.store(o, s3, 48);
  }
  if (j0 + 4 <= m) {
    let s0 = f64x2.splat(0.0), s1 = s0;
    for (let i = 0; i < nc; ++i) {
      const a = A + ((<usize>ldi(cover, i) * m + <usize>j0) << 3);
      const wi = v128.load64_splat(w + (<usize>i << 3));
      s0 = f64x2.add(s0, f64x2.mul(v128.load(a), wi));
      s1 = f64x2.add(s1, f64x2.mul(v128.load(a, 16), wi));
    }
    const o = out + (<usize>j0 << 3);
    v128.store(o, s0);
    v128.store(o, s1, 16);
    j0 += 4;
  }
  // the last 0 to 3 columns side by side
  const rest = m - j0;
  let s0 = 0.0, s1 = 0.0, s2 = 0.0;
  for (let i = 0; i < nc && rest > 0; ++i) {
    const a = A + ((<usize>ldi(cover, i) * m + <usize>j0) << 3);
    const wi = ld(w, i);
    s0 += ld(a, 0) * wi;
    if (rest > 1) s1 += ld(a, 1) * wi;
    if (rest > 2) s2 += ld(a, 2) * wi;
  }
  if (rest > 0) st(out, j0, s0);
  if (rest > 1) st(out, j0 + 1, s1);
  if (rest > 2) st(out, j0 + 2, s2);
}

// The weighted sum over the nc nodes at cover (ascending; squared distances at dist, or 0), f_k at a node, or
// LSHEPVAL's Shepard fallback when nc = 0; the value at outp, the code at ierrp.
function evalPoint(Xp: usize, f: usize, A: usize, rw: usize, n: i32, m: i32, q: usize, cover: usize, dist: usize, nc: i32, outp: usize, ierrp: usize): void {
  store<i32>(ierrp, 0);
  const nw = pointWeights(Xp, rw, n, m, q, cover, dist, nc, ierrp);
  const code = load<i32>(ierrp);
  if (code == 1) {
    let v = 0.0;
    for (let s = 0; s < nw; ++s) v += ld(peSw, s) * ld(f, ldi(peWid, s));
    store<f64>(outp, v);
    return;
  }
  if (code == 3) {
    store<f64>(outp, ld(f, ldi(peWid, 0)));
    store<i32>(ierrp, 0);
    return;
  }
  // Each node's local linear value; four nodes at a time (independent sums, each in coordinate order).
  let i = 0;
  for (; i + 4 <= nc; i += 4) {
    const k0 = ldi(cover, i), k1 = ldi(cover, i + 1), k2 = ldi(cover, i + 2), k3 = ldi(cover, i + 3);
    const x0 = Xp + ((<usize>k0 * m) << 3), x1 = Xp + ((<usize>k1 * m) << 3), x2 = Xp + ((<usize>k2 * m) << 3), x3 = Xp + ((<usize>k3 * m) << 3);
    const a0 = A + ((<usize>k0 * m) << 3), a1 = A + ((<usize>k1 * m) << 3), a2 = A + ((<usize>k2 * m) << 3), a3 = A + ((<usize>k3 * m) << 3);
    let s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (let j = 0; j < m; ++j) {
      const qj = ld(q, j);
      s0 += ld(a0, j) * (qj - ld(x0, j));
      s1 += ld(a1, j) * (qj - ld(x1, j));
      s2 += ld(a2, j) * (qj - ld(x2, j));
      s3 += ld(a3, j) * (qj - ld(x3, j));
    }
    st(peSwc, i, s0 + ld(f, k0));
    st(peSwc, i + 1, s1 + ld(f, k1));
    st(peSwc, i + 2, s2 + ld(f, k2));
    st(peSwc, i + 3, s3 + ld(f, k3));
  }
  for (; i < nc; ++i) {
    const k = ldi(cover, i);
    const xk = Xp + ((<usize>k * m) << 3);
    const ak = A + ((<usize>k * m) << 3);
    let s = 0.0;
    for (let j = 0; j < m; ++j) s += ld(ak, j) * (ld(q, j) - ld(xk, j));
    st(peSwc, i, s + ld(f, k));
  }
  let v = 0.0;
  for (let e = 0; e < nc; ++e) v += ld(peSw, e) * ld(peSwc, e);
  store<f64>(outp, v);
  // LSHEPVAL's IER = 2 test on the hyperplane normals.
  weightedRows(A, m, cover, peSw, nc, peSlope);
  let sm = 0.0;
  for (let e = 0; e < nc; ++e) sm += -ld(peSw, e);
  st(peSlope, m, sm);
  let sn = 0.0;
  for (let j = 0; j <= m; ++j) sn += ld(peSlope, j) * ld(peSlope, j);
  sn = Math.sqrt(sn);
  for (let j = 0; j <= m; ++j) st(peMean, j, ld(peSlope, j) / sn); // the mean unit normal: the test's quotients
  const last = ld(peMean, m);
  i = 0;
  if (nUnit) {
    // four nodes at a time, as above
    for (; i + 4 <= nc; i += 4) {
      const k0 = ldi(cover, i), k1 = ldi(cover, i + 1), k2 = ldi(cover, i + 2), k3 = ldi(cover, i + 3);
      const u0 = nUnit + ((<usize>k0 * m) << 3), u1 = nUnit + ((<usize>k1 * m) << 3), u2 = nUnit + ((<usize>k2 * m) << 3), u3 = nUnit + ((<usize>k3 * m) << 3);
      let d0 = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0;
      for (let j = 0; j < m; ++j) {
        const mj = ld(peMean, j);
        d0 += mj * ld(u0, j);
        d1 += mj * ld(u1, j);
        d2 += mj * ld(u2, j);
        d3 += mj * ld(u3, j);
      }
      d0 += last * ld(nLast, k0);
      d1 += last * ld(nLast, k1);
      d2 += last * ld(nLast, k2);
      d3 += last * ld(nLast, k3);
      if (d0 < 0.9 || d1 < 0.9 || d2 < 0.9 || d3 < 0.9) {
        store<i32>(ierrp, 2);
        return;
      }
    }
  }
  for (; i < nc; ++i) {
    const k = ldi(cover, i);
    let dot = 0.0;
    if (nUnit) {
      const u = nUnit + ((<usize>k * m) << 3);
      for (let j = 0; j < m; ++j) dot += ld(peMean, j) * ld(u, j);
      dot += last * ld(nLast, k);
    } else {
      const ak = A + ((<usize>k * m) << 3);
      let nn = 0.0;
      for (let j = 0; j < m; ++j) nn += ld(ak, j) * ld(ak, j);
      nn = Math.sqrt(nn + 1.0);
      for (let j = 0; j < m; ++j) dot += ld(peMean, j) * (ld(ak, j) / nn);
      dot += last * (-1.0 / nn);
    }
    if (dot < 0.9) {
      store<i32>(ierrp, 2);
      return;
    }
  }
}

export function lspFit(Xp: usize, f: usize, n: i32, m: i32, A: usize, rw: usize, rank: usize): i32 {
  if (n < 0 || m < 1) return BAD_ARGUMENT;
  if (!allFinite(Xp, <usize>n * m) || !allFinite(f, <usize>n)) return NONFINITE;
  if (n <= m + 1) return LSP_TOO_FEW_POINTS;
  const np = min(n - 1, (3 * m + 1) / 2);
  // Neighbour lists of the TILE rows a scan serves at once (the tree uses the first).
  const d2 = heap.alloc(<usize>TILE * np * 8);
  const idx = heap.alloc(<usize>TILE * np * 4);
  const off = heap.alloc(<usize>m * 8);
  let status = OK;
  if (!buildTree(Xp, n, m, LEAF_SIZE) || !nodeScratch(np, m) || !d2 || !idx || !off) status = NO_MEMORY;
  let duplicates = false;
  for (let j = 0; j < m && status == OK; ++j) st(off, j, 0.0);
  // Neighbours from the tree while it prunes (see PROBE), else from a scan of all nodes, TILE rows at once.
  kVisits = 0;
  let k = 0;
  for (; k < n && status == OK && !(k == PROBE && kVisits > <i64>PROBE * <i64>(n / SCAN_SHARE)); ++k) {
    nearestOthers(Xp, m, k, np, d2, idx, off);
    const r = fitNode(Xp, f, k, d2, idx, A, rw, rank);
    if (r == LSP_DUPLICATE_POINTS) duplicates = true;
    else status = r;
  }
  if (k < n && status == OK) status = scanFit(Xp, f, n, m, np, k, d2, idx, A, rw, rank);
  if (status == LSP_DUPLICATE_POINTS) {
    duplicates = true;
    status = OK;
  }
  freeTree();
  freeNodeScratch();
  if (d2) heap.free(d2);
  if (idx) heap.free(idx);
  if (off) heap.free(off);
  if (status != OK) return status;
  if (duplicates) return LSP_DUPLICATE_POINTS;
  return capRadii(Xp, n, m, rw);
}

// lspFit's rows k0 .. n with neighbours from scans of all nodes, TILE rows at a time (blocks of CHUNK per
// scan: the bounds, each row's current NP-th distance, tighten between them). Returns OK,
// LSP_DUPLICATE_POINTS (some node has a duplicate; the rest are still fitted) or the first other failure.
const CHUNK: i32 = 16;
function scanFit(Xp: usize, f: usize, n: i32, m: i32, np: i32, k0: i32, d2: usize, idx: usize, A: usize, rw: usize, rank: usize): i32 {
  const stride = CHUNK * BLOCK;
  const hk = heap.alloc(<usize>TILE * stride * 4);
  const hs = heap.alloc(<usize>TILE * stride * 8);
  const h = heap.alloc(<usize>TILE * 4);
  const bounds = heap.alloc(<usize>TILE * 8);
  const counts = heap.alloc(<usize>TILE * 4);
  let status = OK;
  let duplicates = false;
  if (!hk || !hs || !h || !bounds || !counts || !buildBlocks(Xp, n, m)) status = NO_MEMORY;
  for (let k = k0; k < n && status == OK; k += TILE) {
    const nt = min(TILE, n - k);
    setTile(Xp, k, nt);
    for (let t = 0; t < TILE; ++t) sti(counts, t, 0);
    for (let b0 = 0; b0 < bNb; b0 += CHUNK) {
      for (let t = 0; t < TILE; ++t) {
        st(bounds, t, ldi(counts, t) < np ? Infinity : ld(d2, <usize>t * np + np - 1));
        sti(h, t, 0);
      }
      scanTile(b0, min(bNb, b0 + CHUNK), false, 0, bounds, hk, hs, stride, h);
      for (let t = 0; t < nt; ++t) {
        const td2 = d2 + ((<usize>t * np) << 3), tidx = idx + ((<usize>t * np) << 2);
        let count = ldi(counts, t);
        const ht = ldi(h, t);
        for (let e = 0; e < ht; ++e) {
          const i = ldi(hk, <usize>t * stride + e);
          const d = ld(hs, <usize>t * stride + e);
          if (i >= n || i == k + t) continue;
          if (count < np || nearer(d, i, ld(td2, np - 1), ldi(tidx, np - 1))) count = insertNearest(d, i, np, td2, tidx, count);
        }
        sti(counts, t, count);
      }
    }
    for (let t = 0; t < nt && status == OK; ++t) {
      const r = fitNode(Xp, f, k + t, d2 + ((<usize>t * np) << 3), idx + ((<usize>t * np) << 2), A, rw, rank);
      if (r == LSP_DUPLICATE_POINTS) duplicates = true;
      else status = r;
    }
  }
  freeBlocks();
  if (hk) heap.free(hk);
  if (hs) heap.free(hs);
  if (h) heap.free(h);
  if (bounds) heap.free(bounds);
  if (counts) heap.free(counts);
  if (status != OK) return status;
  return duplicates ? LSP_DUPLICATE_POINTS : OK;
}

// ---- the nodes whose radius covers each query: the one search lspEval and lspWeights share ----
// visit(iq, cover, dist, nc) is called for every query in order with its covering nodes ascending and their
// squared distances; it returns false to stop. By the k-d tree (cells pruned by their largest radius) where it
// prunes, else by scanning all nodes TILE queries at a time. Returns OK or NO_MEMORY.
let csXp: usize = 0;
let csF: usize = 0;
let csA: usize = 0;
let csRw: usize = 0;
let csN: i32 = 0;
let csM: i32 = 0;
let csQ: usize = 0;
let csOut: usize = 0;
let csIerr: usize = 0;
let csCap: i32 = 0;
let csCount: usize = 0;
let csCode: usize = 0;
let csIdx: usize = 0;
let csW: usize = 0;
let csStatus: i32 = OK;

function eachCover(Xp: usize, rw: usize, n: i32, m: i32, Q: usize, nq: i32, visit: (iq: i32, cover: usize, dist: usize, nc: i32) => bool): i32 {
  const cover = heap.alloc(<usize>n * 4 + 8);
  const dist = heap.alloc(<usize>n * 8 + 8);
  const off = heap.alloc(<usize>m * 8 + 8);
  let status = OK;
  if (!cover || !dist || !off || !buildBlocks(Xp, n, m)) status = NO_MEMORY;
  let iq = 0;
  let go = true;
  if (status == OK && treeMayPrune(n, m)) {
    if (!buildTree(Xp, n, m, LEAF_SIZE)) status = NO_MEMORY;
    else {
      for (let p = 0; p < n; ++p) {
        const r = ld(rw, ldi(perm, p));
        st(reach2, p, r * r * PRUNE_SLACK);
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
      for (let j = 0; j < m; ++j) st(off, j, 0.0);
      vVisits = 0;
      for (; iq < nq && go && !(iq == PROBE && vVisits > <i64>PROBE * <i64>(n / SCAN_SHARE)); ++iq) {
        vRw = rw;
        vQ = Q + ((<usize>iq * m) << 3);
        vOff = off;
        vCover = cover;
        vDist = dist;
        vCount = 0;
        coverSearch(0, 0.0);
        sortI32(cover, dist, vCount);
        go = visit(iq, cover, dist, vCount);
      }
    }
  }
  if (status == OK && iq < nq && go) {
    const stride = bNb * BLOCK;
    const reach = heap.alloc(<usize>stride * 8);
    const hk = heap.alloc(<usize>TILE * stride * 4);
    const hs = heap.alloc(<usize>TILE * stride * 8);
    const h = heap.alloc(<usize>TILE * 4);
    if (!reach || !hk || !hs || !h) status = NO_MEMORY;
    else {
      for (let k = 0; k < stride; ++k) {
        const r = k < n ? ld(rw, k) : 0.0;
        st(reach, k, k < n ? r * r * PRUNE_SLACK : -1.0); // padding nodes are never in reach
      }
      for (; iq < nq && go; iq += TILE) {
        const nt = min(TILE, nq - iq);
        setTile(Q, iq, nt);
        for (let t = 0; t < TILE; ++t) sti(h, t, 0);
        scanTile(0, bNb, true, reach, 0, hk, hs, stride, h);
        for (let t = 0; t < nt && go; ++t) {
          // LSHEPVAL's exact test on the candidates within reach, compacted in place.
          const kt = hk + ((<usize>t * stride) << 2), dt = hs + ((<usize>t * stride) << 3);
          let c = 0;
          const ht = ldi(h, t);
          for (let e = 0; e < ht; ++e) {
            const k = ldi(kt, e), d = ld(dt, e);
            sti(kt, c, k);
            st(dt, c, d);
            c += <i32>(Math.sqrt(d) < ld(rw, k));
          }
          go = visit(iq + t, kt, dt, c);
        }
      }
    }
    if (reach) heap.free(reach);
    if (hk) heap.free(hk);
    if (hs) heap.free(hs);
    if (h) heap.free(h);
  }
  freeTree();
  if (cover) heap.free(cover);
  if (dist) heap.free(dist);
  if (off) heap.free(off);
  return status;
}

function visitEval(iq: i32, cover: usize, dist: usize, nc: i32): bool {
  const m = csM;
  evalPoint(csXp, csF, csA, csRw, csN, m, csQ + ((<usize>iq * m) << 3), cover, dist, nc, csOut + (<usize>iq << 3), csIerr + (<usize>iq << 2));
  return true;
}

function visitWeights(iq: i32, cover: usize, dist: usize, nc: i32): bool {
  const m = csM, cap = csCap;
  const nw = pointWeights(csXp, csRw, csN, m, csQ + ((<usize>iq * m) << 3), cover, dist, nc, csCode + (<usize>iq << 2));
  sti(csCount, iq, nw);
  if (nw > cap) {
    csStatus = LSP_WEIGHTS_CAPACITY;
    return false;
  }
  for (let s = 0; s < nw; ++s) {
    sti(csIdx, iq * cap + s, ldi(peWid, s));
    st(csW, iq * cap + s, ld(peSw, s));
  }
  return true;
}

export function lspEval(Xp: usize, f: usize, A: usize, rw: usize, n: i32, m: i32, Q: usize, nq: i32, out: usize, ierr: usize): i32 {
  if (n < 1 || m < 1 || nq < 0) return BAD_ARGUMENT;
  if (!allFinite(Xp, <usize>n * m) || !allFinite(f, <usize>n) || !allFinite(A, <usize>n * m) || !allFinite(Q, <usize>nq * m)) return NONFINITE;
  if (badRadius(rw, n)) return LSP_BAD_RADIUS;
  let status = OK;
  if (!evalScratch(n, m) || !unitNormals(A, n, m)) status = NO_MEMORY;
  else {
    csXp = Xp;
    csF = f;
    csA = A;
    csRw = rw;
    csN = n;
    csM = m;
    csQ = Q;
    csOut = out;
    csIerr = ierr;
    status = eachCover(Xp, rw, n, m, Q, nq, visitEval);
  }
  freeBlocks();
  freeUnitNormals();
  freeEvalScratch();
  return status;
}

export function lspWeights(Xp: usize, rw: usize, n: i32, m: i32, Q: usize, nq: i32, cap: i32, count: usize, code: usize, idx: usize, w: usize): i32 {
  if (n < 1 || m < 1 || nq < 0 || cap < m + 1) return BAD_ARGUMENT;
  if (!allFinite(Xp, <usize>n * m) || !allFinite(Q, <usize>nq * m)) return NONFINITE;
  if (badRadius(rw, n)) return LSP_BAD_RADIUS;
  let status = OK;
  if (!evalScratch(n, m)) status = NO_MEMORY;
  else {
    csXp = Xp;
    csRw = rw;
    csN = n;
    csM = m;
    csQ = Q;
    csCap = cap;
    csCount = count;
    csCode = code;
    csIdx = idx;
    csW = w;
    csStatus = OK;
    status = eachCover(Xp, rw, n, m, Q, nq, visitWeights);
    if (status == OK) status = csStatus;
  }
  freeBlocks();
  freeEvalScratch();
  return status;
}

// ---- many fits on subsets of one point set (see native/include/varmap/lsp.h) ----

// Rearranges the n f64 at p so p[k] is the k-th smallest, smaller ones before it (quickselect).
function selectF64(p: usize, n: i32, k: i32): void {
  let lo = 0, hi = n - 1;
  while (hi > lo) {
    const mid = lo + ((hi - lo) >> 1);
    if (ld(p, mid) < ld(p, lo)) swapF64(p, mid, lo);
    if (ld(p, hi) < ld(p, lo)) swapF64(p, hi, lo);
    if (ld(p, mid) < ld(p, hi)) swapF64(p, mid, hi);
    const pivot = ld(p, hi);
    let s = lo;
    for (let i = lo; i < hi; ++i) {
      if (ld(p, i) < pivot) {
        swapF64(p, i, s);
        ++s;
      }
    }
    swapF64(p, s, hi);
    if (s == k) return;
    if (s < k) lo = s + 1;
    else hi = s - 1;
  }
}
@inline function swapF64(p: usize, i: i32, j: i32): void {
  const t = ld(p, i);
  st(p, i, ld(p, j));
  st(p, j, t);
}

// Heap sort of the pairs (dp[i], ip[i]) by (distance, row) ascending.
@inline function pairAfter(dp: usize, ip: usize, a: i32, b: i32): bool {
  const da = ld(dp, a), db = ld(dp, b);
  return da > db || (da == db && ldi(ip, a) > ldi(ip, b));
}
@inline function swapPair(dp: usize, ip: usize, a: i32, b: i32): void {
  swapF64(dp, a, b);
  const t = ldi(ip, a);
  sti(ip, a, ldi(ip, b));
  sti(ip, b, t);
}
function siftPair(dp: usize, ip: usize, root: i32, n: i32): void {
  let r = root;
  while (true) {
    let child = 2 * r + 1;
    if (child >= n) return;
    if (child + 1 < n && pairAfter(dp, ip, child + 1, child)) ++child;
    if (!pairAfter(dp, ip, child, r)) return;
    swapPair(dp, ip, r, child);
    r = child;
  }
}
function sortPairs(dp: usize, ip: usize, n: i32): void {
  for (let start = (n >> 1) - 1; start >= 0; --start) siftPair(dp, ip, start, n);
  for (let end = n - 1; end > 0; --end) {
    swapPair(dp, ip, 0, end);
    siftPair(dp, ip, 0, end);
  }
}

export function lspNeighbors(Xp: usize, n: i32, m: i32, K: i32, nbr: usize, nd2: usize): i32 {
  if (n < 2 || m < 1 || K < 1 || K > n - 1) return BAD_ARGUMENT;
  if (!allFinite(Xp, <usize>n * m)) return NONFINITE;
  const d = heap.alloc(<usize>n * 8);
  const others = heap.alloc(<usize>n * 8);
  if (!d || !others) {
    if (d) heap.free(d);
    if (others) heap.free(others);
    return NO_MEMORY;
  }
  for (let i = 0; i < n; ++i) {
    const xi = Xp + ((<usize>i * m) << 3);
    for (let j = 0; j < n; ++j) st(d, j, sqdist(Xp + ((<usize>j * m) << 3), xi, m));
    // The K-th smallest distance t to the others; then every row below t and the lowest rows at t that fill K:
    // the first K rows in (distance, row) order.
    let c = 0;
    for (let j = 0; j < n; ++j) if (j != i) st(others, c++, ld(d, j));
    selectF64(others, n - 1, K - 1);
    const t = ld(others, K - 1);
    let at = K;
    for (let j = 0; j < n; ++j) if (j != i && ld(d, j) < t) --at;
    const dp = nd2 + ((<usize>i * K) << 3), ip = nbr + ((<usize>i * K) << 2);
    let e = 0;
    for (let j = 0; j < n; ++j) {
      if (j == i) continue;
      const dj = ld(d, j);
      if (dj < t || (dj == t && at > 0)) {
        if (dj == t) --at;
        st(dp, e, dj);
        sti(ip, e, j);
        ++e;
      }
    }
    sortPairs(dp, ip, K);
  }
  heap.free(d);
  heap.free(others);
  return OK;
}

// State of one lspSubsets call.
let sX: usize = 0;
let sN: i32 = 0;
let sM: i32 = 0;
let sK: i32 = 0;
let sNbr: usize = 0;
let sNd2: usize = 0;
let sPos: usize = 0; // per row of X: training position or -1
let sSlot: usize = 0; // per row of X: first query position or -1
let sXs: usize = 0; // the subset's rows gathered
let sFs: usize = 0;

// Fit of one subset (lsp_fit on the gathered rows); neighbours from the table, else a k-d tree of the subset.
function subsetFit(tr: usize, n: i32, A: usize, rw: usize, rank: usize): i32 {
  const m = sM, K = sK;
  if (!allFinite(sXs, <usize>n * m) || !allFinite(sFs, <usize>n)) return NONFINITE;
  if (n <= m + 1) return LSP_TOO_FEW_POINTS;
  const np = min(n - 1, (3 * m + 1) / 2);
  const d2 = heap.alloc(<usize>np * 8);
  const idx = heap.alloc(<usize>np * 4);
  const off = heap.alloc(<usize>m * 8);
  let status = OK;
  if (!d2 || !idx || !off || !nodeScratch(np, m)) status = NO_MEMORY;
  for (let j = 0; j < m && status == OK; ++j) st(off, j, 0.0);
  for (let t = 0; t < n; ++t) sti(sPos, ldi(tr, t), t);
  let tree = false;
  let duplicates = false;
  for (let t = 0; t < n && status == OK; ++t) {
    // The table lists the other rows by (distance, row); training rows ascend with their positions, so its
    // first NP training rows are LSHEP's neighbours with its tie order.
    const g = ldi(tr, t);
    const nb = sNbr + ((<usize>g * K) << 2), nd = sNd2 + ((<usize>g * K) << 3);
    let c = 0;
    for (let e = 0; e < K && c < np; ++e) {
      const p = ldi(sPos, ldi(nb, e));
      if (p >= 0) {
        st(d2, c, ld(nd, e));
        sti(idx, c, p);
        ++c;
      }
    }
    if (c < np) {
      if (!tree) {
        tree = true;
        if (!buildTree(sXs, n, m, LEAF_SIZE)) {
          status = NO_MEMORY;
          break;
        }
      }
      nearestOthers(sXs, m, t, np, d2, idx, off);
    }
    const r = fitNode(sXs, sFs, t, d2, idx, A, rw, rank);
    if (r == LSP_DUPLICATE_POINTS) duplicates = true;
    else status = r;
  }
  for (let t = 0; t < n; ++t) sti(sPos, ldi(tr, t), -1);
  if (tree) freeTree();
  freeNodeScratch();
  if (d2) heap.free(d2);
  if (idx) heap.free(idx);
  if (off) heap.free(off);
  if (status != OK) return status;
  if (duplicates) return LSP_DUPLICATE_POINTS;
  return capRadii(sXs, n, m, rw);
}

// Visits the query slots node t covers (|q - x_t| < rw[t]): fill = false counts them into cnt, fill = true
// appends t to each slot's list at cur. The rows in reach are a prefix of the node's table; where the radius
// reaches past the table every query row is tested.
function coverWalk(t: i32, g: i32, r: f64, qr: usize, nq: i32, fill: bool, cnt: usize, cover: usize): void {
  const K = sK;
  const nb = sNbr + ((<usize>g * K) << 2), nd = sNd2 + ((<usize>g * K) << 3);
  let e = 0;
  while (e < K && Math.sqrt(ld(nd, e)) < r) ++e;
  if (e == K && K < sN - 1) {
    for (let i = 0; i < nq; ++i) {
      const row = ldi(qr, i);
      if (ldi(sSlot, row) == i && Math.sqrt(sqdist(sX + ((<usize>row * sM) << 3), sXs + ((<usize>t * sM) << 3), sM)) < r) coverAdd(i, t, fill, cnt, cover);
    }
    return;
  }
  const own = ldi(sSlot, g);
  if (own >= 0) coverAdd(own, t, fill, cnt, cover); // the node's own row: distance 0
  for (let a = 0; a < e; ++a) {
    const s = ldi(sSlot, ldi(nb, a));
    if (s >= 0) coverAdd(s, t, fill, cnt, cover);
  }
}
@inline function coverAdd(slot: i32, t: i32, fill: bool, cnt: usize, cover: usize): void {
  if (fill) {
    const at = ldi(cnt, slot);
    sti(cover, at, t);
    sti(cnt, slot, at + 1);
  } else {
    sti(cnt, slot + 1, ldi(cnt, slot + 1) + 1);
  }
}

// Evaluation of one subset's fit at its query rows (lsp_eval's checks and results).
function subsetEval(tr: usize, n: i32, qr: usize, nq: i32, A: usize, rw: usize, out: usize, ierr: usize): i32 {
  const m = sM;
  if (!allFinite(A, <usize>n * m)) return NONFINITE;
  for (let i = 0; i < nq; ++i) if (!allFinite(sX + ((<usize>ldi(qr, i) * m) << 3), <usize>m)) return NONFINITE;
  if (badRadius(rw, n)) return LSP_BAD_RADIUS;
  const start = heap.alloc(<usize>(nq + 1) * 4);
  const cur = heap.alloc(<usize>(nq + 1) * 4);
  if (!start || !cur || !evalScratch(n, m)) {
    if (start) heap.free(start);
    if (cur) heap.free(cur);
    freeEvalScratch();
    return NO_MEMORY;
  }
  for (let i = 0; i < nq; ++i) {
    const row = ldi(qr, i);
    if (ldi(sSlot, row) < 0) sti(sSlot, row, i);
  }
  // Count, then fill, each query's covering nodes; nodes in ascending order, so each list comes out ascending.
  for (let i = 0; i <= nq; ++i) sti(start, i, 0);
  for (let t = 0; t < n; ++t) coverWalk(t, ldi(tr, t), ld(rw, t), qr, nq, false, start, 0);
  for (let i = 0; i < nq; ++i) sti(start, i + 1, ldi(start, i + 1) + ldi(start, i));
  const total = ldi(start, nq);
  const cover = heap.alloc(<usize>total * 4 + 8);
  let status = OK;
  if (!cover) status = NO_MEMORY;
  else {
    for (let i = 0; i <= nq; ++i) sti(cur, i, ldi(start, i));
    for (let t = 0; t < n; ++t) coverWalk(t, ldi(tr, t), ld(rw, t), qr, nq, true, cur, cover);
    for (let i = 0; i < nq; ++i) {
      const row = ldi(qr, i);
      const first = ldi(sSlot, row);
      if (first < i) {
        // a repeated query row: the same result
        st(out, i, ld(out, first));
        sti(ierr, i, ldi(ierr, first));
        continue;
      }
      const s0 = ldi(start, i);
      evalPoint(sXs, sFs, A, rw, n, m, sX + ((<usize>row * m) << 3), cover + (<usize>s0 << 2), 0, ldi(start, i + 1) - s0, out + (<usize>i << 3), ierr + (<usize>i << 2));
    }
    heap.free(cover);
  }
  for (let i = 0; i < nq; ++i) sti(sSlot, ldi(qr, i), -1);
  heap.free(start);
  heap.free(cur);
  freeEvalScratch();
  return status;
}

export function lspSubsets(
  Xp: usize, f: usize, N: i32, m: i32, nbr: usize, nd2: usize, K: i32, S: i32, trainOff: usize, train: usize, queryOff: usize, query: usize,
  A: usize, rw: usize, rank: usize, status: usize, out: usize, ierr: usize,
): i32 {
  if (N < 2 || m < 1 || K < 1 || K > N - 1 || S < 0 || ldi(trainOff, 0) != 0 || ldi(queryOff, 0) != 0) return BAD_ARGUMENT;
  for (let s = 0; s < S; ++s) {
    const t0 = ldi(trainOff, s), t1 = ldi(trainOff, s + 1), q0 = ldi(queryOff, s), q1 = ldi(queryOff, s + 1);
    if (t1 < t0 || q1 < q0) return BAD_ARGUMENT;
    for (let t = t0; t < t1; ++t) {
      const g = ldi(train, t);
      if (g < 0 || g >= N || (t > t0 && g <= ldi(train, t - 1))) return BAD_ARGUMENT;
    }
    for (let t = q0; t < q1; ++t) {
      const g = ldi(query, t);
      if (g < 0 || g >= N) return BAD_ARGUMENT;
    }
  }
  for (let e: usize = 0; e < <usize>N * K; ++e) {
    const g = ldi(nbr, e);
    if (g < 0 || g >= N) return BAD_ARGUMENT;
  }
  sX = Xp;
  sN = N;
  sM = m;
  sK = K;
  sNbr = nbr;
  sNd2 = nd2;
  sPos = heap.alloc(<usize>N * 4);
  sSlot = heap.alloc(<usize>N * 4);
  sXs = heap.alloc(<usize>N * m * 8);
  sFs = heap.alloc(<usize>N * 8);
  let result = OK;
  if (!sPos || !sSlot || !sXs || !sFs) result = NO_MEMORY;
  else {
    for (let g = 0; g < N; ++g) {
      sti(sPos, g, -1);
      sti(sSlot, g, -1);
    }
    for (let s = 0; s < S; ++s) {
      const t0 = ldi(trainOff, s), n = ldi(trainOff, s + 1) - t0;
      const q0 = ldi(queryOff, s), nq = ldi(queryOff, s + 1) - q0;
      const tr = train + (<usize>t0 << 2);
      // The subset gathered in its (ascending) order: exactly what lspFit would be given.
      for (let t = 0; t < n; ++t) {
        const g = ldi(tr, t);
        for (let j = 0; j < m; ++j) st(sXs, <usize>t * m + j, ld(Xp, <usize>g * m + j));
        st(sFs, t, ld(f, g));
      }
      const As = A + ((<usize>t0 * m) << 3), rws = rw + (<usize>t0 << 3);
      let st_ = subsetFit(tr, n, As, rws, rank + (<usize>t0 << 2));
      if (st_ == OK) st_ = subsetEval(tr, n, query + (<usize>q0 << 2), nq, As, rws, out + (<usize>q0 << 3), ierr + (<usize>q0 << 2));
      sti(status, s, st_);
      if (st_ == NO_MEMORY) {
        result = NO_MEMORY;
        break;
      }
    }
  }
  if (sPos) heap.free(sPos);
  if (sSlot) heap.free(sSlot);
  if (sXs) heap.free(sXs);
  if (sFs) heap.free(sFs);
  sPos = sSlot = sXs = sFs = 0;
  return result;
}
