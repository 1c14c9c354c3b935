// Delaunay simplex location (mirror of native/src/delaunay.cc: same steps, same floating-point operations in the
// same order, so both backends pick the same simplices). See native/include/varmap/delaunay.h for the contract.
import { OK, BAD_ARGUMENT, NONFINITE, INTERNAL, allFinite } from "./lib/status";
export { alloc, free } from "./lib/memory";

const DELAUNAY_DUPLICATE: i32 = 10;
const DELAUNAY_DEGENERATE: i32 = 11;
const DELAUNAY_TOO_FEW: i32 = 12;
const DELAUNAY_NO_CONVERGE: i32 = 13;
const QUERY_INSIDE: i32 = 0;
const QUERY_EXTRAPOLATED: i32 = 1;
const QUERY_TOO_FAR: i32 = 2;

const kLiftPerturbation: f64 = 1e-13;
const kTooClose: f64 = 1e-6;
const kOffFlat: f64 = 1e-9;
const kOffFacet: f64 = 1e-11;
const kWolfeGap: f64 = 1e-14;
const kWalkBudget: i32 = 50000;
const kTableMaxDim: i32 = 4;
const kBlock: i32 = 64;
const kBoundSlack: f64 = 1e-12;
const kRoundSlack: f64 = 1e-14;

// ---- raw array access ----
@inline function ld(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}
@inline function st(p: usize, i: i32, v: f64): void {
  store<f64>(p + (<usize>i << 3), v);
}
@inline function ldi(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2));
}
@inline function sti(p: usize, i: i32, v: i32): void {
  store<i32>(p + (<usize>i << 2), v);
}
function allocF(n: i32): usize {
  return heap.alloc(<usize>(n < 1 ? 1 : n) << 3);
}
function allocI(n: i32): usize {
  return heap.alloc(<usize>(n < 1 ? 1 : n) << 2);
}
function fillI(p: usize, n: i32, v: i32): void {
  for (let i = 0; i < n; ++i) sti(p, i, v);
}

