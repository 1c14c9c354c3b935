// Squared Euclidean distances between query rows and data rows.
#pragma once
#include <cstdint>

namespace varmap {

// out[i*n + j] = |Q_i - X_j|^2 for Q (nq x d) and X (n x d), row-major.
int sqdist(const double* X, int32_t n, const double* Q, int32_t nq, int32_t d, double* out);

}  // namespace varmap
