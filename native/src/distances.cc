#include "varmap/distances.h"

#include <cstddef>
#include <cstring>
#include <vector>

#include "varmap/panel.h"
#include "varmap/status.h"

namespace varmap {

// Blocked over data rows: each block is packed once into an L1-sized panel and reused by every query.
int sqdist(const double* X, int32_t n, const double* Q, int32_t nq, int32_t d, double* out) {
  if (n < 0 || nq < 0 || d < 1) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * d) || !all_finite(Q, size_t(nq) * d)) return NONFINITE;
  const int32_t width = panel::width_for(d);
  std::vector<double> pan(size_t(width) * d), tail(width);
  for (int32_t j0 = 0; j0 < n; j0 += width) {
    const int32_t rows = n - j0 < width ? n - j0 : width;
    const int32_t tiles = (rows + panel::kTile - 1) / panel::kTile;
    const bool whole = rows == tiles * panel::kTile;  // a whole number of tiles: write straight into out
    panel::pack(X, j0, rows, d, width, pan.data());
    for (int32_t i = 0; i < nq; ++i) {
      double* row = out + size_t(i) * n + j0;
      if (whole) {
        panel::distances(pan.data(), width, tiles, d, Q + size_t(i) * d, row);
      } else {
        panel::distances(pan.data(), width, tiles, d, Q + size_t(i) * d, tail.data());
        std::memcpy(row, tail.data(), sizeof(double) * rows);
      }
    }
  }
  return OK;
}

}  // namespace varmap
