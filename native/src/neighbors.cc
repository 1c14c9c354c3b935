#include "varmap/neighbors.h"

#include <cmath>
#include <cstddef>
#include <vector>

#include "varmap/panel.h"
#include "varmap/status.h"

namespace varmap {
namespace {

// A bounded max-heap of (squared distance, index) pairs ordered lexicographically, so the k kept are the k
// smallest keys whatever the scan order, and ties go to the lower index. It lives in the output buffers.
struct Heap {
  double* key;
  int32_t* id;

  bool less(int32_t a, int32_t b) const { return key[a] < key[b] || (key[a] == key[b] && id[a] < id[b]); }
  void swap(int32_t a, int32_t b) const {
    const double k = key[a];
    key[a] = key[b];
    key[b] = k;
    const int32_t i = id[a];
    id[a] = id[b];
    id[b] = i;
  }
  void sift_up(int32_t c) const {
    while (c > 0) {
      const int32_t p = (c - 1) / 2;
      if (!less(p, c)) break;
      swap(p, c);
      c = p;
    }
  }
  void sift_down(int32_t p, int32_t size) const {
    for (;;) {
      const int32_t l = 2 * p + 1, r = l + 1;
      int32_t m = p;
      if (l < size && less(m, l)) m = l;
      if (r < size && less(m, r)) m = r;
      if (m == p) break;
      swap(p, m);
      p = m;
    }
  }
  void push(double d2, int32_t j, int32_t size) const {
    key[size] = d2;
    id[size] = j;
    sift_up(size);
  }
  void replace_root(double d2, int32_t j, int32_t size) const {
    key[0] = d2;
    id[0] = j;
    sift_down(0, size);
  }
  // Heap sort: ascending (distance, index).
  void sort(int32_t size) const {
    for (int32_t end = size - 1; end > 0; --end) {
      swap(0, end);
      sift_down(0, end);
    }
  }
};

static_assert(panel::kTile == 8, "min8 reduces one tile");
inline double min2(double a, double b) { return b < a ? b : a; }
inline double min8(const double* v) {
  return min2(min2(min2(v[0], v[1]), min2(v[2], v[3])), min2(min2(v[4], v[5]), min2(v[6], v[7])));
}

}  // namespace

int knn(const double* X, int32_t n, const double* Q, int32_t nq, int32_t d, const int32_t* exclude,
        int32_t has_exclude, int32_t k, int32_t* idx, double* dist) {
  if (n < 0 || nq < 0 || d < 1 || k < 0) return BAD_ARGUMENT;
  if (has_exclude)
    for (int32_t i = 0; i < nq; ++i)
      if (exclude[i] < -1 || exclude[i] >= n) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * d) || !all_finite(Q, size_t(nq) * d)) return NONFINITE;
  for (int32_t i = 0; i < nq; ++i)
    if (k > n - (has_exclude && exclude[i] >= 0 ? 1 : 0)) return KNN_TOO_FEW_POINTS;
  if (k == 0 || nq == 0) return OK;

  // Blocked like sqdist: each panel of data rows is packed once and scanned by every query's heap.
  const int32_t width = panel::width_for(d);
  std::vector<double> pan(size_t(width) * d), d2(width);
  std::vector<int32_t> size(nq, 0);
  for (int32_t j0 = 0; j0 < n; j0 += width) {
    const int32_t rows = n - j0 < width ? n - j0 : width;
    const int32_t tiles = (rows + panel::kTile - 1) / panel::kTile;
    panel::pack(X, j0, rows, d, width, pan.data());
    for (int32_t i = 0; i < nq; ++i) {
      panel::distances(pan.data(), width, tiles, d, Q + size_t(i) * d, d2.data());
      const Heap h{dist + size_t(i) * k, idx + size_t(i) * k};
      const int32_t skip = has_exclude ? exclude[i] - j0 : -1;
      int32_t sz = size[i];
      // Candidates come in increasing index, so an equal distance never displaces a kept one (lower index).
      double worst = sz == k ? h.key[0] : HUGE_VAL;
      for (int32_t t0 = 0; t0 < rows; t0 += panel::kTile) {
        const int32_t t1 = t0 + panel::kTile < rows ? t0 + panel::kTile : rows;
        // Once the heap is full most tiles hold no candidate: one branch-free minimum rejects them together.
        if (sz == k && t1 - t0 == panel::kTile && !(min8(d2.data() + t0) < worst)) continue;
        for (int32_t j = t0; j < t1; ++j) {
          const double v = d2[j];
          if (j == skip || !(sz < k || v < worst)) continue;
          if (sz < k) h.push(v, j0 + j, sz++);
          else h.replace_root(v, j0 + j, sz);
          if (sz == k) worst = h.key[0];
        }
      }
      size[i] = sz;
    }
  }
  for (int32_t i = 0; i < nq; ++i) {
    const Heap h{dist + size_t(i) * k, idx + size_t(i) * k};
    h.sort(k);
    for (int32_t r = 0; r < k; ++r) h.key[r] = std::sqrt(h.key[r]);
  }
  return OK;
}

}  // namespace varmap