function mix32(h: u32): u32 {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

function liftPerturbation(i: i32): f64 {
  return kLiftPerturbation * (<f64>mix32(<u32>i * 0x9e3779b1 + 0x7f4a7c15) * (1.0 / 4294967296.0));
}

function dot(a: usize, b: usize, d: i32): f64 {
  let s = 0.0;
  for (let k = 0; k < d; ++k) s += ld(a, k) * ld(b, k);
  return s;
}

// ---- LU with partial pivoting (row-major d x d) ----
function luFactor(a: usize, d: i32, piv: usize): bool {
  for (let k = 0; k < d; ++k) {
    let p = k;
    let best = Math.abs(ld(a, k * d + k));
    for (let r = k + 1; r < d; ++r) {
      const v = Math.abs(ld(a, r * d + k));
      if (v > best) {
        best = v;
        p = r;
      }
    }
    sti(piv, k, p);
    if (!(best > 0.0)) return false;
    if (p != k)
      for (let c = 0; c < d; ++c) {
        const t = ld(a, k * d + c);
        st(a, k * d + c, ld(a, p * d + c));
        st(a, p * d + c, t);
      }
    const inv = 1.0 / ld(a, k * d + k);
    for (let r = k + 1; r < d; ++r) {
      const f = ld(a, r * d + k) * inv;
      st(a, r * d + k, f);
      for (let c = k + 1; c < d; ++c) st(a, r * d + c, ld(a, r * d + c) - f * ld(a, k * d + c));
    }
  }
  return true;
}

function luSolve(a: usize, d: i32, piv: usize, b: usize): void {
  for (let k = 0; k < d; ++k) {
    const p = ldi(piv, k);
    if (p != k) {
      const t = ld(b, k);
      st(b, k, ld(b, p));
      st(b, p, t);
    }
  }
  for (let r = 1; r < d; ++r) {
    let s = ld(b, r);
    for (let c = 0; c < r; ++c) s -= ld(a, r * d + c) * ld(b, c);
    st(b, r, s);
  }
  for (let r = d - 1; r >= 0; --r) {
    let s = ld(b, r);
    for (let c = r + 1; c < d; ++c) s -= ld(a, r * d + c) * ld(b, c);
    st(b, r, s / ld(a, r * d + r));
  }
}

function luSolveT(a: usize, d: i32, piv: usize, b: usize): void {
  for (let r = 0; r < d; ++r) {
    let s = ld(b, r);
    for (let c = 0; c < r; ++c) s -= ld(a, c * d + r) * ld(b, c);
    st(b, r, s / ld(a, r * d + r));
  }
  for (let r = d - 1; r >= 0; --r) {
    let s = ld(b, r);
    for (let c = r + 1; c < d; ++c) s -= ld(a, c * d + r) * ld(b, c);
    st(b, r, s);
  }
  for (let k = d - 1; k >= 0; --k) {
    const p = ldi(piv, k);
    if (p != k) {
      const t = ld(b, k);
      st(b, k, ld(b, p));
      st(b, p, t);
    }
  }
}

// ---- heap sort of indices by key ----
@inline function before(key: usize, a: i32, b: i32): bool {
  return ld(key, a) < ld(key, b) || (ld(key, a) == ld(key, b) && a < b);
}
function siftDown(idx: usize, key: usize, start: i32, end: i32): void {
  let root = start;
  while (2 * root + 1 < end) {
    let child = 2 * root + 1;
    if (child + 1 < end && before(key, ldi(idx, child), ldi(idx, child + 1))) ++child;
    if (!before(key, ldi(idx, root), ldi(idx, child))) return;
    const t = ldi(idx, root);
    sti(idx, root, ldi(idx, child));
    sti(idx, child, t);
    root = child;
  }
}
function heapSort(idx: usize, key: usize, n: i32): void {
  for (let s = n / 2 - 1; s >= 0; --s) siftDown(idx, key, s, n);
  for (let e = n - 1; e > 0; --e) {
    const t = ldi(idx, 0);
    sti(idx, 0, ldi(idx, e));
    sti(idx, e, t);
    siftDown(idx, key, 0, e);
  }
}

// ---- state of one call ----
let N: i32 = 0;
let D: i32 = 0;
let EPS: f64 = 0.0;
let xs: usize = 0; // scaled data n x d
let lift: usize = 0;
let delta: usize = 0;
let center: usize = 0;
let radius: f64 = 0.0;
let A: usize = 0;
let piv: usize = 0;
let rhs: usize = 0;
let gv: usize = 0;
let cv: usize = 0;
let keyBuf: usize = 0;
let first: usize = 0;
let firstPool: usize = 0;
let resid: usize = 0;
let h2: usize = 0;
let pw: usize = 0;
let basis: usize = 0;
let tdot: usize = 0; // grow: e . r per point
let xt: usize = 0; // column-major copy of xs (ensureColumns)
let wSet: usize = 0;
let wW: usize = 0;
let wV: usize = 0;
let wX: usize = 0;
let qr: usize = 0;
let qrB: usize = 0;
let qrTau: usize = 0;
let flips: i32 = 0;
let steps: i32 = 0;
// Scan pruning (see ensure_blocks / scan_columns in the C++): boxes of kBlock consecutive points, per-scan bounds.
let blo: usize = 0;
let bhi: usize = 0;
let bbmax: usize = 0;
let br2: usize = 0;

// Flip memo: open addressing over entries of (D + 2) ints: facet (D, ascending), vertex left behind, neighbour.
let memo: usize = 0;
let memoCap: i32 = 0;
let memoUsed: i32 = 0;

function memoFind(key: usize): i32 {
  const w = D + 2;
  const kl = w - 1;
  let h: u32 = 2166136261;
  for (let k = 0; k < kl; ++k) h = (h ^ <u32>ldi(key, k)) * 16777619;
  let i = <i32>(mix32(h) & <u32>(memoCap - 1));
  for (;;) {
    const e = memo + ((<usize>i * <usize>w) << 2);
    if (ldi(e, 0) < 0) return i;
    let same = true;
    for (let k = 0; k < kl && same; ++k) same = ldi(e, k) == ldi(key, k);
    if (same) return i;
    i = (i + 1) & (memoCap - 1);
  }
  return -1; // unreachable: the table is never full
}
@inline function memoEntry(i: i32): usize {
  return memo + ((<usize>i * <usize>(D + 2)) << 2);
}
function memoGrow(): void {
  const w = D + 2;
  const old = memo;
  const oldCap = memoCap;
  memoCap *= 2;
  memo = allocI(memoCap * w);
  fillI(memo, memoCap * w, -1);
  for (let i = 0; i < oldCap; ++i) {
    const e = old + ((<usize>i * <usize>w) << 2);
    if (ldi(e, 0) >= 0) {
      const t = memoEntry(memoFind(e));
      for (let k = 0; k < w; ++k) sti(t, k, ldi(e, k));
    }
  }
  heap.free(old);
}
function memoInsert(key: usize, value: i32): void {
  if (2 * (memoUsed + 1) > memoCap) memoGrow();
  const e = memoEntry(memoFind(key));
  for (let k = 0; k < D + 1; ++k) sti(e, k, ldi(key, k));
  sti(e, D + 1, value);
  ++memoUsed;
}

// The simplices walks have entered (see SimplexTable in the C++): per entry its vertices (ascending), its
// factors (as factor() leaves them), a flat mark and, per facet, the simplex across it once known
// (UNKNOWN, HULL or an entry). Entries live in parallel arrays grown by doubling; slots hash vertices to entries.
const UNKNOWN: i32 = -2;
const HULL: i32 = -1;
let sVerts: usize = 0;
let sLu: usize = 0;
let sPiv: usize = 0;
let sFlat: usize = 0;
let sNext: usize = 0;
let sCount: i32 = 0;
let sCap: i32 = 0;
let sSlots: usize = 0;
let sSlotCap: i32 = 0;

function simplexSetup(): void {
  sCount = 0;
  sCap = 256;
  sVerts = allocI(sCap * (D + 1));
  sLu = allocF(sCap * D * D);
  sPiv = allocI(sCap * D);
  sFlat = allocI(sCap);
  sNext = allocI(sCap * (D + 1));
  sSlotCap = 1024;
  sSlots = allocI(sSlotCap);
  fillI(sSlots, sSlotCap, -1);
}
@inline function sVertsOf(e: i32): usize {
  return sVerts + ((<usize>e * <usize>(D + 1)) << 2);
}
@inline function sLuOf(e: i32): usize {
  return sLu + ((<usize>e * <usize>(D * D)) << 3);
}
@inline function sPivOf(e: i32): usize {
  return sPiv + ((<usize>e * <usize>D) << 2);
}
function simplexFind(key: usize): i32 {
  const w = D + 1;
  let h: u32 = 2166136261;
  for (let k = 0; k < w; ++k) h = (h ^ <u32>ldi(key, k)) * 16777619;
  let i = <i32>(mix32(h) & <u32>(sSlotCap - 1));
  for (;;) {
    const e = ldi(sSlots, i);
    if (e < 0) return i;
    const v = sVertsOf(e);
    let same = true;
    for (let k = 0; k < w && same; ++k) same = ldi(v, k) == ldi(key, k);
    if (same) return i;
    i = (i + 1) & (sSlotCap - 1);
  }
  return -1; // unreachable: the table is never full
}
function growArray(p: usize, used: usize, bytes: usize): usize {
  const q = heap.alloc(bytes);
  memory.copy(q, p, used);
  heap.free(p);
  return q;
}
// The entry of S (ascending vertices), added on first sight with its factors (factor() into the entry's storage).
function simplexEnter(S: usize): i32 {
  let i = simplexFind(S);
  const found = ldi(sSlots, i);
  if (found >= 0) return found;
  if (sCount == sCap) {
    const c = <usize>sCap;
    const d1 = <usize>(D + 1),
      dd = <usize>(D * D),
      d = <usize>D;
    sVerts = growArray(sVerts, (c * d1) << 2, (2 * c * d1) << 2);
    sLu = growArray(sLu, (c * dd) << 3, (2 * c * dd) << 3);
    sPiv = growArray(sPiv, (c * d) << 2, (2 * c * d) << 2);
    sFlat = growArray(sFlat, c << 2, (2 * c) << 2);
    sNext = growArray(sNext, (c * d1) << 2, (2 * c * d1) << 2);
    sCap *= 2;
  }
  const e = sCount++;
  for (let k = 0; k <= D; ++k) {
    sti(sVertsOf(e), k, ldi(S, k));
    sti(sNext, e * (D + 1) + k, UNKNOWN);
  }
  sti(sFlat, e, factor(S, sLuOf(e), sPivOf(e)) ? 0 : 1);
  if (2 * sCount > sSlotCap) {
    heap.free(sSlots);
    sSlotCap *= 2;
    sSlots = allocI(sSlotCap);
    fillI(sSlots, sSlotCap, -1);
    for (let f = 0; f < e; ++f) sti(sSlots, simplexFind(sVertsOf(f)), f);
    i = simplexFind(S);
  }
  sti(sSlots, i, e);
  return e;
}

@inline function row(i: i32): usize {
  return xs + ((<usize>i * <usize>D) << 3);
}

function setup(X: usize, n: i32, d: i32, eps: f64): void {
  N = n;
  D = d;
  EPS = eps;
  xs = allocF(n * d);
  lift = allocF(n);
  delta = allocF(n);
  center = allocF(d);
  A = allocF(d * d);
  piv = allocI(d);
  rhs = allocF(d);
  gv = allocF(d);
  cv = allocF(d);
  keyBuf = allocI(d + 1);
  first = allocI(n);
  fillI(first, n, -1);
  firstPool = allocI(n * (d + 1));
  resid = 0;
  h2 = 0;
  pw = 0;
  basis = 0;
  xt = 0;
  tdot = 0;
  blo = 0;
  bhi = 0;
  bbmax = 0;
  br2 = 0;
  wSet = allocI(d + 2);
  wW = allocF(d + 2);
  wV = allocF(d + 2);
  wX = allocF(d);
  qr = allocF(d * (d + 1));
  qrB = allocF(d);
  qrTau = allocF(d + 1);
  memoCap = 4096;
  memoUsed = 0;
  simplexSetup();
  memo = allocI(memoCap * (d + 2));
  fillI(memo, memoCap * (d + 2), -1);
  flips = 0;
  steps = 0;
  for (let k = 0; k < d; ++k) st(center, k, 0.0);
  for (let i = 0; i < n; ++i)
    for (let k = 0; k < d; ++k) st(center, k, ld(center, k) + ld(X, i * d + k));
  for (let k = 0; k < d; ++k) st(center, k, ld(center, k) / <f64>n);
  radius = 0.0;
  for (let i = 0; i < n; ++i) {
    let s = 0.0;
    for (let k = 0; k < d; ++k) {
      const t = ld(X, i * d + k) - ld(center, k);
      s += t * t;
    }
    if (s > radius) radius = s;
  }
  radius = Math.sqrt(radius);
  const inv = radius > 0.0 ? 1.0 / radius : 0.0;
  for (let i = 0; i < n; ++i) {
    const xi = row(i);
    for (let k = 0; k < d; ++k) st(xi, k, (ld(X, i * d + k) - ld(center, k)) * inv);
    st(delta, i, liftPerturbation(i));
    st(lift, i, dot(xi, xi, d) + ld(delta, i));
  }
}

function teardown(): void {
  const ptrs: usize[] = [
    xs, lift, delta, center, A, piv, rhs, gv, cv, keyBuf, first, firstPool, resid, h2, pw, basis,
    wSet, wW, wV, wX, qr, qrB, qrTau, memo, blo, bhi, bbmax, br2, xt, tdot,
    sVerts, sLu, sPiv, sFlat, sNext, sSlots,
  ];
  for (let i = 0; i < ptrs.length; ++i) if (ptrs[i] != 0) heap.free(ptrs[i]);
  resid = 0;
  xt = 0;
  tdot = 0;
  blo = 0;
  bhi = 0;
  bbmax = 0;
  br2 = 0;
  h2 = 0;
  pw = 0;
  basis = 0;
}

// Two points closer than kTooClose; writes their indices into pair.
function findDuplicate(pair: usize): bool {
  const key = allocF(N);
  const idx = allocI(N);
  for (let i = 0; i < N; ++i) {
    let s = 0.0;
    const xi = row(i);
    for (let k = 0; k < D; ++k) s += ld(xi, k);
    st(key, i, s);
    sti(idx, i, i);
  }
  heapSort(idx, key, N);
  const window = kTooClose * Math.sqrt(<f64>D);
  const close2 = kTooClose * kTooClose;
  let found = false;
  for (let a = 0; a < N && !found; ++a)
    for (let b = a + 1; b < N && ld(key, ldi(idx, b)) - ld(key, ldi(idx, a)) <= window; ++b) {
      const p = row(ldi(idx, a));
      const q = row(ldi(idx, b));
      let s = 0.0;
      for (let k = 0; k < D; ++k) {
        const t = ld(p, k) - ld(q, k);
        s += t * t;
      }
      if (s < close2) {
        const ia = ldi(idx, a);
        const ib = ldi(idx, b);
        sti(pair, 0, ia < ib ? ia : ib);
        sti(pair, 1, ia < ib ? ib : ia);
        found = true;
        break;
      }
    }
  heap.free(key);
  heap.free(idx);
  return found;
}

function scaleQuery(q: usize, z: usize): void {
  const inv = radius > 0.0 ? 1.0 / radius : 0.0;
  for (let k = 0; k < D; ++k) st(z, k, (ld(q, k) - ld(center, k)) * inv);
}

function nearest(z: usize, stride: i32): i32 {
  let best = 0;
  let bd = Infinity;
  for (let i = 0; i < N; i += stride) {
    const xi = row(i);
    let s = 0.0;
    for (let k = 0; k < D; ++k) {
      const t = ld(xi, k) - ld(z, k);
      s += t * t;
    }
    if (s < bd) {
      bd = s;
      best = i;
    }
  }
  return best;
}

// Landmark stride for walk starts (see start_stride in native/src/delaunay.cc).
function startStride(_n: i32, d: i32): i32 {
  return d <= 8 ? 12 : 1;
}

// Grows a Delaunay simplex from vertex v (see the C++ grow()). Residuals are column-major (resid[k * N + i]) like
// the C++'s, two points per f64x2 (the same operations per lane, in the same order).
function grow(v: i32, S: usize): i32 {
  ensureColumns();
  if (resid == 0) {
    resid = allocF(N * D);
    h2 = allocF(N);
    pw = allocF(N);
    basis = allocF(D);
    tdot = allocF(N);
  }
  const xv = row(v);
  const n2 = N & ~1;
  for (let i = 0; i < N; ++i) st(h2, i, 0.0);
  for (let k = 0; k < D; ++k) {
    const rk = resid + ((<usize>k * <usize>N) << 3);
    const xk = xt + ((<usize>k * <usize>N) << 3);
    const vk = ld(xv, k);
    const vkv = f64x2.splat(vk);
    let i = 0;
    for (; i < n2; i += 2) {
      const o = <usize>i << 3;
      const r = f64x2.sub(v128.load(xk + o), vkv);
      v128.store(rk + o, r);
      v128.store(h2 + o, f64x2.add(v128.load(h2 + o), f64x2.mul(r, r)));
    }
    for (; i < N; ++i) {
      const r = ld(xk, i) - vk;
      st(rk, i, r);
      st(h2, i, ld(h2, i) + r * r);
    }
  }
  for (let i = 0; i < N; ++i) st(pw, i, ld(h2, i) + ld(delta, i) - ld(delta, v));
  sti(S, 0, v);
  const off2 = kOffFlat * kOffFlat;
  for (let step = 1; step <= D; ++step) {
    let best = -1;
    let bestKey = Infinity;
    for (let i = 0; i < N; ++i) {
      const hh = ld(h2, i);
      const p = ld(pw, i);
      const key = (p >= 0.0 ? p * p : -(p * p)) / hh;
      if (hh > off2 && key < bestKey) {
        bestKey = key;
        best = i;
      }
    }
    if (best < 0) return step - 1;
    const bestS = ld(pw, best) / (2.0 * Math.sqrt(ld(h2, best)));
    sti(S, step, best);
    if (step == D) break; // the residuals are only needed for a next step
    const h = Math.sqrt(ld(h2, best));
    for (let k = 0; k < D; ++k) st(basis, k, ld(resid, k * N + best) / h);
    // Remove direction e from every residual, updating |r|^2 and the power.
    for (let i = 0; i < N; ++i) st(tdot, i, 0.0);
    for (let k = 0; k < D; ++k) {
      const rk = resid + ((<usize>k * <usize>N) << 3);
      const ek = ld(basis, k);
      const ekv = f64x2.splat(ek);
      let i = 0;
      for (; i < n2; i += 2) {
        const o = <usize>i << 3;
        v128.store(tdot + o, f64x2.add(v128.load(tdot + o), f64x2.mul(ekv, v128.load(rk + o))));
      }
      for (; i < N; ++i) st(tdot, i, ld(tdot, i) + ek * ld(rk, i));
    }
    for (let i = 0; i < N; ++i) st(h2, i, 0.0);
    for (let k = 0; k < D; ++k) {
      const rk = resid + ((<usize>k * <usize>N) << 3);
      const ek = ld(basis, k);
      const ekv = f64x2.splat(ek);
      let i = 0;
      for (; i < n2; i += 2) {
        const o = <usize>i << 3;
        const r = f64x2.sub(v128.load(rk + o), f64x2.mul(v128.load(tdot + o), ekv));
        v128.store(rk + o, r);
        v128.store(h2 + o, f64x2.add(v128.load(h2 + o), f64x2.mul(r, r)));
      }
      for (; i < N; ++i) {
        const r = ld(rk, i) - ld(tdot, i) * ek;
        st(rk, i, r);
        st(h2, i, ld(h2, i) + r * r);
      }
    }
    const s2 = 2.0 * bestS;
    for (let i = 0; i < N; ++i) st(pw, i, ld(pw, i) - s2 * ld(tdot, i));
  }
  for (let i = 1; i <= D; ++i) {
    const t = ldi(S, i);
    let k = i;
    while (k > 0 && ldi(S, k - 1) > t) {
      sti(S, k, ldi(S, k - 1));
      --k;
    }
    sti(S, k, t);
  }
  return D;
}

function firstSimplex(v: i32, S: usize): i32 {
  const pool = firstPool + ((<usize>v * <usize>(D + 1)) << 2);
  if (ldi(first, v) < 0) {
    const dim = grow(v, pool);
    if (dim < D) return dim;
    sti(first, v, 1);
  }
  for (let k = 0; k <= D; ++k) sti(S, k, ldi(pool, k));
  return D;
}

// a = columns x_{S[i]} - x_{S[0]}, LU-factored (pivots in pv).
function factor(S: usize, a: usize, pv: usize): bool {
  const x0 = row(ldi(S, 0));
  for (let i = 1; i <= D; ++i) {
    const xi = row(ldi(S, i));
    for (let r = 0; r < D; ++r) st(a, r * D + (i - 1), ld(xi, r) - ld(x0, r));
  }
  return luFactor(a, D, pv);
}

function inSimplex(S: usize, p: i32): bool {
  for (let k = 0; k <= D; ++k) if (ldi(S, k) == p) return true;
  return false;
}

function replaceVertex(S: usize, j: i32, p: i32): void {
  for (let k = j; k < D; ++k) sti(S, k, ldi(S, k + 1));
  let k = D;
  while (k > 0 && ldi(S, k - 1) > p) {
    sti(S, k, ldi(S, k - 1));
    --k;
  }
  sti(S, k, p);
}

function ensureBlocks(): void {
  if (blo != 0) return;
  const nb = (N + kBlock - 1) / kBlock;
  blo = allocF(nb * D);
  bhi = allocF(nb * D);
  bbmax = allocF(nb);
  br2 = allocF(nb);
  for (let q = 0; q < nb; ++q)
    for (let k = 0; k < D; ++k) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let p = q * kBlock; p < N && p < (q + 1) * kBlock; ++p) {
        const v = ld(row(p), k);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
      st(blo, q * D + k, lo);
      st(bhi, q * D + k, hi);
    }
}

