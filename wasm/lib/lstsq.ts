// Weighted linear least squares for one small problem, minimum-norm when rank-deficient (mirror of
// native/include/varmap/lstsq.h: same method, same operation order, so both backends agree to rounding).
// Householder QR when m >= n (fast path x = R^-1 Q^T b when comfortably full rank), else one-sided Jacobi SVD; singular values <= rcond * s_max count as zero
// (LAPACK DGELSS's rank decision); rcond < 0 means machine epsilon. Rows are multiplied by w (w = 0: no weights).
import { OK } from "./status";

export const LSTSQ_NO_CONVERGENCE: i32 = 10;
const EPS: f64 = 2.220446049250313e-16;
const SAFE_MIN: f64 = 2.2250738585072014e-308;
const MAX_SWEEPS: i32 = 60;
const NOISE: f64 = 4.0;

// Doubles of workspace one problem of m rows and n unknowns needs.
export function lstsqWorkSize(m: i32, n: i32): usize {
  return <usize>m * n + <usize>m + <usize>n * n + <usize>n;
}

@inline function at(p: usize, i: usize): f64 {
  return load<f64>(p + (i << 3));
}
@inline function put(p: usize, i: usize, v: f64): void {
  store<f64>(p + (i << 3), v);
}

// A: m x n row-major, b: m, w: m or 0. Writes x (n) and the rank at rankOut (i32). work: lstsqWorkSize doubles.
export function lstsqSolve(A: usize, b: usize, w: usize, m: i32, n: i32, rcond: f64, x: usize, rankOut: usize, work: usize): i32 {
  const M = work;
  const c = M + ((<usize>m * n) << 3);
  const V = c + (<usize>m << 3);
  const sv = V + ((<usize>n * n) << 3);
  for (let i = 0; i < m; ++i) {
    const wi = w ? at(w, i) : 1.0;
    for (let j = 0; j < n; ++j) put(M, <usize>j * m + i, wi * at(A, <usize>i * n + j));
    put(c, i, wi * at(b, i));
  }
  for (let j = 0; j < n; ++j) put(x, j, 0.0);
  store<i32>(rankOut, 0);
  if (m == 0 || n == 0) return OK;

  let p = m;
  if (m >= n) {
    for (let k = 0; k < n; ++k) {
      const col = M + ((<usize>k * m) << 3);
      let norm2 = 0.0;
      for (let i = k; i < m; ++i) norm2 += at(col, i) * at(col, i);
      if (norm2 == 0.0) continue;
      const ck = at(col, k);
      const alpha = ck >= 0.0 ? -Math.sqrt(norm2) : Math.sqrt(norm2);
      const vk = ck - alpha;
      const vtv = norm2 - ck * ck + vk * vk;
      const tau = 2.0 / vtv;
      put(col, k, vk);
      for (let j = k + 1; j < n; ++j) {
        const cj = M + ((<usize>j * m) << 3);
        let s = 0.0;
        for (let i = k; i < m; ++i) s += at(col, i) * at(cj, i);
        const f = s * tau;
        for (let i = k; i < m; ++i) put(cj, i, at(cj, i) - f * at(col, i));
      }
      {
        let s = 0.0;
        for (let i = k; i < m; ++i) s += at(col, i) * at(c, i);
        const f = s * tau;
        for (let i = k; i < m; ++i) put(c, i, at(c, i) - f * at(col, i));
      }
      put(col, k, alpha);
      for (let i = k + 1; i < m; ++i) put(col, i, 0.0);
    }
    for (let j = 1; j < n; ++j)
      for (let i = 0; i < n; ++i) put(M, <usize>j * n + i, at(M, <usize>j * m + i));
    p = n;
    // Fast path (see the native header): comfortably full rank, so x = R^-1 Q^T b.
    const rc0 = rcond < 0.0 ? EPS : rcond;
    let nonsingular = true;
    for (let j = 0; j < n; ++j) if (at(M, <usize>j * n + j) == 0.0) nonsingular = false;
    if (nonsingular) {
      const T = V;
      let normR2 = 0.0, normT2 = 0.0;
      for (let j = 0; j < n; ++j) {
        const rj = M + ((<usize>j * n) << 3);
        const tj = T + ((<usize>j * n) << 3);
        for (let i = 0; i <= j; ++i) normR2 += at(rj, i) * at(rj, i);
        for (let i = j + 1; i < n; ++i) put(tj, i, 0.0);
        put(tj, j, 1.0 / at(rj, j));
        for (let i = j - 1; i >= 0; --i) {
          let s = 0.0;
          for (let k = i + 1; k <= j; ++k) s += at(M, <usize>k * n + i) * at(tj, k);
          put(tj, i, -(s * at(T, <usize>i * n + i)));
        }
        for (let i = 0; i <= j; ++i) normT2 += at(tj, i) * at(tj, i);
      }
      if (Math.sqrt(normR2) * Math.sqrt(normT2) * rc0 < 1e-2) {
        for (let i = 0; i < n; ++i) {
          let s = 0.0;
          for (let k = i; k < n; ++k) s += at(T, <usize>k * n + i) * at(c, k);
          put(x, i, s);
        }
        store<i32>(rankOut, n);
        return OK;
      }
    }
  }

  for (let j = 0; j < n; ++j)
    for (let i = 0; i < n; ++i) put(V, <usize>j * n + i, i == j ? 1.0 : 0.0);
  const tol = EPS * <f64>p;
  // Columns below NOISE * eps * ||M||_F are rounding noise: left alone (see the native header).
  let frob2 = 0.0;
  for (let k: usize = 0; k < <usize>p * n; ++k) frob2 += at(M, k) * at(M, k);
  const negligible = NOISE * NOISE * EPS * EPS * frob2;
  let converged = false;
  for (let sweep = 0; sweep < MAX_SWEEPS && !converged; ++sweep) {
    converged = true;
    for (let i = 0; i < n - 1; ++i) {
      const ci = M + ((<usize>i * p) << 3);
      for (let j = i + 1; j < n; ++j) {
        const cj = M + ((<usize>j * p) << 3);
        let a = 0.0, bb = 0.0, g = 0.0;
        for (let r = 0; r < p; ++r) {
          const u = at(ci, r), v = at(cj, r);
          a += u * u;
          bb += v * v;
          g += u * v;
        }
        if (g == 0.0 || a <= negligible || bb <= negligible || !(Math.abs(g) > tol * Math.sqrt(a) * Math.sqrt(bb))) continue;
        converged = false;
        const zeta = (bb - a) / (2.0 * g);
        const t = (zeta >= 0.0 ? 1.0 : -1.0) / (Math.abs(zeta) + Math.sqrt(1.0 + zeta * zeta));
        const cs = 1.0 / Math.sqrt(1.0 + t * t);
        const sn = cs * t;
        for (let r = 0; r < p; ++r) {
          const u = at(ci, r), v = at(cj, r);
          put(ci, r, cs * u - sn * v);
          put(cj, r, sn * u + cs * v);
        }
        const vi = V + ((<usize>i * n) << 3);
        const vj = V + ((<usize>j * n) << 3);
        for (let r = 0; r < n; ++r) {
          const u = at(vi, r), v = at(vj, r);
          put(vi, r, cs * u - sn * v);
          put(vj, r, sn * u + cs * v);
        }
      }
    }
  }
  if (!converged) return LSTSQ_NO_CONVERGENCE;

  let smax = 0.0;
  for (let j = 0; j < n; ++j) {
    const cj = M + ((<usize>j * p) << 3);
    let s2 = 0.0;
    for (let k = 0; k < p; ++k) s2 += at(cj, k) * at(cj, k);
    const s = Math.sqrt(s2);
    put(sv, j, s);
    if (s > smax) smax = s;
  }
  const rc = rcond < 0.0 ? EPS : rcond;
  let thr = rc * smax;
  if (thr < SAFE_MIN) thr = SAFE_MIN;
  let r = 0;
  for (let j = 0; j < n; ++j) {
    const s = at(sv, j);
    if (!(s > thr)) continue;
    ++r;
    const cj = M + ((<usize>j * p) << 3);
    let ub = 0.0;
    for (let k = 0; k < p; ++k) ub += at(cj, k) * at(c, k);
    const coef = ub / s / s;
    const vj = V + ((<usize>j * n) << 3);
    for (let k = 0; k < n; ++k) put(x, k, at(x, k) + coef * at(vj, k));
  }
  store<i32>(rankOut, r);
  return OK;
}
