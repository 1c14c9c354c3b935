#include "varmap/distances.h"

#include "registry.h"

using varmap_binding::Args;

// sqdist(X: f64[n*d], n, Q: f64[nq*d], nq, d, out: f64[nq*n]) -> status
static Napi::Value Sqdist(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lq = 0, lo = 0;
  double* X = a.f64(0, &lx);
  int32_t n = a.int32(1);
  double* Q = a.f64(2, &lq);
  int32_t nq = a.int32(3);
  int32_t d = a.int32(4);
  double* out = a.f64(5, &lo);
  if (!a.ok() || n < 0 || nq < 0 || d < 1 || lx < size_t(n) * d || lq < size_t(nq) * d || lo < size_t(nq) * n)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::sqdist(X, n, Q, nq, d, out); }));
}
VARMAP_EXPORT(sqdist, Sqdist);