let scanBest: i32 = -1;
let scanKey: f64 = Infinity;

// Column-major copy of the scaled data (xt[k * N + i]) for the scan, grow and projection, built on first use: two
// points at a time in one f64x2 register, each lane computing exactly the scalar operations (no fused multiply-add
// in WebAssembly).
function ensureColumns(): void {
  if (xt != 0) return;
  xt = allocF(N * D);
  for (let i = 0; i < N; ++i) for (let k = 0; k < D; ++k) st(xt, k * N + i, ld(row(i), k));
}

@inline function scanTest(S: usize, p: i32, b: f64, num: f64): void {
  if (b > kOffFacet && num < scanKey * b && !inSimplex(S, p)) {
    scanKey = num / b;
    scanBest = p;
  }
}

// The scan's test over block q in index order, updating (scanKey, scanBest): see scan_block in the C++. Four points
// at a time (two f64x2 per sum, each lane computing the scalar operations in the scalar order); a group where the
// test may pass for some point (rare: the pre-test uses the best key at the group's start, which only decreases) is
// redone point by point, in order.
function scanBlock(S: usize, c0: f64, K: f64, q: i32): void {
  ensureColumns();
  if (D == 4) {
    scanBlock4(S, c0, K, q);
    return;
  }
  const end = min(N, (q + 1) * kBlock);
  let p = q * kBlock;
  const c0v = f64x2.splat(c0);
  const Kv = f64x2.splat(K);
  const two = f64x2.splat(2.0);
  const off = f64x2.splat(kOffFacet);
  let bestv = f64x2.splat(scanKey);
  const stride = <usize>N << 3;
  for (; p + 4 <= end; p += 4) {
    let sgA = f64x2.splat(0.0);
    let scA = sgA;
    let sgB = sgA;
    let scB = sgA;
    let col = xt + (<usize>p << 3);
    for (let k = 0; k < D; ++k) {
      const xA = v128.load(col);
      const xB = v128.load(col, 16);
      const g = v128.load64_splat(gv + (<usize>k << 3));
      const c = v128.load64_splat(cv + (<usize>k << 3));
      sgA = f64x2.add(sgA, f64x2.mul(g, xA));
      scA = f64x2.add(scA, f64x2.mul(c, xA));
      sgB = f64x2.add(sgB, f64x2.mul(g, xB));
      scB = f64x2.add(scB, f64x2.mul(c, xB));
      col += stride;
    }
    const lp = lift + (<usize>p << 3);
    if (scanHits(v128.load(lp), v128.load(lp, 16), sgA, scA, sgB, scB, c0v, Kv, two, off, bestv)) {
      scanGroup(S, p, sgA, scA, sgB, scB, c0, K);
      bestv = f64x2.splat(scanKey);
    }
  }
  scanRest(S, c0, K, p, end);
}

