#include "varmap/lstsq.h"

#include "registry.h"

using varmap_binding::Args;

// lstsq(A: f64[rows*n], b: f64[rows], w: f64[rows] (ignored unless weighted), weighted: 0|1,
//       offsets: i32[nprob+1], nprob, n, rcond, x: f64[nprob*n], rank: i32[nprob]) -> status
static Napi::Value Lstsq(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lA = 0, lb = 0, lw = 0, lo = 0, lx = 0, lr = 0;
  double* A = a.f64(0, &lA);
  double* b = a.f64(1, &lb);
  double* w = a.f64(2, &lw);
  int32_t weighted = a.int32(3);
  int32_t* offsets = a.i32(4, &lo);
  int32_t nprob = a.int32(5);
  int32_t n = a.int32(6);
  double rcond = a.number(7);
  double* x = a.f64(8, &lx);
  int32_t* rank = a.i32(9, &lr);
  if (!a.ok() || nprob < 0 || n < 1 || lo < size_t(nprob) + 1 || lx < size_t(nprob) * n || lr < size_t(nprob))
    return a.status(varmap::BAD_ARGUMENT);
  // Offsets must be non-decreasing and inside the buffers.
  for (int32_t k = 0; k < nprob; ++k)
    if (offsets[k] < 0 || offsets[k + 1] < offsets[k]) return a.status(varmap::BAD_ARGUMENT);
  const size_t rows = size_t(offsets[nprob]);
  if (lA < rows * n || lb < rows || (weighted && lw < rows)) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded(
      [&] { return varmap::lstsq_batch(A, b, weighted ? w : nullptr, offsets, nprob, n, rcond, x, rank); }));
}
VARMAP_EXPORT(lstsq, Lstsq);
