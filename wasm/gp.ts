// Gaussian-process likelihood and prediction (mirror of native/src/gp.cc; see native/include/varmap/gp.h).
import { OK, BAD_ARGUMENT, NONFINITE, NO_MEMORY, INTERNAL, allFinite } from "./lib/status";
import { vexp, vexp2, vlog } from "./lib/fastmath";
export { alloc, free } from "./lib/memory";

const GP_NOT_POSITIVE_DEFINITE: i32 = 10;
const GP_SINGULAR_MEAN: i32 = 11;
const GP_SQEXP: i32 = 0;
const GP_MATERN52: i32 = 1;
const GP_MATERN32: i32 = 2;
const GP_SQRT5: f64 = 2.23606797749979;
const GP_SQRT3: f64 = 1.7320508075688772;
const GP_LOG_2PI: f64 = 1.8378770664093453;

// @ts-ignore: decorator
@inline function ld(p: usize, i: usize): f64 { return load<f64>(p + (i << 3)); }
// @ts-ignore: decorator
@inline function st(p: usize, i: usize, v: f64): void { store<f64>(p + (i << 3), v); }

// exp and log as the same polynomials as native/src/gp.cc (wasm/lib/fastmath.ts, shared with the mixture kernel;
// native: varmap/fastmath.h): the same operations in the same order, the same bits.
// @ts-ignore: decorator
@inline function gexp(x: f64): f64 { return vexp(x); }
// @ts-ignore: decorator
@inline function glog(x: f64): f64 { return vlog(x); }

let lastDeriv: f64 = 0.0;

// Correlation at scaled distance r²; D(r) (∂ρ/∂log ℓ_k = D u_k²) is left in lastDeriv.
function corr(kernel: i32, r2: f64): f64 {
  if (kernel == GP_SQEXP) {
    const v = gexp(-0.5 * r2);
    lastDeriv = v;
    return v;
  }
  const r = Math.sqrt(r2);
  if (kernel == GP_MATERN32) {
    const e3 = gexp(-GP_SQRT3 * r);
    lastDeriv = 3.0 * e3;
    return (1.0 + GP_SQRT3 * r) * e3;
  }
  const e = gexp(-GP_SQRT5 * r);
  lastDeriv = (5.0 / 3.0) * (1.0 + GP_SQRT5 * r) * e;
  return (1.0 + GP_SQRT5 * r + (5.0 / 3.0) * r2) * e;
}

// Correlations of point x with the points whose inputs are the columns of XT (XT[k * stride + j]), j < len: out[j]
// and, when deriv != 0, deriv[j] (D(r_j)); r2 (len doubles) is scratch. Two points per f64x2, each lane the
// operations of corr(kernel, r_j²) with r_j² summed over the inputs as native/src/gp.cc's corr_row: the same bits.
function corrRow(kernel: i32, x: usize, XT: usize, stride: usize, len: usize, d: usize, invL: usize, r2: usize, out: usize, deriv: usize): void {
  for (let j: usize = 0; j < len; ++j) st(r2, j, 0.0);
  for (let k: usize = 0; k < d; ++k) {
    const xk = ld(x, k), ik = ld(invL, k);
    const xkv = f64x2.splat(xk), ikv = f64x2.splat(ik);
    const col = XT + ((k * stride) << 3);
    let j: usize = 0;
    for (; j + 2 <= len; j += 2) {
      const o = j << 3;
      const u = f64x2.mul(f64x2.sub(xkv, v128.load(col + o)), ikv);
      v128.store(r2 + o, f64x2.add(v128.load(r2 + o), f64x2.mul(u, u)));
    }
    for (; j < len; ++j) {
      const u = (xk - ld(col, j)) * ik;
      st(r2, j, ld(r2, j) + u * u);
    }
  }
  let j: usize = 0;
  for (; j + 2 <= len; j += 2) {
    const o = j << 3;
    const q = v128.load(r2 + o);
    let c: v128, dv: v128;
    if (kernel == GP_SQEXP) {
      c = vexp2(f64x2.mul(f64x2.splat(-0.5), q));
      dv = c;
    } else if (kernel == GP_MATERN32) {
      const r = f64x2.sqrt(q);
      const e3 = vexp2(f64x2.mul(f64x2.splat(-GP_SQRT3), r));
      dv = f64x2.mul(f64x2.splat(3.0), e3);
      c = f64x2.mul(f64x2.add(f64x2.splat(1.0), f64x2.mul(f64x2.splat(GP_SQRT3), r)), e3);
    } else {
      const r = f64x2.sqrt(q);
      const e = vexp2(f64x2.mul(f64x2.splat(-GP_SQRT5), r));
      const lin = f64x2.add(f64x2.splat(1.0), f64x2.mul(f64x2.splat(GP_SQRT5), r));
      dv = f64x2.mul(f64x2.mul(f64x2.splat(5.0 / 3.0), lin), e);
      c = f64x2.mul(f64x2.add(lin, f64x2.mul(f64x2.splat(5.0 / 3.0), q)), e);
    }
    v128.store(out + o, c);
    if (deriv) v128.store(deriv + o, dv);
  }
  for (; j < len; ++j) {
    st(out, j, corr(kernel, ld(r2, j)));
    if (deriv) st(deriv, j, lastDeriv);
  }
}