// scanBlock for d = 4: the coordinates' multipliers held in registers.
function scanBlock4(S: usize, c0: f64, K: f64, q: i32): void {
  const end = min(N, (q + 1) * kBlock);
  let p = q * kBlock;
  const c0v = f64x2.splat(c0);
  const Kv = f64x2.splat(K);
  const two = f64x2.splat(2.0);
  const off = f64x2.splat(kOffFacet);
  let bestv = f64x2.splat(scanKey);
  const g0 = v128.load64_splat(gv);
  const g1 = v128.load64_splat(gv + 8);
  const g2 = v128.load64_splat(gv + 16);
  const g3 = v128.load64_splat(gv + 24);
  const k0 = v128.load64_splat(cv);
  const k1 = v128.load64_splat(cv + 8);
  const k2 = v128.load64_splat(cv + 16);
  const k3 = v128.load64_splat(cv + 24);
  const stride = <usize>N << 3;
  const zero = f64x2.splat(0.0);
  for (; p + 4 <= end; p += 4) {
    const c0p = xt + (<usize>p << 3);
    const c1p = c0p + stride;
    const c2p = c1p + stride;
    const c3p = c2p + stride;
    const a0 = v128.load(c0p);
    const b0 = v128.load(c0p, 16);
    const a1 = v128.load(c1p);
    const b1 = v128.load(c1p, 16);
    const a2 = v128.load(c2p);
    const b2 = v128.load(c2p, 16);
    const a3 = v128.load(c3p);
    const b3 = v128.load(c3p, 16);
    const sgA = f64x2.add(f64x2.add(f64x2.add(f64x2.add(zero, f64x2.mul(g0, a0)), f64x2.mul(g1, a1)), f64x2.mul(g2, a2)), f64x2.mul(g3, a3));
    const scA = f64x2.add(f64x2.add(f64x2.add(f64x2.add(zero, f64x2.mul(k0, a0)), f64x2.mul(k1, a1)), f64x2.mul(k2, a2)), f64x2.mul(k3, a3));
    const sgB = f64x2.add(f64x2.add(f64x2.add(f64x2.add(zero, f64x2.mul(g0, b0)), f64x2.mul(g1, b1)), f64x2.mul(g2, b2)), f64x2.mul(g3, b3));
    const scB = f64x2.add(f64x2.add(f64x2.add(f64x2.add(zero, f64x2.mul(k0, b0)), f64x2.mul(k1, b1)), f64x2.mul(k2, b2)), f64x2.mul(k3, b3));
    const lp = lift + (<usize>p << 3);
    if (scanHits(v128.load(lp), v128.load(lp, 16), sgA, scA, sgB, scB, c0v, Kv, two, off, bestv)) {
      scanGroup(S, p, sgA, scA, sgB, scB, c0, K);
      bestv = f64x2.splat(scanKey);
    }
  }
  scanRest(S, c0, K, p, end);
}

