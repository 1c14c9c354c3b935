// Symmetric eigendecomposition (mirror of native/src/symeig.cc): Householder tridiagonalization, implicit QL.
import { OK, BAD_ARGUMENT, NONFINITE, NO_MEMORY, INTERNAL, allFinite } from "./lib/status";
export { alloc, free } from "./lib/memory";

const SYMEIG_NO_CONVERGENCE: i32 = 10;
const EPS: f64 = 2.220446049250313e-16;

// @ts-ignore: decorator
@inline function ld(p: usize, i: usize): f64 { return load<f64>(p + (i << 3)); }
// @ts-ignore: decorator
@inline function st(p: usize, i: usize, v: f64): void { store<f64>(p + (i << 3), v); }

function tred2(V: usize, n: i32, d: usize, e: usize): void {
  const N = <usize>n;
  for (let j: usize = 0; j < N; ++j) st(d, j, ld(V, (N - 1) * N + j));
  for (let ii = n - 1; ii > 0; --ii) {
    const i = <usize>ii;
    let scale = 0.0, h = 0.0;
    for (let k: usize = 0; k < i; ++k) scale += Math.abs(ld(d, k));
    if (scale == 0.0) {
      st(e, i, ld(d, i - 1));
      for (let j: usize = 0; j < i; ++j) {
        st(d, j, ld(V, (i - 1) * N + j));
        st(V, i * N + j, 0.0);
        st(V, j * N + i, 0.0);
      }
    } else {
      for (let k: usize = 0; k < i; ++k) {
        const v = ld(d, k) / scale;
        st(d, k, v);
        h += v * v;
      }
      let f = ld(d, i - 1);
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      st(e, i, scale * g);
      h -= f * g;
      st(d, i - 1, f - g);
      for (let j: usize = 0; j < i; ++j) st(e, j, 0.0);
      for (let j: usize = 0; j < i; ++j) {
        f = ld(d, j);
        st(V, j * N + i, f);
        g = ld(e, j) + ld(V, j * N + j) * f;
        for (let k = j + 1; k + 1 <= i; ++k) {
          g += ld(V, k * N + j) * ld(d, k);
          st(e, k, ld(e, k) + ld(V, k * N + j) * f);
        }
        st(e, j, g);
      }
      f = 0.0;
      for (let j: usize = 0; j < i; ++j) {
        st(e, j, ld(e, j) / h);
        f += ld(e, j) * ld(d, j);
      }
      const hh = f / (h + h);
      for (let j: usize = 0; j < i; ++j) st(e, j, ld(e, j) - hh * ld(d, j));
      for (let j: usize = 0; j < i; ++j) {
        f = ld(d, j);
        g = ld(e, j);
        for (let k = j; k + 1 <= i; ++k) st(V, k * N + j, ld(V, k * N + j) - (f * ld(e, k) + g * ld(d, k)));
        st(d, j, ld(V, (i - 1) * N + j));
        st(V, i * N + j, 0.0);
      }
    }
    st(d, i, h);
  }
  for (let i: usize = 0; i + 1 < N; ++i) {
    st(V, (N - 1) * N + i, ld(V, i * N + i));
    st(V, i * N + i, 1.0);
    const h = ld(d, i + 1);
    if (h != 0.0) {
      for (let k: usize = 0; k <= i; ++k) st(d, k, ld(V, k * N + i + 1) / h);
      for (let j: usize = 0; j <= i; ++j) {
        let g = 0.0;
        for (let k: usize = 0; k <= i; ++k) g += ld(V, k * N + i + 1) * ld(V, k * N + j);
        for (let k: usize = 0; k <= i; ++k) st(V, k * N + j, ld(V, k * N + j) - g * ld(d, k));
      }
    }
    for (let k: usize = 0; k <= i; ++k) st(V, k * N + i + 1, 0.0);
  }
  for (let j: usize = 0; j < N; ++j) {
    st(d, j, ld(V, (N - 1) * N + j));
    st(V, (N - 1) * N + j, 0.0);
  }
  st(V, (N - 1) * N + N - 1, 1.0);
  st(e, 0, 0.0);
}

