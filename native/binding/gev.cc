#include "varmap/gev.h"

#include "registry.h"

using varmap_binding::Args;

// gev(x: f64[offsets[nconf]], offsets: i32[nconf+1], nconf, maxIter, out: f64[nconf*14], info: i32[nconf*2]) -> status
static Napi::Value Gev(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lo = 0, lout = 0, linfo = 0;
  double* x = a.f64(0, &lx);
  int32_t* offsets = a.i32(1, &lo);
  int32_t nconf = a.int32(2);
  int32_t maxIter = a.int32(3);
  double* out = a.f64(4, &lout);
  int32_t* inf = a.i32(5, &linfo);
  if (!a.ok() || nconf < 0 || maxIter < 1 || lo < size_t(nconf) + 1 || lout < size_t(nconf) * varmap::kGevOut ||
      linfo < size_t(nconf) * 2)
    return a.status(varmap::BAD_ARGUMENT);
  for (int32_t k = 0; k < nconf; ++k)
    if (offsets[k] < 0 || offsets[k + 1] < offsets[k]) return a.status(varmap::BAD_ARGUMENT);
  if (lx < size_t(offsets[nconf])) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::gev_batch(x, offsets, nconf, maxIter, out, inf); }));
}
VARMAP_EXPORT(gev, Gev);