// Queries whitened per block in gp_predict (as native/src/gp.cc).
const GP_PREDICT_BLOCK: usize = 32;

// Forward substitution for b right-hand sides at once (Z: n × b), then ss[c] = Σ_i Z_ic² (native/src/gp.cc's
// forward_block): each column forward()'s operations in its order, two queries per f64x2: the same bits.
function forwardBlock(L: usize, n: usize, Z: usize, b: usize, ss: usize): void {
  for (let i: usize = 0; i < n; ++i) {
    const li = L + ((i * n) << 3);
    const zi = Z + ((i * b) << 3);
    let k: usize = 0;
    for (; k + 1 < i; k += 2) addScaled2(zi, -ld(li, k), Z + ((k * b) << 3), -ld(li, k + 1), Z + (((k + 1) * b) << 3), b);
    for (; k < i; ++k) addScaled(zi, -ld(li, k), Z + ((k * b) << 3), b);
    const lii = ld(li, i);
    for (let c: usize = 0; c < b; ++c) st(zi, c, ld(zi, c) / lii);
  }
  for (let c: usize = 0; c < b; ++c) st(ss, c, 0.0);
  for (let i: usize = 0; i < n; ++i) {
    const zi = Z + ((i * b) << 3);
    for (let c: usize = 0; c < b; ++c) st(ss, c, ld(ss, c) + ld(zi, c) * ld(zi, c));
  }
}

// XT = the column-major copy of the n × d row-major X.
function transpose(X: usize, n: usize, d: usize, XT: usize): void {
  for (let i: usize = 0; i < n; ++i)
    for (let k: usize = 0; k < d; ++k) st(XT, k * n + i, ld(X, i * d + k));
}

// acc[j] += a * x[j] for j < len, two lanes at a time: each lane the scalar operation (native/src/gp.cc's row
// updates, whatever their vector width), so the same bits. With -a it subtracts (the same IEEE operation).
// @ts-ignore: decorator
@inline function addScaled(acc: usize, a: f64, x: usize, len: usize): void {
  const av = f64x2.splat(a);
  let j: usize = 0;
  for (; j + 4 <= len; j += 4) {  // two vectors per step: independent work for the CPU to overlap
    const o = j << 3;
    const s0 = f64x2.add(v128.load(acc + o), f64x2.mul(av, v128.load(x + o)));
    const s1 = f64x2.add(v128.load(acc + o + 16), f64x2.mul(av, v128.load(x + o + 16)));
    v128.store(acc + o, s0);
    v128.store(acc + o + 16, s1);
  }
  for (; j + 2 <= len; j += 2) {
    const o = j << 3;
    v128.store(acc + o, f64x2.add(v128.load(acc + o), f64x2.mul(av, v128.load(x + o))));
  }
  for (; j < len; ++j) st(acc, j, ld(acc, j) + a * ld(x, j));
}

// acc[j] = (acc[j] + a x[j]) + b y[j] for j < len: two addScaled in one pass (native/src/gp.cc's paired loops), the
// same two roundings per element in the same order, so the same bits.
// @ts-ignore: decorator
@inline function addScaled2(acc: usize, a: f64, x: usize, b: f64, y: usize, len: usize): void {
  const av = f64x2.splat(a), bv = f64x2.splat(b);
  let j: usize = 0;
  for (; j + 4 <= len; j += 4) {  // two vectors per step, as addScaled
    const o = j << 3;
    const s0 = f64x2.add(v128.load(acc + o), f64x2.mul(av, v128.load(x + o)));
    const s1 = f64x2.add(v128.load(acc + o + 16), f64x2.mul(av, v128.load(x + o + 16)));
    v128.store(acc + o, f64x2.add(s0, f64x2.mul(bv, v128.load(y + o))));
    v128.store(acc + o + 16, f64x2.add(s1, f64x2.mul(bv, v128.load(y + o + 16))));
  }
  for (; j + 2 <= len; j += 2) {
    const o = j << 3;
    const s = f64x2.add(v128.load(acc + o), f64x2.mul(av, v128.load(x + o)));
    v128.store(acc + o, f64x2.add(s, f64x2.mul(bv, v128.load(y + o))));
  }
  for (; j < len; ++j) st(acc, j, (ld(acc, j) + a * ld(x, j)) + b * ld(y, j));
}

