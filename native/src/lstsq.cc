#include "varmap/lstsq.h"

#include <vector>

#include "varmap/status.h"

namespace varmap {

int lstsq_batch(const double* A, const double* b, const double* w, const int32_t* offsets, int32_t nprob, int32_t n,
                double rcond, double* x, int32_t* rank) {
  if (nprob < 0 || n < 1 || !std::isfinite(rcond)) return BAD_ARGUMENT;
  if (offsets[0] < 0) return BAD_ARGUMENT;
  int32_t maxRows = 0;
  for (int32_t k = 0; k < nprob; ++k) {
    const int32_t rows = offsets[k + 1] - offsets[k];
    if (rows < 0) return BAD_ARGUMENT;
    if (rows > maxRows) maxRows = rows;
  }
  const size_t first = size_t(offsets[0]), total = size_t(offsets[nprob]) - first;
  if (!all_finite(A + first * n, total * n) || !all_finite(b + first, total) || (w && !all_finite(w + first, total)))
    return NONFINITE;
  // One workspace for the whole batch: nothing is allocated per problem.
  std::vector<double> work(lstsq_work_size(maxRows, n));
  for (int32_t k = 0; k < nprob; ++k) {
    const int32_t o = offsets[k], rows = offsets[k + 1] - o;
    int rk = 0;
    const int st = lstsq_solve(A + size_t(o) * n, b + o, w ? w + o : nullptr, rows, n, rcond, x + size_t(k) * n, &rk,
                               work.data());
    rank[k] = rk;
    if (st != OK) return st;
  }
  return OK;
}

}  // namespace varmap