// Whether the test may pass for one of four points: b > kOffFacet and num < best * b in some lane.
@inline function scanHits(lA: v128, lB: v128, sgA: v128, scA: v128, sgB: v128, scB: v128, c0v: v128, Kv: v128, two: v128, off: v128, bestv: v128): bool {
  const bA = f64x2.neg(f64x2.add(sgA, c0v));
  const nA = f64x2.add(f64x2.sub(lA, f64x2.mul(two, scA)), Kv);
  const bB = f64x2.neg(f64x2.add(sgB, c0v));
  const nB = f64x2.add(f64x2.sub(lB, f64x2.mul(two, scB)), Kv);
  const hA = v128.and(f64x2.gt(bA, off), f64x2.lt(nA, f64x2.mul(bestv, bA)));
  const hB = v128.and(f64x2.gt(bB, off), f64x2.lt(nB, f64x2.mul(bestv, bB)));
  return v128.any_true(v128.or(hA, hB));
}

// The scalar test of four points in order, from their sums (the same values the scalar loop computes).
function scanGroup(S: usize, p: i32, sgA: v128, scA: v128, sgB: v128, scB: v128, c0: f64, K: f64): void {
  scanTest(S, p, -(f64x2.extract_lane(sgA, 0) + c0), ld(lift, p) - 2.0 * f64x2.extract_lane(scA, 0) + K);
  scanTest(S, p + 1, -(f64x2.extract_lane(sgA, 1) + c0), ld(lift, p + 1) - 2.0 * f64x2.extract_lane(scA, 1) + K);
  scanTest(S, p + 2, -(f64x2.extract_lane(sgB, 0) + c0), ld(lift, p + 2) - 2.0 * f64x2.extract_lane(scB, 0) + K);
  scanTest(S, p + 3, -(f64x2.extract_lane(sgB, 1) + c0), ld(lift, p + 3) - 2.0 * f64x2.extract_lane(scB, 1) + K);
}