// Column j of the Cholesky factor once its updates are in: L_jj = √A_jj (false when not positive), L_ij = A_ij / L_jj
// for i > j, copied to col[i].
function finalColumn(A: usize, n: usize, j: usize, col: usize): bool {
  const rj = A + ((j * n) << 3);
  const s = ld(rj, j);
  if (!(s > 0.0) || !isFinite<f64>(s)) return false;
  const ljj = Math.sqrt(s);
  st(rj, j, ljj);
  for (let i = j + 1; i < n; ++i) {
    const ri = A + ((i * n) << 3);
    const lij = ld(ri, j) / ljj;
    st(ri, j, lij);
    st(col, i, lij);
  }
  return true;
}

// Right-looking Cholesky, two columns per pass over the trailing rows (native/src/gp.cc's cholesky: element (i, c)
// subtracts L_ik L_ck for k ascending, the textbook order). col: 2n doubles of scratch (columns j and j + 1).
function cholesky(A: usize, n: usize, col: usize): bool {
  const col2 = col + (n << 3);
  let j: usize = 0;
  for (; j + 1 < n; j += 2) {
    if (!finalColumn(A, n, j, col)) return false;
    const l = ld(col, j + 1);
    for (let i = j + 1; i < n; ++i) {
      const p = A + ((i * n + j + 1) << 3);
      store<f64>(p, load<f64>(p) + -ld(col, i) * l);
    }
    if (!finalColumn(A, n, j + 1, col2)) return false;
    for (let i = j + 2; i < n; ++i)
      addScaled2(A + ((i * n + j + 2) << 3), -ld(col, i), col + ((j + 2) << 3), -ld(col2, i), col2 + ((j + 2) << 3), i - j - 1);
  }
  if (j < n && !finalColumn(A, n, j, col)) return false;
  return true;
}

function forward(L: usize, n: usize, x: usize): void {
  for (let i: usize = 0; i < n; ++i) {
    const ri = L + ((i * n) << 3);
    let s = ld(x, i);
    for (let k: usize = 0; k < i; ++k) s -= ld(ri, k) * ld(x, k);
    st(x, i, s / ld(ri, i));
  }
}

function backward(L: usize, n: usize, x: usize): void {
  for (let ii = <isize>n - 1; ii >= 0; --ii) {
    const i = <usize>ii;
    let s = ld(x, i);
    for (let k = i + 1; k < n; ++k) s -= ld(L, k * n + i) * ld(x, k);
    st(x, i, s / ld(L, i * n + i));
  }
}

export function gp_nll(
  X: usize, y: usize, H: usize, n: i32, d: i32, p: i32, kernel: i32, theta: usize, wantGrad: i32,
  L: usize, alpha: usize, beta: usize, out: usize, v: usize, nv: i32,
): i32 {
  if (n < 1 || d < 1 || p < 0 || p > n || (kernel != GP_SQEXP && kernel != GP_MATERN52 && kernel != GP_MATERN32)) return BAD_ARGUMENT;
  if (d > 64 || p > 64) return BAD_ARGUMENT;
  if (nv != 0 && nv != n) return BAD_ARGUMENT;
  const N = <usize>n, D = <usize>d, P = <usize>p, NV = <usize>nv;
  const NT = D + 1 + (NV ? 1 : 0);
  if (!allFinite(X, N * D) || !allFinite(y, N) || !allFinite(H, N * P) || !allFinite(theta, NT) || !allFinite(v, NV)) return NONFINITE;
  for (let i: usize = 0; i < NV; ++i) if (ld(v, i) < 0.0) return BAD_ARGUMENT;
  const work = heap.alloc((N * N + N * P + D + P * P + P + N * (3 + D) + 1) << 3);
  if (!work) return NO_MEMORY;
  const s = nll(X, y, H, N, D, P, kernel, theta, wantGrad, L, alpha, beta, out, v, NV, work);
  heap.free(work);
  return s;
}