function tql2(W: usize, n: i32, d: usize, e: usize): i32 {
  const N = <usize>n;
  for (let i: usize = 1; i < N; ++i) st(e, i - 1, ld(e, i));
  st(e, N - 1, 0.0);
  let f = 0.0, tst1 = 0.0;
  for (let li = 0; li < n; ++li) {
    const l = <usize>li;
    tst1 = Math.max(tst1, Math.abs(ld(d, l)) + Math.abs(ld(e, l)));
    let mi = li;
    while (mi < n - 1 && !(Math.abs(ld(e, <usize>mi)) <= EPS * tst1)) ++mi;
    if (mi > li) {
      let iter = 0;
      do {
        if (++iter > 30 * n + 30) return SYMEIG_NO_CONVERGENCE;
        let g = ld(d, l);
        let p = (ld(d, l + 1) - g) / (2.0 * ld(e, l));
        let r = hypot(p, 1.0);
        if (p < 0) r = -r;
        st(d, l, ld(e, l) / (p + r));
        st(d, l + 1, ld(e, l) * (p + r));
        const dl1 = ld(d, l + 1);
        let h = g - ld(d, l);
        for (let i = l + 2; i < N; ++i) st(d, i, ld(d, i) - h);
        f += h;
        p = ld(d, <usize>mi);
        let c = 1.0, c2 = c, c3 = c, s = 0.0, s2 = 0.0;
        const el1 = ld(e, l + 1);
        for (let ii = mi - 1; ii >= li; --ii) {
          const i = <usize>ii;
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * ld(e, i);
          h = c * p;
          r = hypot(p, ld(e, i));
          st(e, i + 1, s * r);
          s = ld(e, i) / r;
          c = p / r;
          p = c * ld(d, i) - s * g;
          st(d, i + 1, h + s * (c * g + s * ld(d, i)));
          const wi = W + ((i * N) << 3);
          const wj = W + (((i + 1) * N) << 3);
          for (let k: usize = 0; k < N; ++k) {
            const hk = ld(wj, k);
            const wik = ld(wi, k);
            st(wj, k, s * wik + c * hk);
            st(wi, k, c * wik - s * hk);
          }
        }
        p = -s * s2 * c3 * el1 * ld(e, l) / dl1;
        st(e, l, s * p);
        st(d, l, c * p);
      } while (Math.abs(ld(e, l)) > EPS * tst1);
    }
    st(d, l, ld(d, l) + f);
    st(e, l, 0.0);
  }
  return OK;
}

// std::hypot's scaling, so overflow cannot occur for large arguments.
function hypot(a: f64, b: f64): f64 {
  const x = Math.abs(a), y = Math.abs(b);
  const big = x > y ? x : y, small = x > y ? y : x;
  if (big == 0.0 || !isFinite<f64>(big)) return big;
  const q = small / big;
  return big * Math.sqrt(1.0 + q * q);
}

// A: m x m row-major symmetric (lower triangle wins); on return row i is the eigenvector of w[i].
export function symeig(A: usize, m: i32, w: usize): i32 {
  if (m < 0) return BAD_ARGUMENT;
  if (m == 0) return OK;
  const M = <usize>m;
  if (!allFinite(A, M * M)) return NONFINITE;
  for (let i: usize = 0; i < M; ++i)
    for (let j: usize = 0; j < i; ++j) st(A, j * M + i, ld(A, i * M + j));
  const e = heap.alloc((2 * M + 1) << 3);
  if (!e) return NO_MEMORY;
  tred2(A, m, w, e);
  for (let i: usize = 0; i < M; ++i)
    for (let j: usize = 0; j < i; ++j) {
      const t = ld(A, i * M + j);
      st(A, i * M + j, ld(A, j * M + i));
      st(A, j * M + i, t);
    }
  const s = tql2(A, m, w, e);
  heap.free(e);
  if (s != OK) return s;
  return allFinite(w, M) ? OK : INTERNAL;
}

// Householder tridiagonalization without forming Q (mirror of native/src/symeig.cc's symtrid; see
// native/include/varmap/symeig.h): d, e the tridiagonal, row i of A (entries 0..i-1) the unit vector v_i.

function householderLast(x: usize, r: usize, v: usize, alphaAt: usize): void {
  let sigma = 0.0;
  for (let k: usize = 0; k + 1 < r; ++k) sigma += ld(x, k) * ld(x, k);
  const last = ld(x, r - 1);
  if (sigma == 0.0) {
    for (let k: usize = 0; k < r; ++k) st(v, k, 0.0);
    store<f64>(alphaAt, last);
    return;
  }
  const norm = Math.sqrt(sigma + last * last);
  const a = last > 0 ? -norm : norm;
  const vl = last - a;
  const inv = 1.0 / Math.sqrt(sigma + vl * vl);
  for (let k: usize = 0; k + 1 < r; ++k) st(v, k, ld(x, k) * inv);
  st(v, r - 1, vl * inv);
  store<f64>(alphaAt, a);
}

