#include "varmap/neighbors.h"

#include "registry.h"

using varmap_binding::Args;

// knn(X: f64[n*d], n, Q: f64[nq*d], nq, d, exclude: i32[nq] (or any length when hasExclude = 0), hasExclude, k,
//     idx: i32[nq*k], dist: f64[nq*k]) -> status
static Napi::Value Knn(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lq = 0, le = 0, li = 0, ld = 0;
  double* X = a.f64(0, &lx);
  int32_t n = a.int32(1);
  double* Q = a.f64(2, &lq);
  int32_t nq = a.int32(3);
  int32_t d = a.int32(4);
  int32_t* exclude = a.i32(5, &le);
  int32_t has_exclude = a.int32(6);
  int32_t k = a.int32(7);
  int32_t* idx = a.i32(8, &li);
  double* dist = a.f64(9, &ld);
  if (!a.ok() || n < 0 || nq < 0 || d < 1 || k < 0 || lx < size_t(n) * d || lq < size_t(nq) * d ||
      (has_exclude && le < size_t(nq)) || li < size_t(nq) * k || ld < size_t(nq) * k)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::knn(X, n, Q, nq, d, exclude, has_exclude, k, idx, dist); }));
}
VARMAP_EXPORT(knn, Knn);
