#include "varmap/lstsq.h"

#include "registry.h"

using varmap_binding::Args;

// lstsq(A: f64[rows*n], b: f64[rows], w: f64[rows] (ignored unless weighted), weighted: 0|1,
//       offsets: i32[nprob+1], nprob, n, rcond, x: f64[nprob*n], rank: i32[nprob]) -> status
// Lengths and offsets: LSTSQ.lengths() in ts/backend/kernels/lstsq.ts, checked before this runs (registry.h).
static Napi::Value Lstsq(const Napi::CallbackInfo& info) {
  Args a(info);
  double* A = a.f64(0);
  double* b = a.f64(1);
  double* w = a.f64(2);
  int32_t weighted = a.int32(3);
  int32_t* offsets = a.i32(4);
  int32_t nprob = a.int32(5);
  int32_t n = a.int32(6);
  double rcond = a.number(7);
  double* x = a.f64(8);
  int32_t* rank = a.i32(9);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded(
      [&] { return varmap::lstsq_batch(A, b, weighted ? w : nullptr, offsets, nprob, n, rcond, x, rank); }));
}
VARMAP_EXPORT(lstsq, Lstsq);