// The dot products sum in 8 interleaved partial sums combined in a fixed order, as native/src/symeig.cc does.
function symvRow(a: usize, j: usize, v: usize, p: usize): void {
  const vj = ld(v, j);
  let s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0;
  const j8 = j & ~(<usize>7);
  for (let k: usize = 0; k < j8; k += 8) {
    const a0 = ld(a, k), a1 = ld(a, k + 1), a2 = ld(a, k + 2), a3 = ld(a, k + 3);
    const a4 = ld(a, k + 4), a5 = ld(a, k + 5), a6 = ld(a, k + 6), a7 = ld(a, k + 7);
    s0 += a0 * ld(v, k); s1 += a1 * ld(v, k + 1); s2 += a2 * ld(v, k + 2); s3 += a3 * ld(v, k + 3);
    s4 += a4 * ld(v, k + 4); s5 += a5 * ld(v, k + 5); s6 += a6 * ld(v, k + 6); s7 += a7 * ld(v, k + 7);
    st(p, k, ld(p, k) + a0 * vj); st(p, k + 1, ld(p, k + 1) + a1 * vj);
    st(p, k + 2, ld(p, k + 2) + a2 * vj); st(p, k + 3, ld(p, k + 3) + a3 * vj);
    st(p, k + 4, ld(p, k + 4) + a4 * vj); st(p, k + 5, ld(p, k + 5) + a5 * vj);
    st(p, k + 6, ld(p, k + 6) + a6 * vj); st(p, k + 7, ld(p, k + 7) + a7 * vj);
  }
  const acc = memory.data(64);
  store<f64>(acc, s0); store<f64>(acc, s1, 8); store<f64>(acc, s2, 16); store<f64>(acc, s3, 24);
  store<f64>(acc, s4, 32); store<f64>(acc, s5, 40); store<f64>(acc, s6, 48); store<f64>(acc, s7, 56);
  for (let k = j8; k < j; ++k) {
    const ak = ld(a, k);
    st(acc, k - j8, ld(acc, k - j8) + ak * ld(v, k));
    st(p, k, ld(p, k) + ak * vj);
  }
  st(p, j, ld(p, j) + (combine8(acc) + ld(a, j) * vj));
}

// @ts-ignore: decorator
@inline function combine8(acc: usize): f64 {
  return ((ld(acc, 0) + ld(acc, 1)) + (ld(acc, 2) + ld(acc, 3))) + ((ld(acc, 4) + ld(acc, 5)) + (ld(acc, 6) + ld(acc, 7)));
}

// @ts-ignore: decorator
@inline function rank2Row(a: usize, j: usize, v: usize, w: usize): void {
  const vj = ld(v, j), wj = ld(w, j);
  for (let k: usize = 0; k <= j; ++k) st(a, k, ld(a, k) - (vj * ld(w, k) + wj * ld(v, k)));
}