function scanRest(S: usize, c0: f64, K: f64, from: i32, end: i32): void {
  for (let p = from; p < end; ++p) {
    let gb = 0.0;
    let cb = 0.0;
    for (let k = 0; k < D; ++k) {
      const xk = ld(xt, k * N + p);
      gb += ld(gv, k) * xk;
      cb += ld(cv, k) * xk;
    }
    scanTest(S, p, -(gb + c0), ld(lift, p) - 2.0 * cb + K);
  }
}

// Across the facet, the point minimizing power / depth, the first in index order; blocks that cannot hold a point
// within the slack of a known candidate's key are skipped (see scan_columns in the C++ for why that is exact).
function scanFacet(S: usize, c0: f64, K: f64, R: f64): i32 {
  ensureBlocks();
  const nb = (N + kBlock - 1) / kBlock;
  let gsum = Math.abs(c0);
  let csq = 0.0;
  for (let k = 0; k < D; ++k) {
    gsum += Math.abs(ld(gv, k));
    csq += ld(cv, k) * ld(cv, k);
  }
  const tolB = kBoundSlack * gsum;
  const tolN = kRoundSlack * (1.0 + csq + Math.abs(R));
  let first = -1;
  let firstLb = Infinity;
  for (let q = 0; q < nb; ++q) {
    let gmin = 0.0;
    let r2 = 0.0;
    for (let k = 0; k < D; ++k) {
      const lo = ld(blo, q * D + k);
      const hi = ld(bhi, q * D + k);
      const g = ld(gv, k);
      const c = ld(cv, k);
      const a = g * lo;
      const b = g * hi;
      gmin += a < b ? a : b;
      const u = lo - c;
      const v = c - hi;
      const t = u > v ? u : v;
      r2 += t > 0.0 ? t * t : 0.0;
    }
    const bmax = -(gmin + c0) + tolB;
    st(bbmax, q, bmax);
    st(br2, q, r2 - R - tolN);
    if (bmax > kOffFacet) {
      const lb = ld(br2, q) / bmax;
      if (first < 0 || lb < firstLb) {
        first = q;
        firstLb = lb;
      }
    }
  }
  if (first < 0) return -1;
  scanBest = -1;
  scanKey = Infinity;
  scanBlock(S, c0, K, first);
  const kappa = scanKey;
  scanBest = -1;
  scanKey = Infinity;
  for (let q = 0; q < nb; ++q) {
    const bmax = ld(bbmax, q);
    if (!(bmax > kOffFacet)) continue;
    const kp = scanKey < kappa ? scanKey : kappa;
    if (kp < Infinity && ld(br2, q) > (kp > 0.0 ? kp : 0.0) * bmax * (1.0 + kBoundSlack)) continue;
    scanBlock(S, c0, K, q);
  }
  return scanBest;
}

// The vertex across the facet of S opposite S[j] (lu, pv: S's factors), or -1 on the hull.
function neighbour(S: usize, j: i32, lu: usize, pv: usize): i32 {
  let m = 0;
  for (let k = 0; k <= D; ++k)
    if (k != j) {
      sti(keyBuf, m, ldi(S, k));
      ++m;
    }
  sti(keyBuf, D, ldi(S, j));
  const slot = memoEntry(memoFind(keyBuf));
  if (ldi(slot, 0) >= 0) return ldi(slot, D + 1);
  ++flips;
  const x0 = row(ldi(S, 0));
  for (let k = 0; k < D; ++k) st(gv, k, j == 0 ? -1.0 : k == j - 1 ? 1.0 : 0.0);
  luSolveT(lu, D, pv, gv);
  const c0 = (j == 0 ? 1.0 : 0.0) - dot(gv, x0, D);
  for (let i = 1; i <= D; ++i) {
    const xi = row(ldi(S, i));
    let t = 0.0;
    for (let k = 0; k < D; ++k) t += ld(x0, k) * (ld(xi, k) - ld(x0, k));
    st(cv, i - 1, 0.5 * (ld(lift, ldi(S, i)) - ld(lift, ldi(S, 0))) - t);
  }
  luSolveT(lu, D, pv, cv);
  const R = dot(cv, cv, D) + ld(delta, ldi(S, 0));
  for (let k = 0; k < D; ++k) st(cv, k, ld(cv, k) + ld(x0, k));
  const K = dot(cv, cv, D) - R;
  const best = scanFacet(S, c0, K, R);
  memoInsert(keyBuf, best);
  // The way back is known too: from the new simplex across the same facet lies the vertex just left behind.
  if (best >= 0) {
    sti(keyBuf, D, best);
    if (ldi(memoEntry(memoFind(keyBuf)), 0) < 0) memoInsert(keyBuf, ldi(S, j));
  }
  return best;
}

// 0 inside, 1 hull facet met, 2 budget exhausted, 3 flat simplex (see the C++ walk()).
function walk(z: usize, S: usize, w: usize): i32 {
  return D <= kTableMaxDim ? walkTable(z, S, w) : walkPlain(z, S, w);
}

// The barycentric coordinates w of z in simplex S (lu, pv: its factors); returns the index of the smallest.
function weights(z: usize, S: usize, lu: usize, pv: usize, w: usize): i32 {
  const x0 = row(ldi(S, 0));
  for (let k = 0; k < D; ++k) st(rhs, k, ld(z, k) - ld(x0, k));
  luSolve(lu, D, pv, rhs);
  let sum = 0.0;
  for (let k = 0; k < D; ++k) {
    st(w, k + 1, ld(rhs, k));
    sum += ld(rhs, k);
  }
  st(w, 0, 1.0 - sum);
  let j = 0;
  for (let k = 1; k <= D; ++k) if (ld(w, k) < ld(w, j)) j = k;
  return j;
}

