#include "varmap/delaunay.h"

#include "registry.h"

using varmap_binding::Args;

// delaunayLocate(X: f64[n*d], n, d, Q: f64[nq*d], nq, eps, maxExtrap,
//                simplices: i32[nq*(d+1)], weights: f64[nq*(d+1)], qstatus: i32[nq], rnorm: f64[nq], info: i32[4])
static Napi::Value DelaunayLocate(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lq = 0, ls = 0, lw = 0, lst = 0, lr = 0, li = 0;
  double* X = a.f64(0, &lx);
  int32_t n = a.int32(1);
  int32_t d = a.int32(2);
  double* Q = a.f64(3, &lq);
  int32_t nq = a.int32(4);
  double eps = a.number(5);
  double max_extrap = a.number(6);
  int32_t* simplices = a.i32(7, &ls);
  double* weights = a.f64(8, &lw);
  int32_t* qstatus = a.i32(9, &lst);
  double* rnorm = a.f64(10, &lr);
  int32_t* out_info = a.i32(11, &li);
  if (!a.ok() || n < 0 || nq < 0 || d < 1 || lx < size_t(n) * d || lq < size_t(nq) * d ||
      ls < size_t(nq) * (d + 1) || lw < size_t(nq) * (d + 1) || lst < size_t(nq) || lr < size_t(nq) || li < 4)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    return varmap::delaunay_locate(X, n, d, Q, nq, eps, max_extrap, simplices, weights, qstatus, rnorm, out_info);
  }));
}
VARMAP_EXPORT(delaunayLocate, DelaunayLocate);
