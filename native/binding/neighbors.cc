#include "varmap/neighbors.h"

#include "registry.h"

using varmap_binding::Args;

// knn(X: f64[n*d], n, Q: f64[nq*d], nq, d, exclude: i32[nq] (or any length when hasExclude = 0), hasExclude, k,
//     idx: i32[nq*k], dist: f64[nq*k]) -> status
// Lengths: KNN.lengths() in ts/backend/kernels/neighbors.ts, checked before this runs (registry.h).
static Napi::Value Knn(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  int32_t n = a.int32(1);
  double* Q = a.f64(2);
  int32_t nq = a.int32(3);
  int32_t d = a.int32(4);
  int32_t* exclude = a.i32(5);
  int32_t has_exclude = a.int32(6);
  int32_t k = a.int32(7);
  int32_t* idx = a.i32(8);
  double* dist = a.f64(9);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::knn(X, n, Q, nq, d, exclude, has_exclude, k, idx, dist); }));
}
VARMAP_EXPORT(knn, Knn);