// The walk refactoring every simplex it enters (above kTableMaxDim: walks there seldom come back to a simplex).
function walkPlain(z: usize, S: usize, w: usize): i32 {
  for (let step = 0; ; ++step) {
    if (!factor(S, A, piv)) return 3;
    const j = weights(z, S, A, piv, w);
    if (ld(w, j) >= -EPS) return 0;
    const p = neighbour(S, j, A, piv);
    if (p < 0) return 1;
    if (step >= kWalkBudget) return 2;
    ++steps;
    replaceVertex(S, j, p);
  }
  return 2; // unreachable
}

// The same walk through the table of entered simplices: the same steps, solves and answers.
function walkTable(z: usize, S: usize, w: usize): i32 {
  let e = simplexEnter(S);
  for (let step = 0; ; ++step) {
    const V = sVertsOf(e);
    for (let k = 0; k <= D; ++k) sti(S, k, ldi(V, k));
    if (ldi(sFlat, e) != 0) return 3;
    const j = weights(z, S, sLuOf(e), sPivOf(e), w);
    if (ld(w, j) >= -EPS) return 0;
    let to = ldi(sNext, e * (D + 1) + j);
    if (to == UNKNOWN) {
      const p = neighbour(S, j, sLuOf(e), sPivOf(e));
      if (p < 0) {
        to = HULL;
      } else {
        replaceVertex(S, j, p);
        to = simplexEnter(S);
      }
      sti(sNext, e * (D + 1) + j, to);
    }
    if (to == HULL) return 1;
    if (step >= kWalkBudget) {
      // Like walkPlain, a walk out of budget answers the simplex it is leaving (the table may have moved: reread).
      const Ve = sVertsOf(e);
      for (let k = 0; k <= D; ++k) sti(S, k, ldi(Ve, k));
      return 2;
    }
    ++steps;
    e = to;
  }
  return 2; // unreachable
}

function affineMinimizer(z: usize, set: usize, k: i32, v: usize): bool {
  const m = k - 1;
  const x0 = row(ldi(set, 0));
  for (let s = 1; s < k; ++s) {
    const xsr = row(ldi(set, s));
    for (let c = 0; c < D; ++c) st(qr, (s - 1) * D + c, ld(xsr, c) - ld(x0, c));
  }
  for (let c = 0; c < D; ++c) st(qrB, c, ld(z, c) - ld(x0, c));
  for (let col = 0; col < m; ++col) {
    const mc = qr + ((<usize>col * <usize>D) << 3);
    let norm = 0.0;
    for (let r = col; r < D; ++r) norm += ld(mc, r) * ld(mc, r);
    norm = Math.sqrt(norm);
    if (!(norm > 1e-300)) return false;
    const alpha = ld(mc, col) > 0.0 ? -norm : norm;
    const v0 = ld(mc, col) - alpha;
    st(mc, col, v0);
    let vv = 0.0;
    for (let r = col; r < D; ++r) vv += ld(mc, r) * ld(mc, r);
    for (let c2 = col + 1; c2 < m; ++c2) {
      const mo = qr + ((<usize>c2 * <usize>D) << 3);
      let t = 0.0;
      for (let r = col; r < D; ++r) t += ld(mc, r) * ld(mo, r);
      const f = (2.0 * t) / vv;
      for (let r = col; r < D; ++r) st(mo, r, ld(mo, r) - f * ld(mc, r));
    }
    let t = 0.0;
    for (let r = col; r < D; ++r) t += ld(mc, r) * ld(qrB, r);
    const f = (2.0 * t) / vv;
    for (let r = col; r < D; ++r) st(qrB, r, ld(qrB, r) - f * ld(mc, r));
    st(qrTau, col, alpha);
  }
  for (let col = 0; col < m; ++col) if (!(Math.abs(ld(qrTau, col)) > 1e-13)) return false;
  for (let col = m - 1; col >= 0; --col) {
    let s = ld(qrB, col);
    for (let c2 = col + 1; c2 < m; ++c2) s -= ld(qr, c2 * D + col) * ld(v, c2 + 1);
    st(v, col + 1, s / ld(qrTau, col));
  }
  let sum = 0.0;
  for (let s = 1; s < k; ++s) sum += ld(v, s);
  st(v, 0, 1.0 - sum);
  return true;
}

function finishProjection(set: usize, w: usize, k: i32, proj: usize): bool {
  for (let c = 0; c < D; ++c) {
    let t = 0.0;
    for (let s = 0; s < k; ++s) t += ld(w, s) * ld(row(ldi(set, s)), c);
    st(proj, c, t);
  }
  return true;
}

// Wolfe's minimum-norm point of {x_i - z}: the projection of z onto the hull (see the C++ project()).
// The first data point i minimizing x_i . x (summed over k = 0..D-1 like dot()), into `opposite`, and that minimum:
// two points at a time over the column-major copy (see most_opposite in the C++).
let opposite: i32 = -1;
function mostOpposite(x: usize): f64 {
  ensureColumns();
  let best = Infinity;
  let at = -1;
  let bv = f64x2.splat(best);
  const stride = <usize>N << 3;
  let i = 0;
  for (; i + 2 <= N; i += 2) {
    let s = f64x2.splat(0.0);
    let col = xt + (<usize>i << 3);
    for (let k = 0; k < D; ++k) {
      s = f64x2.add(s, f64x2.mul(v128.load(col), v128.load64_splat(x + (<usize>k << 3))));
      col += stride;
    }
    if (v128.any_true(f64x2.lt(s, bv))) {
      const s0 = f64x2.extract_lane(s, 0);
      const s1 = f64x2.extract_lane(s, 1);
      if (s0 < best) {
        best = s0;
        at = i;
      }
      if (s1 < best) {
        best = s1;
        at = i + 1;
      }
      bv = f64x2.splat(best);
    }
  }
  for (; i < N; ++i) {
    const s = dot(row(i), x, D);
    if (s < best) {
      best = s;
      at = i;
    }
  }
  opposite = at;
  return best;
}