function rank2SymvRow(a: usize, j: usize, v: usize, w: usize, vn: usize, p: usize): void {
  const vj = ld(v, j), wj = ld(w, j), vnj = ld(vn, j);
  const VJ = f64x2.splat(vj), WJ = f64x2.splat(wj), VNJ = f64x2.splat(vnj);
  // Lanes (0,1), (2,3), (4,5), (6,7) of native's 8 partial sums.
  let c0 = f64x2.splat(0.0), c1 = f64x2.splat(0.0), c2 = f64x2.splat(0.0), c3 = f64x2.splat(0.0);
  const j8 = j & ~(<usize>7);
  for (let k: usize = 0; k < j8; k += 8) {
    const o = k << 3;
    let x = f64x2.sub(v128.load(a + o), f64x2.add(f64x2.mul(VJ, v128.load(w + o)), f64x2.mul(WJ, v128.load(v + o))));
    v128.store(a + o, x);
    c0 = f64x2.add(c0, f64x2.mul(x, v128.load(vn + o)));
    v128.store(p + o, f64x2.add(v128.load(p + o), f64x2.mul(x, VNJ)));
    x = f64x2.sub(v128.load(a + o + 16), f64x2.add(f64x2.mul(VJ, v128.load(w + o + 16)), f64x2.mul(WJ, v128.load(v + o + 16))));
    v128.store(a + o + 16, x);
    c1 = f64x2.add(c1, f64x2.mul(x, v128.load(vn + o + 16)));
    v128.store(p + o + 16, f64x2.add(v128.load(p + o + 16), f64x2.mul(x, VNJ)));
    x = f64x2.sub(v128.load(a + o + 32), f64x2.add(f64x2.mul(VJ, v128.load(w + o + 32)), f64x2.mul(WJ, v128.load(v + o + 32))));
    v128.store(a + o + 32, x);
    c2 = f64x2.add(c2, f64x2.mul(x, v128.load(vn + o + 32)));
    v128.store(p + o + 32, f64x2.add(v128.load(p + o + 32), f64x2.mul(x, VNJ)));
    x = f64x2.sub(v128.load(a + o + 48), f64x2.add(f64x2.mul(VJ, v128.load(w + o + 48)), f64x2.mul(WJ, v128.load(v + o + 48))));
    v128.store(a + o + 48, x);
    c3 = f64x2.add(c3, f64x2.mul(x, v128.load(vn + o + 48)));
    v128.store(p + o + 48, f64x2.add(v128.load(p + o + 48), f64x2.mul(x, VNJ)));
  }
  const acc = memory.data(64);
  v128.store(acc, c0);
  v128.store(acc, c1, 16);
  v128.store(acc, c2, 32);
  v128.store(acc, c3, 48);
  for (let k = j8; k < j; ++k) {
    const x = ld(a, k) - (vj * ld(w, k) + wj * ld(v, k));
    st(a, k, x);
    st(acc, k - j8, ld(acc, k - j8) + x * ld(vn, k));
    st(p, k, ld(p, k) + x * vnj);
  }
  const x = ld(a, j) - (vj * ld(w, j) + wj * ld(v, j));
  st(a, j, x);
  st(p, j, ld(p, j) + (combine8(acc) + x * vnj));
}

export function symtrid(A: usize, m: i32, d: usize, e: usize): i32 {
  if (m < 0) return BAD_ARGUMENT;
  if (m == 0) return OK;
  const M = <usize>m;
  if (!allFinite(A, M * M)) return NONFINITE;
  const work = heap.alloc((4 * M + 1) << 3);
  if (!work) return NO_MEMORY;
  let v = work;
  let vn = work + (M << 3);
  const p = work + ((2 * M) << 3);
  const w = work + ((3 * M) << 3);
  st(e, 0, 0.0);
  if (m >= 3) {
    const r0 = M - 1;
    householderLast(A + ((r0 * M) << 3), r0, v, e + (r0 << 3));
    for (let k: usize = 0; k < r0; ++k) st(p, k, 0.0);
    for (let j: usize = 0; j < r0; ++j) symvRow(A + ((j * M) << 3), j, v, p);
    for (let ii = m - 1; ii >= 2; --ii) {
      const r = <usize>ii;
      let vp = 0.0;
      for (let k: usize = 0; k < r; ++k) vp += ld(v, k) * ld(p, k);
      for (let k: usize = 0; k < r; ++k) st(w, k, 2.0 * ld(p, k) - 2.0 * vp * ld(v, k));
      const last = A + (((r - 1) * M) << 3);
      rank2Row(last, r - 1, v, w);
      const next = ii - 1 >= 2;
      if (next) {
        householderLast(last, r - 1, vn, e + ((r - 1) << 3));
        for (let k: usize = 0; k + 1 < r; ++k) st(p, k, 0.0);
      }
      for (let j: usize = 0; j + 1 < r; ++j) {
        const a = A + ((j * M) << 3);
        if (next) rank2SymvRow(a, j, v, w, vn, p);
        else rank2Row(a, j, v, w);
      }
      const row = A + ((r * M) << 3);
      for (let k: usize = 0; k < r; ++k) st(row, k, ld(v, k));
      if (next) {
        const t = v;
        v = vn;
        vn = t;
      }
    }
  }
  if (m >= 2) st(e, 1, ld(A, M));
  for (let k: usize = 0; k < M; ++k) st(d, k, ld(A, k * M + k));
  if (m >= 2) st(A, M, 0.0);
  heap.free(work);
  return allFinite(d, M) && allFinite(e, M) ? OK : INTERNAL;
}

// The rbf predictor's projected kernel matrix (mirror of native/src/symeig.cc's rbfgram; see
// native/include/varmap/symeig.h).
// @ts-ignore: decorator
@inline function rbfPhi(cubic: i32, s: f64): f64 {
  const r = Math.sqrt(s);
  if (cubic) return r * r * r;
  return r > 0 ? r * r * Math.log(r) : 0.0;
}

