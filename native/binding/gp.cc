#include "varmap/gp.h"

#include <memory>

#include "registry.h"

using varmap_binding::Args;

// Lengths of every call here: GP_NLL, GP_PREDICT and GP_LOCAL_PREDICT's lengths() in ts/backend/kernels/gp.ts,
// checked before a binding runs (registry.h); the scratch sizes below follow from the checked scalars.

// gp_nll(X: f64[n*d], y: f64[n], H: f64[n*p], n, d, p, kernel, theta: f64[d+1], want_grad,
//        L: f64[n*n], alpha: f64[n], beta: f64[p], out: f64[d+3+(nv>0)], v: f64[nv], nv: 0 or n) -> status
static Napi::Value GpNll(const Napi::CallbackInfo& info) {
  Args a(info);
  const double* X = a.f64(0);
  const double* y = a.f64(1);
  const double* H = a.f64(2);
  int32_t n = a.int32(3), d = a.int32(4), p = a.int32(5), kernel = a.int32(6);
  const double* theta = a.f64(7);
  int32_t want_grad = a.int32(8);
  double* L = a.f64(9);
  double* alpha = a.f64(10);
  double* beta = a.f64(11);
  double* out = a.f64(12);
  const double* v = a.f64(13);
  int32_t nv = a.int32(14);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  const size_t N = size_t(n), D = size_t(d), P = size_t(p);
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
  const double* X = a.f64(0);
  int32_t n = a.int32(1), d = a.int32(2), kernel = a.int32(3);
  const double* theta = a.f64(4);
  const double* L = a.f64(5);
  const double* alpha = a.f64(6);
  const double* Xq = a.f64(7);
  int32_t q = a.int32(8);
  double* mean = a.f64(9);
  double* var = a.f64(10);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  const size_t N = size_t(n), D = size_t(d);
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
  const double* X = a.f64(0);
  int32_t n = a.int32(1), d = a.int32(2), kernel = a.int32(3);
  const double* theta = a.f64(4);
  const double* v = a.f64(5);
  int32_t nv = a.int32(6);
  const double* res = a.f64(7);
  const int32_t* nbr = a.i32(8);
  int32_t m = a.int32(9);
  const double* Xq = a.f64(10);
  int32_t q = a.int32(11);
  double* mean = a.f64(12);
  double* var = a.f64(13);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  const size_t D = size_t(d), M = size_t(m);
  return a.status(varmap_binding::guarded([&] {
    // Scratch the kernel initializes itself: no zero fill.
    std::unique_ptr<double[]> work(new double[M * M + M * (5 + D) + 1]);
    return varmap::gp_local_predict(X, n, d, kernel, theta, v, nv, res, nbr, m, Xq, q, mean, var, work.get());
  }));
}
VARMAP_EXPORT(gp_local_predict, GpLocalPredict);
