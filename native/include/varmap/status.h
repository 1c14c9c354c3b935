// Status codes shared by every kernel (mirrored in wasm/lib/status.ts and ts/backend/status.ts).
// Kernels return one of these and never throw across the boundary. Kernel-specific codes start at 10.
#pragma once
#include <cmath>
#include <cstddef>

namespace varmap {

enum Status : int {
  OK = 0,
  BAD_ARGUMENT = 1,  // sizes, counts or offsets inconsistent
  NONFINITE = 2,     // NaN or infinity in an input buffer
  NO_MEMORY = 3,     // allocation failed
  INTERNAL = 4,      // an unexpected failure inside the kernel
};

inline bool all_finite(const double* x, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

}  // namespace varmap