function nll(
  X: usize, y: usize, H: usize, N: usize, D: usize, P: usize, kernel: i32, theta: usize, wantGrad: i32,
  L: usize, alpha: usize, beta: usize, out: usize, v: usize, NV: usize, work: usize,
): i32 {
  const NT = D + 1 + (NV ? 1 : 0);
  const Ht = work + ((N * N) << 3);
  const invL = Ht + ((N * P) << 3);
  const A = invL + (D << 3);
  const b = A + ((P * P) << 3);
  const acc = b + (P << 3);  // n doubles of scratch for the gradient
  const XT = acc + (N << 3);  // the column-major inputs, then r2 and D (n each)
  const r2 = XT + ((N * D) << 3);
  const Dv = r2 + (N << 3);
  for (let k: usize = 0; k < D; ++k) st(invL, k, gexp(-ld(theta, k)));
  const g = gexp(ld(theta, D));
  const tau = NV ? gexp(ld(theta, D + 1)) : 0.0;
  transpose(X, N, D, XT);

  for (let i: usize = 0; i < N; ++i) {
    const ri = L + ((i * N) << 3);
    corrRow(kernel, X + ((i * D) << 3), XT, N, i, D, invL, r2, ri, 0);
    st(ri, i, NV ? 1.0 + g + tau * ld(v, i) : 1.0 + g);
    for (let j = i + 1; j < N; ++j) st(ri, j, 0.0);
  }
  if (!cholesky(L, N, work)) return GP_NOT_POSITIVE_DEFINITE;

  for (let i: usize = 0; i < N; ++i) st(alpha, i, ld(y, i));
  forward(L, N, alpha);
  for (let c: usize = 0; c < P; ++c) {
    const col = work;
    for (let i: usize = 0; i < N; ++i) st(col, i, ld(H, i * P + c));
    forward(L, N, col);
    for (let i: usize = 0; i < N; ++i) st(Ht, i * P + c, ld(col, i));
  }
  if (P > 0) {
    for (let a: usize = 0; a < P; ++a) {
      let s = 0.0;
      for (let i: usize = 0; i < N; ++i) s += ld(Ht, i * P + a) * ld(alpha, i);
      st(b, a, s);
      for (let c: usize = 0; c <= a; ++c) {
        let t = 0.0;
        for (let i: usize = 0; i < N; ++i) t += ld(Ht, i * P + a) * ld(Ht, i * P + c);
        st(A, a * P + c, t);
      }
    }
    let diagMax = 0.0;
    for (let a: usize = 0; a < P; ++a) diagMax = Math.max(diagMax, ld(A, a * P + a));
    for (let j: usize = 0; j < P; ++j) {
      let s = ld(A, j * P + j);
      for (let k: usize = 0; k < j; ++k) s -= ld(A, j * P + k) * ld(A, j * P + k);
      if (!(s > 1e-13 * diagMax)) return GP_SINGULAR_MEAN;
      const ljj = Math.sqrt(s);
      st(A, j * P + j, ljj);
      for (let i = j + 1; i < P; ++i) {
        let t = ld(A, i * P + j);
        for (let k: usize = 0; k < j; ++k) t -= ld(A, i * P + k) * ld(A, j * P + k);
        st(A, i * P + j, t / ljj);
      }
    }
    for (let i: usize = 0; i < P; ++i) {
      let s = ld(b, i);
      for (let k: usize = 0; k < i; ++k) s -= ld(A, i * P + k) * ld(beta, k);
      st(beta, i, s / ld(A, i * P + i));
    }
    for (let ii = <isize>P - 1; ii >= 0; --ii) {
      const i = <usize>ii;
      let s = ld(beta, i);
      for (let k = i + 1; k < P; ++k) s -= ld(A, k * P + i) * ld(beta, k);
      st(beta, i, s / ld(A, i * P + i));
    }
    for (let i: usize = 0; i < N; ++i) {
      let s = 0.0;
      for (let c: usize = 0; c < P; ++c) s += ld(Ht, i * P + c) * ld(beta, c);
      st(alpha, i, ld(alpha, i) - s);
    }
  }
  let Q = 0.0;
  for (let i: usize = 0; i < N; ++i) Q += ld(alpha, i) * ld(alpha, i);
  backward(L, N, alpha);
  let logdet = 0.0;
  for (let i: usize = 0; i < N; ++i) logdet += glog(ld(L, i * N + i));
  const sigma2 = Math.max(Q / <f64>N, 1e-300);
  const nf = <f64>N;
  st(out, 0, 0.5 * nf * glog(sigma2) + logdet + 0.5 * nf * (1.0 + GP_LOG_2PI));
  st(out, 1, sigma2);
  for (let t: usize = 0; t < NT; ++t) st(out, 2 + t, 0.0);
  if (wantGrad == 0) return isFinite<f64>(ld(out, 0)) ? OK : INTERNAL;

  // W = L⁻¹ and Rinv = Wᵀ W a row at a time from row updates, each element in the textbook order (native/src/gp.cc).
  const W = work;
  for (let i: usize = 0; i < N; ++i) {
    const wi = W + ((i * N) << 3);
    const ri = L + ((i * N) << 3);
    for (let j: usize = 0; j < i; ++j) st(wi, j, 0.0);  // the rest of the row is set below
    let k: usize = 0;
    for (; k + 1 < i; k += 2) {  // two rows of W per pass (native's inverse_row): W_k,k+1 = 0, so row k stops at k
      addScaled2(wi, -ld(ri, k), W + ((k * N) << 3), -ld(ri, k + 1), W + (((k + 1) * N) << 3), k + 1);
      st(wi, k + 1, ld(wi, k + 1) + -ld(ri, k + 1) * ld(W, (k + 1) * N + k + 1));
    }
    for (; k < i; ++k) addScaled(wi, -ld(ri, k), W + ((k * N) << 3), k + 1);
    const lii = ld(ri, i);
    for (let j: usize = 0; j < i; ++j) st(wi, j, ld(wi, j) / lii);
    st(wi, i, 1.0 / lii);
  }
  let diagSum = 0.0, diagV = 0.0;
  for (let i: usize = 0; i < N; ++i) {
    for (let j: usize = 0; j <= i; ++j) st(acc, j, 0.0);
    let k = i;
    for (; k + 1 < N; k += 2)  // two rows per pass (native's gram_row)
      addScaled2(acc, ld(W, k * N + i), W + ((k * N) << 3), ld(W, (k + 1) * N + i), W + (((k + 1) * N) << 3), i + 1);
    for (; k < N; ++k) addScaled(acc, ld(W, k * N + i), W + ((k * N) << 3), i + 1);
    for (let j: usize = 0; j < i; ++j) st(W, j * N + i, ld(acc, j));
    const G = ld(acc, i) - (ld(alpha, i) * ld(alpha, i)) / sigma2;
    diagSum += G;
    if (NV) diagV += G * ld(v, i);
  }
  const grad = out + 16;
  for (let i: usize = 1; i < N; ++i) {
    const xi = X + ((i * D) << 3);
    corrRow(kernel, xi, XT, N, i, D, invL, r2, acc, Dv);  // D(r_ij) for j < i (the correlations in acc unused)
    for (let j: usize = 0; j < i; ++j) {
      const G = ld(W, j * N + i) - (ld(alpha, i) * ld(alpha, j)) / sigma2;
      const xj = X + ((j * D) << 3);
      const w = G * ld(Dv, j);
      for (let k: usize = 0; k < D; ++k) {
        const u = (ld(xi, k) - ld(xj, k)) * ld(invL, k);
        st(grad, k, ld(grad, k) + w * u * u);
      }
    }
  }
  st(grad, D, 0.5 * g * diagSum);
  if (NV) st(grad, D + 1, 0.5 * tau * diagV);
  for (let t: usize = 0; t < NT; ++t) if (!isFinite<f64>(ld(grad, t))) return INTERNAL;
  return isFinite<f64>(ld(out, 0)) ? OK : INTERNAL;
}

