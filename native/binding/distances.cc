#include "varmap/distances.h"

#include "registry.h"

using varmap_binding::Args;

// sqdist(X: f64[n*d], n, Q: f64[nq*d], nq, d, out: f64[nq*n]) -> status
// Lengths: SQDIST.lengths() in ts/backend/kernels/distances.ts, checked before this runs (registry.h).
static Napi::Value Sqdist(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  int32_t n = a.int32(1);
  double* Q = a.f64(2);
  int32_t nq = a.int32(3);
  int32_t d = a.int32(4);
  double* out = a.f64(5);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::sqdist(X, n, Q, nq, d, out); }));
}
VARMAP_EXPORT(sqdist, Sqdist);