export function rbfgram(X: usize, n: i32, d: i32, cubic: i32, V: usize, q: i32, K: usize, B: usize): i32 {
  if (n < 0 || d < 0 || q < 0 || q > n) return BAD_ARGUMENT;
  const N = <usize>n, D = <usize>d, Q = <usize>q, M = N - Q;
  if (!allFinite(X, N * D) || !allFinite(V, N * Q)) return NONFINITE;
  const work = heap.alloc((2 * N * Q + 3 * Q * Q + 1) << 3);
  if (!work) return NO_MEMORY;
  const KV = work;
  const T = KV + ((N * Q) << 3);
  const A = T + ((Q * Q) << 3);
  const C = A + ((N * Q) << 3);
  const tmp = C + ((Q * Q) << 3);
  for (let k: usize = 0; k < N * Q; ++k) st(KV, k, 0.0);
  for (let i: usize = 0; i < N; ++i) {
    st(K, i * N + i, 0.0);
    for (let j: usize = 0; j < i; ++j) {
      let s = 0.0;
      for (let t: usize = 0; t < D; ++t) {
        const e = ld(X, i * D + t) - ld(X, j * D + t);
        s += e * e;
      }
      const v = rbfPhi(cubic, s);
      st(K, i * N + j, v);
      st(K, j * N + i, v);
    }
  }
  for (let i: usize = 0; i < N; ++i)
    for (let j: usize = 0; j < N; ++j) {
      const kij = ld(K, i * N + j);
      for (let t: usize = 0; t < Q; ++t) st(KV, i * Q + t, ld(KV, i * Q + t) + kij * ld(V, j * Q + t));
    }
  for (let k: usize = 0; k < Q * Q; ++k) st(T, k, 0.0);
  for (let i: usize = 0; i < Q; ++i) {
    for (let r: usize = 0; r < i; ++r) {
      let g = 0.0;
      for (let j: usize = 0; j < N; ++j) g += ld(V, j * Q + r) * ld(V, j * Q + i);
      st(tmp, r, g);
    }
    for (let r: usize = 0; r < i; ++r) {
      let s = 0.0;
      for (let c = r; c < i; ++c) s += ld(T, r * Q + c) * ld(tmp, c);
      st(T, r * Q + i, -2.0 * s);
    }
    st(T, i * Q + i, 2.0);
  }
  for (let r: usize = 0; r < Q; ++r)
    for (let c: usize = 0; c < Q; ++c) {
      let s = 0.0;
      for (let j: usize = 0; j < N; ++j) s += ld(V, j * Q + r) * ld(KV, j * Q + c);
      st(C, r * Q + c, s);
    }
  for (let r: usize = 0; r < Q; ++r)
    for (let c: usize = 0; c < Q; ++c) {
      let s = 0.0;
      for (let t: usize = 0; t < Q; ++t) s += ld(C, r * Q + t) * ld(T, t * Q + c);
      st(tmp, r * Q + c, s);
    }
  for (let r: usize = 0; r < Q; ++r)
    for (let c: usize = 0; c < Q; ++c) {
      let s = 0.0;
      for (let t: usize = 0; t < Q; ++t) s += ld(T, t * Q + r) * ld(tmp, t * Q + c);
      st(C, r * Q + c, s);
    }
  for (let i: usize = 0; i < N; ++i)
    for (let c: usize = 0; c < Q; ++c) {
      let g = 0.0, h = 0.0;
      for (let t: usize = 0; t < Q; ++t) {
        g += ld(KV, i * Q + t) * ld(T, t * Q + c);
        h += ld(V, i * Q + t) * ld(C, t * Q + c);
      }
      st(A, i * Q + c, g - 0.5 * h);
    }
  for (let i: usize = 0; i < M; ++i) {
    const I = Q + i;
    for (let j: usize = 0; j <= i; ++j) {
      const J = Q + j;
      let s = ld(K, I * N + J);
      for (let t: usize = 0; t < Q; ++t) s -= ld(A, I * Q + t) * ld(V, J * Q + t) + ld(V, I * Q + t) * ld(A, J * Q + t);
      st(B, i * M + j, s);
    }
    for (let j = i + 1; j < M; ++j) st(B, i * M + j, 0.0);
  }
  heap.free(work);
  return allFinite(B, M * M) ? OK : INTERNAL;
}
