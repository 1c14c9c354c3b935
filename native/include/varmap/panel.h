// Squared distances from one query to a panel of data rows, shared by sqdist and knn.
//
// Why a panel: a row-major loop over (row, dimension) with a runtime d does not vectorize. Copying a block of
// `width` data rows into a dimension-major panel (panel[k*width + j] = X[j][k]) makes the innermost loop run over
// data rows with unit stride, so the compiler keeps a tile of 8 accumulators in vector registers.
// Every distance is still summed as s = 0; s += (q_k - x_k)^2 for k = 0..d-1 in order, the same operations as the
// plain loop, so the results are bit-identical to it and to the WebAssembly kernels (wasm/lib/panel.ts).
#pragma once
#include <cstddef>
#include <cstdint>

namespace varmap {
namespace panel {

constexpr int32_t kTile = 8;  // accumulators per tile: 4 SSE2 or 2 AVX registers

// A panel width (a multiple of kTile) that keeps the panel near 16 KB, in L1, for any d.
inline int32_t width_for(int32_t d) {
  int32_t w = (2048 / d) / kTile * kTile;
  return w < kTile ? kTile : (w > 512 ? 512 : w);
}

// Copies rows [j0, j0+rows) of X (row-major, d columns) into panel (d x width), zero-padding unused columns.
inline void pack(const double* X, int32_t j0, int32_t rows, int32_t d, int32_t width, double* panel) {
  for (int32_t k = 0; k < d; ++k) {
    double* p = panel + size_t(k) * width;
    for (int32_t j = 0; j < rows; ++j) p[j] = X[size_t(j0 + j) * d + k];
    for (int32_t j = rows; j < width; ++j) p[j] = 0.0;
  }
}

#if defined(__GNUC__) || defined(__clang__)
// Two-lane double vectors (SSE2 on x86-64, NEON on arm64): GCC's auto-vectorizer interleaves the tile loop
// badly, spelled-out vectors run about 1.4x faster. The arithmetic per lane is the scalar arithmetic.
// may_alias: the panel and outputs are written and read as doubles too.
typedef double v2d __attribute__((vector_size(16), aligned(8), __may_alias__));

// out[j] = |q - row j|^2 for j < tiles*kTile (out must hold that many doubles).
inline void distances(const double* panel, int32_t width, int32_t tiles, int32_t d, const double* q, double* out) {
  for (int32_t t = 0; t < tiles; ++t) {
    const double* p = panel + size_t(t) * kTile;
    v2d a0 = {0, 0}, a1 = {0, 0}, a2 = {0, 0}, a3 = {0, 0};
    for (int32_t k = 0; k < d; ++k) {
      const v2d qk = {q[k], q[k]};
      const v2d* pk = reinterpret_cast<const v2d*>(p + size_t(k) * width);
      const v2d e0 = qk - pk[0], e1 = qk - pk[1], e2 = qk - pk[2], e3 = qk - pk[3];
      a0 += e0 * e0;
      a1 += e1 * e1;
      a2 += e2 * e2;
      a3 += e3 * e3;
    }
    v2d* o = reinterpret_cast<v2d*>(out + size_t(t) * kTile);
    o[0] = a0;
    o[1] = a1;
    o[2] = a2;
    o[3] = a3;
  }
}
#else
inline void distances(const double* panel, int32_t width, int32_t tiles, int32_t d, const double* q, double* out) {
  for (int32_t t = 0; t < tiles; ++t) {
    const double* p = panel + size_t(t) * kTile;
    double acc[kTile] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int32_t k = 0; k < d; ++k) {
      const double qk = q[k];
      const double* pk = p + size_t(k) * width;
      for (int32_t j = 0; j < kTile; ++j) {
        const double diff = qk - pk[j];
        acc[j] += diff * diff;
      }
    }
    for (int32_t j = 0; j < kTile; ++j) out[size_t(t) * kTile + j] = acc[j];
  }
}
#endif

}  // namespace panel
}  // namespace varmap
