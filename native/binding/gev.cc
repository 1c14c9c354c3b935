#include "varmap/gev.h"

#include "registry.h"

using varmap_binding::Args;

// gev(x: f64[offsets[nconf]], offsets: i32[nconf+1], nconf, maxIter, out: f64[nconf*14], info: i32[nconf*2]) -> status
// Lengths and offsets: GEV.lengths() in ts/backend/kernels/gev.ts, checked before this runs (registry.h).
static Napi::Value Gev(const Napi::CallbackInfo& info) {
  Args a(info);
  double* x = a.f64(0);
  int32_t* offsets = a.i32(1);
  int32_t nconf = a.int32(2);
  int32_t maxIter = a.int32(3);
  double* out = a.f64(4);
  int32_t* inf = a.i32(5);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::gev_batch(x, offsets, nconf, maxIter, out, inf); }));
}
VARMAP_EXPORT(gev, Gev);