export function gp_predict(
  X: usize, n: i32, d: i32, kernel: i32, theta: usize, L: usize, alpha: usize, Xq: usize, q: i32, mean: usize, variance: usize,
): i32 {
  if (n < 1 || d < 1 || d > 64 || q < 0 || (kernel != GP_SQEXP && kernel != GP_MATERN52 && kernel != GP_MATERN32)) return BAD_ARGUMENT;
  const N = <usize>n, D = <usize>d, Q = <usize>q;
  if (!allFinite(Xq, Q * D) || !allFinite(theta, D + 1)) return NONFINITE;
  const B: usize = GP_PREDICT_BLOCK;
  const work = heap.alloc((N * (2 + D + B) + D + 1) << 3);
  if (!work) return NO_MEMORY;
  const invL = work + (N << 3);
  const XT = invL + (D << 3);  // the column-major inputs, then r2 (n), then Z (n × B: a block of queries)
  const r2 = XT + ((N * D) << 3);
  const Z = r2 + (N << 3);
  for (let k: usize = 0; k < D; ++k) st(invL, k, gexp(-ld(theta, k)));
  transpose(X, N, D, XT);
  for (let r0: usize = 0; r0 < Q; r0 += B) {
    const b = Q - r0 < B ? Q - r0 : B;
    for (let c: usize = 0; c < b; ++c) {
      corrRow(kernel, Xq + (((r0 + c) * D) << 3), XT, N, N, D, invL, r2, work, 0);
      let m = 0.0;
      for (let i: usize = 0; i < N; ++i) m += ld(work, i) * ld(alpha, i);
      st(mean, r0 + c, m);
      for (let i: usize = 0; i < N; ++i) st(Z, i * b + c, ld(work, i));
    }
    forwardBlock(L, N, Z, b, variance + (r0 << 3));
    for (let c: usize = 0; c < b; ++c) st(variance, r0 + c, Math.max(1.0 - ld(variance, r0 + c), 0.0));
  }
  heap.free(work);
  return OK;
}

