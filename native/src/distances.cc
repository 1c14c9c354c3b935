#include "varmap/distances.h"

#include <cstddef>

#include "varmap/status.h"

namespace varmap {

int sqdist(const double* X, int32_t n, const double* Q, int32_t nq, int32_t d, double* out) {
  if (n < 0 || nq < 0 || d < 1) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * d) || !all_finite(Q, size_t(nq) * d)) return NONFINITE;
  for (int32_t i = 0; i < nq; ++i) {
    const double* q = Q + size_t(i) * d;
    double* row = out + size_t(i) * n;
    for (int32_t j = 0; j < n; ++j) {
      const double* x = X + size_t(j) * d;
      double s = 0.0;
      for (int32_t k = 0; k < d; ++k) {
        const double t = q[k] - x[k];
        s += t * t;
      }
      row[j] = s;
    }
  }
  return OK;
}

}  // namespace varmap
