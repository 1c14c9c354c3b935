#include "varmap/gp.h"

#include <memory>

#include "registry.h"

using varmap_binding::Args;

// gp_nll(X: f64[n*d], y: f64[n], H: f64[n*p], n, d, p, kernel, theta: f64[d+1], want_grad,
//        L: f64[n*n], alpha: f64[n], beta: f64[p], out: f64[d+3+(nv>0)], v: f64[nv], nv: 0 or n) -> status
static Napi::Value GpNll(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lX = 0, ly = 0, lH = 0, lt = 0, lL = 0, la = 0, lb = 0, lo = 0;
  const double* X = a.f64(0, &lX);
  const double* y = a.f64(1, &ly);
  const double* H = a.f64(2, &lH);
  int32_t n = a.int32(3), d = a.int32(4), p = a.int32(5), kernel = a.int32(6);
  const double* theta = a.f64(7, &lt);
  int32_t want_grad = a.int32(8);
  double* L = a.f64(9, &lL);
  double* alpha = a.f64(10, &la);
  double* beta = a.f64(11, &lb);
  double* out = a.f64(12, &lo);
  size_t lv = 0;
  const double* v = a.f64(13, &lv);
  int32_t nv = a.int32(14);
  if (!a.ok() || n < 1 || d < 1 || p < 0 || (nv != 0 && nv != n)) return a.status(varmap::BAD_ARGUMENT);
  const size_t N = size_t(n), D = size_t(d), P = size_t(p), E = nv ? 1 : 0;
  if (lX < N * D || ly < N || lH < N * P || lt < D + 1 + E || lL < N * N || la < N || lb < P || lo < D + 3 + E || lv < size_t(nv))
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    // Scratch the kernel initializes itself: no zero fill.
    std::unique_ptr<double[]> work(new double[N * N + N * P + N * (3 + D) + 1]);
    return varmap::gp_nll(X, y, H, n, d, p, kernel, theta, want_grad, L, alpha, beta, out, v, nv, work.get());
  }));
}
VARMAP_EXPORT(gp_nll, GpNll);

// gp_predict(X: f64[n*d], n, d, kernel, theta: f64[d+1], L: f64[n*n], alpha: f64[n], Xq: f64[q*d], q,
//            mean: f64[q], var: f64[q]) -> status
static Napi::Value GpPredict(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lX = 0, lt = 0, lL = 0, la = 0, lq = 0, lm = 0, lv = 0;
  const double* X = a.f64(0, &lX);
  int32_t n = a.int32(1), d = a.int32(2), kernel = a.int32(3);
  const double* theta = a.f64(4, &lt);
  const double* L = a.f64(5, &lL);
  const double* alpha = a.f64(6, &la);
  const double* Xq = a.f64(7, &lq);
  int32_t q = a.int32(8);
  double* mean = a.f64(9, &lm);
  double* var = a.f64(10, &lv);
  if (!a.ok() || n < 1 || d < 1 || q < 0) return a.status(varmap::BAD_ARGUMENT);
  const size_t N = size_t(n), D = size_t(d), Q = size_t(q);
  if (lX < N * D || lt < D + 1 || lL < N * N || la < N || lq < Q * D || lm < Q || lv < Q) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    // Scratch the kernel initializes itself: no zero fill.
    std::unique_ptr<double[]> work(new double[N * (2 + D + 32) + 1]);  // 32: GP_PREDICT_BLOCK
    return varmap::gp_predict(X, n, d, kernel, theta, L, alpha, Xq, q, mean, var, work.get());
  }));
}
VARMAP_EXPORT(gp_predict, GpPredict);

// gp_local_predict(X: f64[n*d], n, d, kernel, theta: f64[d+1+(nv>0)], v: f64[nv], nv: 0 or n, res: f64[n],
//                  nbr: i32[q*m], m, Xq: f64[q*d], q, mean: f64[q], var: f64[q]) -> status
static Napi::Value GpLocalPredict(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lX = 0, lt = 0, lv = 0, lr = 0, lnb = 0, lq = 0, lm = 0, lvar = 0;
  const double* X = a.f64(0, &lX);
  int32_t n = a.int32(1), d = a.int32(2), kernel = a.int32(3);
  const double* theta = a.f64(4, &lt);
  const double* v = a.f64(5, &lv);
  int32_t nv = a.int32(6);
  const double* res = a.f64(7, &lr);
  const int32_t* nbr = a.i32(8, &lnb);
  int32_t m = a.int32(9);
  const double* Xq = a.f64(10, &lq);
  int32_t q = a.int32(11);
  double* mean = a.f64(12, &lm);
  double* var = a.f64(13, &lvar);
  if (!a.ok() || n < 1 || d < 1 || m < 1 || m > n || q < 0 || (nv != 0 && nv != n)) return a.status(varmap::BAD_ARGUMENT);
  const size_t N = size_t(n), D = size_t(d), M = size_t(m), Q = size_t(q), E = nv ? 1 : 0;
  if (lX < N * D || lt < D + 1 + E || lv < size_t(nv) || lr < N || lnb < Q * M || lq < Q * D || lm < Q || lvar < Q)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    // Scratch the kernel initializes itself: no zero fill.
    std::unique_ptr<double[]> work(new double[M * M + M * (5 + D) + 1]);
    return varmap::gp_local_predict(X, n, d, kernel, theta, v, nv, res, nbr, m, Xq, q, mean, var, work.get());
  }));
}
VARMAP_EXPORT(gp_local_predict, GpLocalPredict);