// Local (nearest-neighbour) prediction: the exact GP equations on each query's m neighbours (native/include/varmap/gp.h).
export function gp_local_predict(
  X: usize, n: i32, d: i32, kernel: i32, theta: usize, v: usize, nv: i32, res: usize, nbr: usize, m: i32, Xq: usize, q: i32,
  mean: usize, variance: usize,
): i32 {
  if (n < 1 || d < 1 || d > 64 || m < 1 || m > n || q < 0 || (nv != 0 && nv != n) ||
      (kernel != GP_SQEXP && kernel != GP_MATERN52 && kernel != GP_MATERN32))
    return BAD_ARGUMENT;
  const N = <usize>n, D = <usize>d, M = <usize>m, Q = <usize>q;
  const nt = D + 1 + (nv ? 1 : 0);
  if (!allFinite(Xq, Q * D) || !allFinite(theta, nt) || !allFinite(res, N) || !allFinite(v, <usize>nv)) return NONFINITE;
  for (let k: usize = 0; k < Q * M; ++k) {
    const j = load<i32>(nbr + (k << 2));
    if (j < 0 || j >= n) return BAD_ARGUMENT;
  }
  const work = heap.alloc((M * M + M * (5 + D) + D + 1) << 3);
  if (!work) return NO_MEMORY;
  const C = work;
  const kq = C + ((M * M) << 3);
  const z = kq + (M << 3);
  const invL = z + (M << 3);
  const col = invL + (D << 3);  // 2m doubles of scratch for the Cholesky
  const XN = col + (M << 4);  // the neighbours' inputs column-major (d × m), then r2 (m)
  const r2 = XN + ((M * D) << 3);
  for (let k: usize = 0; k < D; ++k) st(invL, k, gexp(-ld(theta, k)));
  const g = gexp(ld(theta, D));
  const tau = nv ? gexp(ld(theta, D + 1)) : 0.0;
  for (let r: usize = 0; r < Q; ++r) {
    const idx = nbr + ((r * M) << 2);
    const xq = Xq + ((r * D) << 3);
    for (let a: usize = 0; a < M; ++a) {
      const ia = <usize>load<i32>(idx + (a << 2));
      for (let k: usize = 0; k < D; ++k) st(XN, k * M + a, ld(X, ia * D + k));
    }
    for (let a: usize = 0; a < M; ++a) {
      const ca = C + ((a * M) << 3);
      const ia = <usize>load<i32>(idx + (a << 2));
      corrRow(kernel, X + ((ia * D) << 3), XN, M, a, D, invL, r2, ca, 0);
      st(ca, a, nv ? 1.0 + g + tau * ld(v, ia) : 1.0 + g);
      for (let b = a + 1; b < M; ++b) st(ca, b, 0.0);
      st(z, a, ld(res, ia));
    }
    corrRow(kernel, xq, XN, M, M, D, invL, r2, kq, 0);
    if (!cholesky(C, M, col)) {
      heap.free(work);
      return GP_NOT_POSITIVE_DEFINITE;
    }
    forward(C, M, kq);
    forward(C, M, z);
    let mu = 0.0, s = 0.0;
    for (let a: usize = 0; a < M; ++a) {
      mu += ld(kq, a) * ld(z, a);
      s += ld(kq, a) * ld(kq, a);
    }
    st(mean, r, mu);
    st(variance, r, Math.max(1.0 - s, 0.0));
  }
  heap.free(work);
  return OK;
}
