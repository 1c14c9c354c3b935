#include "varmap/delaunay.h"

#include "registry.h"

using varmap_binding::Args;

// delaunayLocate(X: f64[n*d], n, d, Q: f64[nq*d], nq, eps, maxExtrap,
//                simplices: i32[nq*(d+1)], weights: f64[nq*(d+1)], qstatus: i32[nq], rnorm: f64[nq], info: i32[4])
// Lengths: DELAUNAY_LOCATE.lengths() in ts/backend/kernels/delaunay.ts, checked before this runs (registry.h).
static Napi::Value DelaunayLocate(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  int32_t n = a.int32(1);
  int32_t d = a.int32(2);
  double* Q = a.f64(3);
  int32_t nq = a.int32(4);
  double eps = a.number(5);
  double max_extrap = a.number(6);
  int32_t* simplices = a.i32(7);
  double* weights = a.f64(8);
  int32_t* qstatus = a.i32(9);
  double* rnorm = a.f64(10);
  int32_t* out_info = a.i32(11);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    return varmap::delaunay_locate(X, n, d, Q, nq, eps, max_extrap, simplices, weights, qstatus, rnorm, out_info);
  }));
}
VARMAP_EXPORT(delaunayLocate, DelaunayLocate);