function project(z: usize, v: i32, proj: usize): bool {
  const set = wSet;
  const w = wW;
  const x = wX;
  let k = 1;
  sti(set, 0, v);
  st(w, 0, 1.0);
  for (let c = 0; c < D; ++c) st(x, c, ld(row(v), c) - ld(z, c));
  for (let major = 0; major < 50 * (D + 1) + 100; ++major) {
    const zx = dot(z, x, D);
    const xx = dot(x, x, D);
    const best = mostOpposite(x);
    const j = opposite;
    let scale = 0.0;
    for (let s = 0; s < k; ++s) {
      const xsr = row(ldi(set, s));
      let t = 0.0;
      for (let c = 0; c < D; ++c) {
        const u = ld(xsr, c) - ld(z, c);
        t += u * u;
      }
      if (t > scale) scale = t;
    }
    if (xx - (best - zx) <= kWolfeGap * scale) break;
    let present = false;
    for (let s = 0; s < k; ++s) present = present || ldi(set, s) == j;
    if (present || k > D) break;
    sti(set, k, j);
    st(w, k, 0.0);
    ++k;
    for (;;) {
      if (!affineMinimizer(z, set, k, wV)) return finishProjection(set, w, k, proj);
      let positive = true;
      for (let s = 0; s < k; ++s) positive = positive && ld(wV, s) > 0.0;
      if (positive) {
        for (let s = 0; s < k; ++s) st(w, s, ld(wV, s));
        break;
      }
      let theta = 1.0;
      let drop = -1;
      for (let s = 0; s < k; ++s)
        if (ld(wV, s) <= 0.0) {
          const gap = ld(w, s) - ld(wV, s);
          const t = gap > 0.0 ? ld(w, s) / gap : 0.0;
          if (drop < 0 || t < theta) {
            theta = t;
            drop = s;
          }
        }
      for (let s = 0; s < k; ++s) st(w, s, theta * ld(wV, s) + (1.0 - theta) * ld(w, s));
      let m = 0;
      for (let s = 0; s < k; ++s)
        if (s != drop && ld(w, s) > 0.0) {
          sti(set, m, ldi(set, s));
          st(w, m, ld(w, s));
          ++m;
        }
      if (m == 0) return false;
      k = m;
      let tot = 0.0;
      for (let s = 0; s < k; ++s) tot += ld(w, s);
      for (let s = 0; s < k; ++s) st(w, s, ld(w, s) / tot);
      if (k == 1) break;
    }
    for (let c = 0; c < D; ++c) {
      let t = 0.0;
      for (let s = 0; s < k; ++s) t += ld(w, s) * (ld(row(ldi(set, s)), c) - ld(z, c));
      st(x, c, t);
    }
  }
  return finishProjection(set, w, k, proj);
}

function locateAll(Q: usize, nq: i32, maxExtrap: f64, simplices: usize, weights: usize, qstatus: usize, rnorm: usize, info: usize): i32 {
  const d = D;
  const S = allocI(d + 1);
  const z = allocF(d);
  const proj = allocF(d);
  const w = allocF(d + 1);
  let status = OK;
  const dim = firstSimplex(0, S);
  if (dim < d) {
    sti(info, 0, dim);
    status = DELAUNAY_DEGENERATE;
  }
  const stride = startStride(N, d);
  for (let qi = 0; qi < nq && status == OK; ++qi) {
    scaleQuery(Q + ((<usize>qi * <usize>d) << 3), z);
    const start = nearest(z, stride);
    if (firstSimplex(start, S) < d) {
      status = INTERNAL;
      break;
    }
    let r = walk(z, S, w);
    let code = QUERY_INSIDE;
    let dist = 0.0;
    if (r == 1) {
      // Outside the hull: the projection starts from the nearest data point (only needed here).
      const v = stride == 1 ? start : nearest(z, 1);
      if (!project(z, v, proj)) {
        sti(info, 0, qi);
        status = DELAUNAY_NO_CONVERGE;
        break;
      }
      let s = 0.0;
      for (let k = 0; k < d; ++k) {
        const t = ld(z, k) - ld(proj, k);
        s += t * t;
      }
      dist = Math.sqrt(s) * radius;
      r = walk(proj, S, w);
      if (r == 1) r = 0;
      code = dist > maxExtrap ? QUERY_TOO_FAR : QUERY_EXTRAPOLATED;
    }
    if (r == 2) {
      sti(info, 0, qi);
      status = DELAUNAY_NO_CONVERGE;
      break;
    }
    if (r == 3) {
      status = INTERNAL;
      break;
    }
    for (let k = 0; k <= d; ++k) {
      sti(simplices, qi * (d + 1) + k, ldi(S, k));
      st(weights, qi * (d + 1) + k, ld(w, k));
    }
    sti(qstatus, qi, code);
    st(rnorm, qi, dist);
  }
  heap.free(S);
  heap.free(z);
  heap.free(proj);
  heap.free(w);
  return status;
}

export function delaunayLocate(
  X: usize, n: i32, d: i32, Q: usize, nq: i32, eps: f64, maxExtrap: f64,
  simplices: usize, weights: usize, qstatus: usize, rnorm: usize, info: usize,
): i32 {
  for (let k = 0; k < 4; ++k) sti(info, k, -1);
  if (n < 0 || nq < 0 || d < 1 || !(eps >= 0.0) || isNaN(maxExtrap)) return BAD_ARGUMENT;
  if (!allFinite(X, <usize>n * d) || !allFinite(Q, <usize>nq * d)) return NONFINITE;
  if (n < d + 1) {
    sti(info, 0, n);
    return DELAUNAY_TOO_FEW;
  }
  setup(X, n, d, eps);
  let status = OK;
  if (!(radius > 0.0)) {
    sti(info, 0, 0);
    sti(info, 1, 1);
    status = DELAUNAY_DUPLICATE;
  } else if (findDuplicate(info)) {
    status = DELAUNAY_DUPLICATE;
  } else {
    status = locateAll(Q, nq, maxExtrap, simplices, weights, qstatus, rnorm, info);
    if (status == OK) {
      sti(info, 2, flips);
      sti(info, 3, steps);
    }
  }
  teardown();
  return status;
}
