#include "varmap/delaunay.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <vector>

#include "varmap/status.h"

// Every floating-point operation here is mirrored, in the same order, by wasm/delaunay.ts: both backends must
// pick the same simplices, so the code avoids anything the compiler could reassociate or fuse differently.
namespace varmap {
namespace {

constexpr double kLiftPerturbation = 1e-13;  // size of the index-keyed lift perturbation (squared radius units)
constexpr double kTooClose = 1e-6;           // points closer than this (radius units) are duplicates
constexpr double kOffFlat = 1e-9;            // growth: distance from the current affine hull that counts as off it
constexpr double kOffFacet = 1e-11;          // walk: barycentric depth beyond a facet that counts as beyond it
constexpr double kWolfeGap = 1e-14;          // projection: optimality gap (relative to squared distances)
constexpr int32_t kWalkBudget = 50000;       // flips per walk before giving up (DelaunaySparse's IBUDGET)
constexpr int32_t kTableMaxDim = 4;         // walks keep the simplices they enter up to this dimension (see walk)
constexpr int32_t kBlock = 64;               // next-vertex scan: consecutive points per pruning box (even)
constexpr double kBoundSlack = 1e-12;        // scan pruning: relative slack of the depth bound
constexpr double kRoundSlack = 1e-14;        // scan pruning: slack of the power bound, above its rounding (~1e-15)

// Two doubles in one vector register (SSE2 / NEON through the GCC/Clang vector extension): each lane computes
// exactly what the scalar code does, so vectorized loops give the same values. Other compilers take the scalar
// loops that follow every vector loop.
#if defined(__GNUC__) || defined(__clang__)
#define VARMAP_VECTORS 1
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2l __attribute__((vector_size(16)));
#else
#define VARMAP_VECTORS 0
#endif
#if VARMAP_VECTORS && (defined(__x86_64__) || defined(__i386__))
#define VARMAP_WIDE_VECTORS 1
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4l __attribute__((vector_size(32)));
bool wide_vectors() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}
#else
#define VARMAP_WIDE_VECTORS 0
#endif

uint32_t mix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

// A pseudo-random number in [0, kLiftPerturbation) keyed by the point's index: breaks cospherical ties. (A
// perturbation monotone in the index would be affine on a lexicographically numbered grid and break nothing.)
double lift_perturbation(int32_t i) {
  return kLiftPerturbation * (double(mix32(uint32_t(i) * 0x9E3779B1u + 0x7F4A7C15u)) * (1.0 / 4294967296.0));
}

double dot(const double* a, const double* b, int32_t d) {
  double s = 0.0;
  for (int32_t k = 0; k < d; ++k) s += a[k] * b[k];
  return s;
}

// LU factorization with partial pivoting of the row-major d x d matrix a, in place; piv[k] = the row swapped
// into row k. Returns false when a pivot vanishes (a flat simplex).
template <int D>
bool lu_factor(double* a, int32_t d_runtime, int32_t* piv) {
  const int32_t d = D > 0 ? D : d_runtime;  // a constant when D > 0: the loops unroll, the operations are the same
  for (int32_t k = 0; k < d; ++k) {
    int32_t p = k;
    double best = std::fabs(a[k * d + k]);
    for (int32_t r = k + 1; r < d; ++r) {
      const double v = std::fabs(a[r * d + k]);
      if (v > best) {
        best = v;
        p = r;
      }
    }
    piv[k] = p;
    if (!(best > 0.0)) return false;
    if (p != k)
      for (int32_t c = 0; c < d; ++c) {
        const double t = a[k * d + c];
        a[k * d + c] = a[p * d + c];
        a[p * d + c] = t;
      }
    const double inv = 1.0 / a[k * d + k];
    for (int32_t r = k + 1; r < d; ++r) {
      const double f = a[r * d + k] * inv;
      a[r * d + k] = f;
      for (int32_t c = k + 1; c < d; ++c) a[r * d + c] -= f * a[k * d + c];
    }
  }
  return true;
}

// Solves A x = b in place (b becomes x) from lu_factor's output.
template <int D>
void lu_solve(const double* a, int32_t d_runtime, const int32_t* piv, double* b) {
  const int32_t d = D > 0 ? D : d_runtime;
  for (int32_t k = 0; k < d; ++k) {
    const int32_t p = piv[k];
    if (p != k) {
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
  for (int32_t r = 1; r < d; ++r) {
    double s = b[r];
    for (int32_t c = 0; c < r; ++c) s -= a[r * d + c] * b[c];
    b[r] = s;
  }
  for (int32_t r = d - 1; r >= 0; --r) {
    double s = b[r];
    for (int32_t c = r + 1; c < d; ++c) s -= a[r * d + c] * b[c];
    b[r] = s / a[r * d + r];
  }
}

// Solves A^T x = b in place: U^T z = b, L^T y = z, x = P^T y.
template <int D>
void lu_solve_t(const double* a, int32_t d_runtime, const int32_t* piv, double* b) {
  const int32_t d = D > 0 ? D : d_runtime;
  for (int32_t r = 0; r < d; ++r) {
    double s = b[r];
    for (int32_t c = 0; c < r; ++c) s -= a[c * d + r] * b[c];
    b[r] = s / a[r * d + r];
  }
  for (int32_t r = d - 1; r >= 0; --r) {
    double s = b[r];
    for (int32_t c = r + 1; c < d; ++c) s -= a[c * d + r] * b[c];
    b[r] = s;
  }
  for (int32_t k = d - 1; k >= 0; --k) {
    const int32_t p = piv[k];
    if (p != k) {
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
}

// In-place heap sort of idx by key (ascending; equal keys by index, so the order is fully determined).
bool before(const double* key, int32_t a, int32_t b) { return key[a] < key[b] || (key[a] == key[b] && a < b); }
void sift_down(int32_t* idx, const double* key, int32_t start, int32_t end) {
  int32_t root = start;
  while (2 * root + 1 < end) {
    int32_t child = 2 * root + 1;
    if (child + 1 < end && before(key, idx[child], idx[child + 1])) ++child;
    if (!before(key, idx[root], idx[child])) return;
    const int32_t t = idx[root];
    idx[root] = idx[child];
    idx[child] = t;
    root = child;
  }
}
void heap_sort(int32_t* idx, const double* key, int32_t n) {
  for (int32_t s = n / 2 - 1; s >= 0; --s) sift_down(idx, key, s, n);
  for (int32_t e = n - 1; e > 0; --e) {
    const int32_t t = idx[0];
    idx[0] = idx[e];
    idx[e] = t;
    sift_down(idx, key, 0, e);
  }
}

// Memo of neighbours across facets: key = the facet's d vertices (ascending) and the vertex left behind;
// value = the vertex on the other side, or -1 for a hull facet. Open addressing, grows at half load.
class FlipMemo {
 public:
  explicit FlipMemo(int32_t d) : w_(d + 2), cap_(4096), used_(0), slots_(size_t(4096) * (d + 2), -1) {}

  // Index of the entry for key (length w_-1), or of the empty slot where it belongs.
  size_t find(const int32_t* key) const {
    const int32_t kl = w_ - 1;
    uint32_t h = 2166136261u;
    for (int32_t k = 0; k < kl; ++k) h = (h ^ uint32_t(key[k])) * 16777619u;
    size_t i = mix32(h) & uint32_t(cap_ - 1);
    for (;;) {
      const int32_t* e = &slots_[i * w_];
      if (e[0] < 0) return i;
      bool same = true;
      for (int32_t k = 0; k < kl && same; ++k) same = e[k] == key[k];
      if (same) return i;
      i = (i + 1) & size_t(cap_ - 1);
    }
  }
  bool found(size_t i) const { return slots_[i * w_] >= 0; }
  int32_t value(size_t i) const { return slots_[i * w_ + w_ - 1]; }
  void insert(const int32_t* key, int32_t value) {
    if (2 * (used_ + 1) > cap_) grow();
    const size_t i = find(key);
    for (int32_t k = 0; k < w_ - 1; ++k) slots_[i * w_ + k] = key[k];
    slots_[i * w_ + w_ - 1] = value;
    ++used_;
  }

 private:
  void grow() {
    std::vector<int32_t> old;
    old.swap(slots_);
    const int32_t old_cap = cap_;
    cap_ *= 2;
    slots_.assign(size_t(cap_) * w_, -1);
    for (int32_t i = 0; i < old_cap; ++i)
      if (old[size_t(i) * w_] >= 0) {
        const size_t j = find(&old[size_t(i) * w_]);
        for (int32_t k = 0; k < w_; ++k) slots_[j * w_ + k] = old[size_t(i) * w_ + k];
      }
  }
  int32_t w_;
  int32_t cap_;
  int32_t used_;
  std::vector<int32_t> slots_;
};

// The simplices walks have entered, each with its factorization (lu_factor's output for the columns
// x_{S[i]} - x_{S[0]}, or a flat mark) and, once a walk has left it across a facet, the simplex on the other side.
// Walks from nearby starts cross the same simplices again and again: the stored factors are the bits a refactoring
// would give, and a known step skips the facet lookup (whose memo would answer the same).
class SimplexTable {
 public:
  static constexpr int32_t kUnknown = -2;  // next(): no walk has left across this facet yet
  static constexpr int32_t kHull = -1;     // next(): a hull facet

  explicit SimplexTable(int32_t d) : d_(d), cap_(1024), slots_(1024, -1) {}

  // The entry of S (ascending vertices), added on first sight with its factors: factor(a, piv) writes them into
  // the entry's own storage.
  template <typename F>
  int32_t enter(const int32_t* S, F&& factor) {
    size_t i = find(S);
    if (slots_[i] >= 0) return slots_[i];
    const int32_t e = int32_t(flat_.size());
    verts_.insert(verts_.end(), S, S + d_ + 1);
    lu_.resize(lu_.size() + size_t(d_) * d_);
    piv_.resize(piv_.size() + size_t(d_));
    next_.insert(next_.end(), size_t(d_ + 1), kUnknown);
    flat_.push_back(factor(&lu_[size_t(e) * d_ * d_], &piv_[size_t(e) * d_]) ? 0 : 1);
    if (2 * (size_t(e) + 1) > size_t(cap_)) {
      grow();
      i = find(S);
    }
    slots_[i] = e;
    return e;
  }
  bool flat(int32_t e) const { return flat_[e] != 0; }
  const int32_t* verts(int32_t e) const { return &verts_[size_t(e) * (d_ + 1)]; }
  const double* lu(int32_t e) const { return &lu_[size_t(e) * d_ * d_]; }
  const int32_t* piv(int32_t e) const { return &piv_[size_t(e) * d_]; }
  int32_t next(int32_t e, int32_t j) const { return next_[size_t(e) * (d_ + 1) + j]; }
  void set_next(int32_t e, int32_t j, int32_t to) { next_[size_t(e) * (d_ + 1) + j] = to; }

 private:
  size_t find(const int32_t* key) const {
    const int32_t w = d_ + 1;
    uint32_t h = 2166136261u;
    for (int32_t k = 0; k < w; ++k) h = (h ^ uint32_t(key[k])) * 16777619u;
    size_t i = mix32(h) & uint32_t(cap_ - 1);
    for (;;) {
      const int32_t e = slots_[i];
      if (e < 0) return i;
      const int32_t* v = &verts_[size_t(e) * w];
      bool same = true;
      for (int32_t k = 0; k < w && same; ++k) same = v[k] == key[k];
      if (same) return i;
      i = (i + 1) & size_t(cap_ - 1);
    }
  }
  void grow() {
    cap_ *= 2;
    slots_.assign(cap_, -1);
    const int32_t m = int32_t(flat_.size()) - 1;  // the entry being added is placed by enter()
    for (int32_t e = 0; e < m; ++e) slots_[find(verts(e))] = e;
  }
  int32_t d_;
  int32_t cap_;
  std::vector<int32_t> slots_;  // hash slots: entry index or -1
  std::vector<int32_t> verts_, piv_, next_;
  std::vector<double> lu_;
  std::vector<uint8_t> flat_;
};

// Hot loops specialized for small fixed dimensions (D > 0; D = 0 reads d at run time). The operations and their
// order are the same in every instance (and in wasm/delaunay.ts): only the loop bounds become constants.
template <int D>
struct Dim {
  static constexpr int value = D;
};
template <typename F>
int32_t dispatch_dim(int32_t d, F&& f) {
  switch (d) {
    case 2: return f(Dim<2>{});
    case 3: return f(Dim<3>{});
    case 4: return f(Dim<4>{});
    case 5: return f(Dim<5>{});
    case 6: return f(Dim<6>{});
    case 8: return f(Dim<8>{});
    default: return f(Dim<0>{});
  }
}

// The nearest of the data points 0, stride, 2 stride, ... to z (ties: lowest index).
template <int D>
int32_t nearest_point(const double* x, int32_t n, int32_t d, const double* z, int32_t stride) {
  const int32_t dd = D > 0 ? D : d;
  int32_t best = 0;
  double bd = INFINITY;
  for (int32_t i = 0; i < n; i += stride) {
    const double* xi = x + size_t(i) * dd;
    double s = 0.0;
    for (int32_t k = 0; k < dd; ++k) {
      const double t = xi[k] - z[k];
      s += t * t;
    }
    if (s < bd) {
      bd = s;
      best = i;
    }
  }
  return best;
}

// Walks start from the grown simplex of the nearest of every stride-th data point ("landmarks"; stride 1 is
// DelaunaySparse's nearest neighbour). In low dimensions walks are short and memoized flips cheap, so fewer grown
// simplices pay off: stride 12 for d <= 8 was 5-15% faster on the MOANA pass and the d = 4, 8 problems, neutral
// or worse at d = 20 (bench/delaunay-workload.ts). The start is a function of the query alone, so answers do not
// depend on batching; it only matters for a query on a face shared by several simplices (any of them gives the
// same value up to rounding).
int32_t start_stride(int32_t n, int32_t d) {
  (void)n;
  return d <= 8 ? 12 : 1;
}

class Locator {
 public:
  Locator(const double* X, int32_t n, int32_t d, double eps)
      : n_(n), d_(d), eps_(eps), x_(size_t(n) * d), lift_(n), delta_(n), center_(d, 0.0), radius_(0.0),
        a_(size_t(d) * d), piv_(d), rhs_(d), g_(d), c_(d), memo_(d), simplices_(d), key_(d + 1), first_(n, -1),
        first_pool_(size_t(n) * (d + 1)), resid_(), h2_(), pw_(), basis_(), wolfe_set_(d + 2), wolfe_w_(d + 2),
        wolfe_v_(d + 2), wolfe_x_(d), qr_(size_t(d) * (d + 1)), qr_b_(d), qr_tau_(d + 1) {
    // Centre on the mean and scale into the unit ball, as DelaunaySparse does: tolerances become relative.
    for (int32_t i = 0; i < n; ++i)
      for (int32_t k = 0; k < d; ++k) center_[k] += X[size_t(i) * d + k];
    for (int32_t k = 0; k < d; ++k) center_[k] /= double(n);
    for (int32_t i = 0; i < n; ++i) {
      double s = 0.0;
      for (int32_t k = 0; k < d; ++k) {
        const double t = X[size_t(i) * d + k] - center_[k];
        s += t * t;
      }
      if (s > radius_) radius_ = s;
    }
    radius_ = std::sqrt(radius_);
    const double inv = radius_ > 0.0 ? 1.0 / radius_ : 0.0;
    for (int32_t i = 0; i < n; ++i) {
      double* xi = &x_[size_t(i) * d];
      for (int32_t k = 0; k < d; ++k) xi[k] = (X[size_t(i) * d + k] - center_[k]) * inv;
      delta_[i] = lift_perturbation(i);
      lift_[i] = dot(xi, xi, d) + delta_[i];
    }
  }

  double radius() const { return radius_; }
  int32_t flips = 0;
  int32_t steps = 0;

  // Two points closer than kTooClose: sweep along the coordinate sum (|sum diff| <= sqrt(d) |diff|).
  bool find_duplicate(int32_t* pair) {
    std::vector<double> key(n_);
    std::vector<int32_t> idx(n_);
    for (int32_t i = 0; i < n_; ++i) {
      double s = 0.0;
      for (int32_t k = 0; k < d_; ++k) s += x_[size_t(i) * d_ + k];
      key[i] = s;
      idx[i] = i;
    }
    heap_sort(idx.data(), key.data(), n_);
    const double window = kTooClose * std::sqrt(double(d_));
    const double close2 = kTooClose * kTooClose;
    for (int32_t a = 0; a < n_; ++a)
      for (int32_t b = a + 1; b < n_ && key[idx[b]] - key[idx[a]] <= window; ++b) {
        const double* p = &x_[size_t(idx[a]) * d_];
        const double* q = &x_[size_t(idx[b]) * d_];
        double s = 0.0;
        for (int32_t k = 0; k < d_; ++k) {
          const double t = p[k] - q[k];
          s += t * t;
        }
        if (s < close2) {
          pair[0] = idx[a] < idx[b] ? idx[a] : idx[b];
          pair[1] = idx[a] < idx[b] ? idx[b] : idx[a];
          return true;
        }
      }
    return false;
  }

  void scale_query(const double* q, double* z) const {
    const double inv = radius_ > 0.0 ? 1.0 / radius_ : 0.0;
    for (int32_t k = 0; k < d_; ++k) z[k] = (q[k] - center_[k]) * inv;
  }

  // The nearest of the data points 0, stride, 2 stride, ... (ties: lowest index).
  int32_t nearest(const double* z, int32_t stride) const {
    return dispatch_dim(d_, [&](auto dim) { return nearest_point<decltype(dim)::value>(x_.data(), n_, d_, z, stride); });
  }

  // The Delaunay simplex grown from vertex v (memoized): returns the dimension reached (d on success) and
  // copies the d+1 vertices (ascending) into S.
  int32_t first_simplex(int32_t v, int32_t* S) {
    if (first_[v] < 0) {
      const int32_t dim = grow(v, &first_pool_[size_t(v) * (d_ + 1)]);
      if (dim < d_) return dim;
      first_[v] = 1;
    }
    for (int32_t k = 0; k <= d_; ++k) S[k] = first_pool_[size_t(v) * (d_ + 1) + k];
    return d_;
  }

  // Walks from simplex S (ascending vertices) toward z. Returns 0 when z is inside S (weights w), 1 when the
  // walk must cross a hull facet (w = weights in the last S), 2 when the step budget runs out, 3 on a flat simplex.
  int32_t walk(const double* z, int32_t* S, double* w) {
    return dispatch_dim(d_, [&](auto dim) {
      constexpr int D = decltype(dim)::value;
      return D > 0 && D <= kTableMaxDim ? walk_table<D>(z, S, w) : walk_plain<D>(z, S, w);
    });
  }

  // The barycentric coordinates w of z in simplex S (lu, piv: its factors); returns the index of the smallest.
  template <int D>
  int32_t weights(const double* z, const int32_t* S, const double* lu, const int32_t* piv, double* w) {
    const int32_t d = D > 0 ? D : d_;
    double* rhs = rhs_.data();
    const double* x0 = &x_[size_t(S[0]) * d];
    for (int32_t k = 0; k < d; ++k) rhs[k] = z[k] - x0[k];
    lu_solve<D>(lu, d, piv, rhs);
    double sum = 0.0;
    for (int32_t k = 0; k < d; ++k) {
      w[k + 1] = rhs[k];
      sum += rhs[k];
    }
    w[0] = 1.0 - sum;
    int32_t j = 0;
    for (int32_t k = 1; k <= d; ++k)
      if (w[k] < w[j]) j = k;
    return j;
  }

  // The walk refactoring every simplex it enters (above kTableMaxDim: walks there seldom come back to a simplex).
  template <int D>
  int32_t walk_plain(const double* z, int32_t* S, double* w) {
    for (int32_t step = 0;; ++step) {
      if (!factor<D>(S, a_.data(), piv_.data())) return 3;
      const int32_t j = weights<D>(z, S, a_.data(), piv_.data(), w);
      if (w[j] >= -eps_) return 0;
      const int32_t p = neighbour(S, j, a_.data(), piv_.data());
      if (p < 0) return 1;
      if (step >= kWalkBudget) return 2;
      ++steps;
      replace_vertex(S, j, p);
    }
  }

  // The same walk through the table of entered simplices: the same steps, solves and answers.
  template <int D>
  int32_t walk_table(const double* z, int32_t* S, double* w) {
    const int32_t d = D > 0 ? D : d_;
    auto factor_S = [&](double* a, int32_t* piv) { return factor<D>(S, a, piv); };
    int32_t e = simplices_.enter(S, factor_S);
    for (int32_t step = 0;; ++step) {
      for (int32_t k = 0; k <= d; ++k) S[k] = simplices_.verts(e)[k];
      if (simplices_.flat(e)) return 3;
      const int32_t j = weights<D>(z, S, simplices_.lu(e), simplices_.piv(e), w);
      if (w[j] >= -eps_) return 0;
      int32_t to = simplices_.next(e, j);
      if (to == SimplexTable::kUnknown) {
        const int32_t p = neighbour(S, j, simplices_.lu(e), simplices_.piv(e));
        if (p < 0) {
          to = SimplexTable::kHull;
        } else {
          replace_vertex(S, j, p);
          to = simplices_.enter(S, factor_S);
        }
        simplices_.set_next(e, j, to);
      }
      if (to == SimplexTable::kHull) return 1;
      if (step >= kWalkBudget) {
        // Like walk_plain, a walk out of budget answers the simplex it is leaving.
        for (int32_t k = 0; k <= d; ++k) S[k] = simplices_.verts(e)[k];
        return 2;
      }
      ++steps;
      e = to;
    }
  }

  // The first data point i minimizing x_i . x (the dot products summed over k = 0..d-1 like dot()), and that
  // minimum. Two points at a time over the column-major copy when d is specialized; a pair that may improve the
  // minimum is redone point by point, in order.
  double most_opposite(const double* x, int32_t* j) {
    ensure_columns();
    double best = INFINITY;
    int32_t at = -1;
    dispatch_dim(d_, [&](auto dim) {
      constexpr int D = decltype(dim)::value;
      const double* xt = xt_.data();
      const size_t n = size_t(n_);
      auto test = [&](size_t i, double s) {
        if (s < best) {
          best = s;
          at = int32_t(i);
        }
      };
      size_t i = 0;
#if VARMAP_VECTORS
      if (D > 0) {
        v2d xv[D > 0 ? D : 1];
        for (int32_t k = 0; k < D; ++k) xv[k] = v2d{x[k], x[k]};
        v2d bv = {best, best};
        for (; i + 2 <= n; i += 2) {
          v2d s = {0.0, 0.0};
          for (int32_t k = 0; k < D; ++k) {
            v2d col;
            std::memcpy(&col, xt + size_t(k) * n + i, sizeof col);
            s += col * xv[k];
          }
          const v2l hit = s < bv;
          if (hit[0] | hit[1]) {
            if (hit[0]) test(i, s[0]);
            if (hit[1]) test(i + 1, s[1]);
            bv = v2d{best, best};
          }
        }
      }
#endif
      for (; i < n; ++i) test(i, dot(&x_[i * size_t(d_)], x, d_));  // row-major: no strided reads for large d
      return 0;
    });
    *j = at;
    return best;
  }

  // Projection of z onto the convex hull of the data (Wolfe's minimum-norm-point algorithm on x_i - z),
  // starting from the data point v nearest to z. Writes the projection into proj; returns false on failure.
  bool project(const double* z, int32_t v, double* proj) {
    int32_t* set = wolfe_set_.data();
    double* w = wolfe_w_.data();
    double* x = wolfe_x_.data();
    int32_t k = 1;
    set[0] = v;
    w[0] = 1.0;
    for (int32_t c = 0; c < d_; ++c) x[c] = x_[size_t(v) * d_ + c] - z[c];
    for (int32_t major = 0; major < 50 * (d_ + 1) + 100; ++major) {
      // The data point most opposite to x; stop when it cannot bring x closer to the origin.
      const double zx = dot(z, x, d_);
      double xx = dot(x, x, d_);
      int32_t j = -1;
      const double best = most_opposite(x, &j);
      double scale = 0.0;
      for (int32_t s = 0; s < k; ++s) {
        const double* xs = &x_[size_t(set[s]) * d_];
        double t = 0.0;
        for (int32_t c = 0; c < d_; ++c) {
          const double u = xs[c] - z[c];
          t += u * u;
        }
        if (t > scale) scale = t;
      }
      if (xx - (best - zx) <= kWolfeGap * scale) break;
      bool present = false;
      for (int32_t s = 0; s < k; ++s) present = present || set[s] == j;
      if (present || k > d_) break;
      set[k] = j;
      w[k] = 0.0;
      ++k;
      // Minor cycle: move to the affine minimizer of the set, dropping points whose weight would turn negative.
      for (;;) {
        double* v_aff = wolfe_v_.data();
        if (!affine_minimizer(z, set, k, v_aff)) return finish_projection(z, set, w, k, proj);
        bool positive = true;
        for (int32_t s = 0; s < k; ++s) positive = positive && v_aff[s] > 0.0;
        if (positive) {
          for (int32_t s = 0; s < k; ++s) w[s] = v_aff[s];
          break;
        }
        // Step from w toward v until the first weight reaches zero; that point leaves the set.
        double theta = 1.0;
        int32_t drop = -1;
        for (int32_t s = 0; s < k; ++s)
          if (v_aff[s] <= 0.0) {
            const double gap = w[s] - v_aff[s];
            const double t = gap > 0.0 ? w[s] / gap : 0.0;
            if (drop < 0 || t < theta) {
              theta = t;
              drop = s;
            }
          }
        for (int32_t s = 0; s < k; ++s) w[s] = theta * v_aff[s] + (1.0 - theta) * w[s];
        int32_t m = 0;
        for (int32_t s = 0; s < k; ++s)
          if (s != drop && w[s] > 0.0) {
            set[m] = set[s];
            w[m] = w[s];
            ++m;
          }
        if (m == 0) return false;
        k = m;
        double tot = 0.0;
        for (int32_t s = 0; s < k; ++s) tot += w[s];
        for (int32_t s = 0; s < k; ++s) w[s] /= tot;
        if (k == 1) break;
      }
      for (int32_t c = 0; c < d_; ++c) {
        double t = 0.0;
        for (int32_t s = 0; s < k; ++s) t += w[s] * (x_[size_t(set[s]) * d_ + c] - z[c]);
        x[c] = t;
      }
    }
    return finish_projection(z, set, w, k, proj);
  }

 private:
  bool finish_projection(const double* z, const int32_t* set, const double* w, int32_t k, double* proj) {
    (void)z;
    for (int32_t c = 0; c < d_; ++c) {
      double t = 0.0;
      for (int32_t s = 0; s < k; ++s) t += w[s] * x_[size_t(set[s]) * d_ + c];
      proj[c] = t;
    }
    return true;
  }

  // Minimizes |sum v_s (x_s - z)| subject to sum v_s = 1 by Householder QR of the differences to the first point.
  bool affine_minimizer(const double* z, const int32_t* set, int32_t k, double* v) {
    const int32_t m = k - 1;
    const double* x0 = &x_[size_t(set[0]) * d_];
    double* M = qr_.data();  // column-major d x m
    double* b = qr_b_.data();
    for (int32_t s = 1; s < k; ++s) {
      const double* xs = &x_[size_t(set[s]) * d_];
      for (int32_t c = 0; c < d_; ++c) M[size_t(s - 1) * d_ + c] = xs[c] - x0[c];
    }
    for (int32_t c = 0; c < d_; ++c) b[c] = z[c] - x0[c];  // minimize |M mu - (z - x0)|
    for (int32_t col = 0; col < m; ++col) {
      double* mc = &M[size_t(col) * d_];
      double norm = 0.0;
      for (int32_t r = col; r < d_; ++r) norm += mc[r] * mc[r];
      norm = std::sqrt(norm);
      if (!(norm > 1e-300)) return false;
      const double alpha = mc[col] > 0.0 ? -norm : norm;
      const double v0 = mc[col] - alpha;
      mc[col] = v0;  // Householder vector in mc[col..d), implicit scaling
      double vv = 0.0;
      for (int32_t r = col; r < d_; ++r) vv += mc[r] * mc[r];
      for (int32_t c2 = col + 1; c2 < m; ++c2) {
        double* mo = &M[size_t(c2) * d_];
        double t = 0.0;
        for (int32_t r = col; r < d_; ++r) t += mc[r] * mo[r];
        const double f = 2.0 * t / vv;
        for (int32_t r = col; r < d_; ++r) mo[r] -= f * mc[r];
      }
      double t = 0.0;
      for (int32_t r = col; r < d_; ++r) t += mc[r] * b[r];
      const double f = 2.0 * t / vv;
      for (int32_t r = col; r < d_; ++r) b[r] -= f * mc[r];
      qr_tau_[col] = alpha;  // R's diagonal
    }
    // Rank check: a diagonal of R tiny against the column scale means the set is affinely dependent.
    for (int32_t col = 0; col < m; ++col)
      if (!(std::fabs(qr_tau_[col]) > 1e-13)) return false;
    for (int32_t col = m - 1; col >= 0; --col) {
      double s = b[col];
      for (int32_t c2 = col + 1; c2 < m; ++c2) s -= M[size_t(c2) * d_ + col] * v[c2 + 1];
      v[col + 1] = s / qr_tau_[col];
    }
    double sum = 0.0;
    for (int32_t s = 1; s < k; ++s) sum += v[s];
    v[0] = 1.0 - sum;
    return true;
  }

  // A^T x = b in place for A factored by factor() (lu_solve_t, its loops unrolled for the specialized dimensions).
  void solve_transposed(const double* lu, const int32_t* piv, double* b) {
    dispatch_dim(d_, [&](auto dim) {
      lu_solve_t<decltype(dim)::value>(lu, d_, piv, b);
      return 0;
    });
  }

  // a = columns x_{S[i]} - x_{S[0]}, LU-factored (pivots in piv).
  template <int D>
  bool factor(const int32_t* S, double* a, int32_t* piv) {
    const int32_t d = D > 0 ? D : d_;
    const double* x0 = &x_[size_t(S[0]) * d];
    for (int32_t i = 1; i <= d; ++i) {
      const double* xi = &x_[size_t(S[i]) * d];
      for (int32_t r = 0; r < d; ++r) a[size_t(r) * d + (i - 1)] = xi[r] - x0[r];
    }
    return lu_factor<D>(a, d_, piv);
  }

  // Column-major copy of the data (xt_[k * n + i]) for the loops that run over all points, and two scratch
  // columns; built on first use.
  void ensure_columns() {
    if (!xt_.empty()) return;
    xt_.resize(size_t(n_) * d_);
    for (int32_t i = 0; i < n_; ++i)
      for (int32_t k = 0; k < d_; ++k) xt_[size_t(k) * n_ + i] = x_[size_t(i) * d_ + k];
    gb_.resize(n_);
    cb_.resize(n_);
  }

  int32_t scan_facet_columns(const int32_t* S, double c0, double K, double R) {
    ensure_columns();
    return dispatch_dim(d_, [&](auto dim) { return scan_columns<decltype(dim)::value>(S, c0, K, R); });
  }

  // Boxes of consecutive points (kBlock per box, in index order) for pruning the next-vertex scan; computed on
  // the first scan. Data rows of a design are usually ordered by their factors, so consecutive points are close.
  void ensure_blocks() {
    if (!blo_.empty()) return;
    const int32_t nb = (n_ + kBlock - 1) / kBlock;
    blo_.resize(size_t(nb) * d_);
    bhi_.resize(size_t(nb) * d_);
    bbmax_.resize(nb);
    br2_.resize(nb);
    for (int32_t q = 0; q < nb; ++q)
      for (int32_t k = 0; k < d_; ++k) {
        double lo = INFINITY, hi = -INFINITY;
        for (int32_t p = q * kBlock; p < n_ && p < (q + 1) * kBlock; ++p) {
          const double v = x_[size_t(p) * d_ + k];
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
        blo_[size_t(q) * d_ + k] = lo;
        bhi_[size_t(q) * d_ + k] = hi;
      }
  }

  // For each point p beyond the facet (depth b = -(g.x_p + c0) > kOffFacet), the first in index order minimizing
  // power / depth, tested as "power < best key * depth" (power = |x_p - c|^2 - R + delta_p, c = the orthocentre).
  //
  // Pruning: power >= dist(c, box)^2 - R and depth <= the box's largest depth, so when every point of a block has
  // power >= kappa * depth (with slack covering rounding), with kappa the key of some candidate, no point of the
  // block has a key within the slack of the best one. Skipping such points cannot change the scan's answer: it
  // can only change which worse point is the running best before the near-best points are met. kappa is taken
  // from the block most likely to hold the best point, searched first.
  template <int D>
  int32_t scan_columns(const int32_t* S, double c0, double K, double R) {
    if (D == 0) return scan_all(S, c0, K);  // higher dimensions: boxes prune little, one pass per coordinate
    ensure_blocks();
    const int32_t nb = (n_ + kBlock - 1) / kBlock;
    double gsum = std::fabs(c0), csq = 0.0;
    for (int32_t k = 0; k < d_; ++k) {
      gsum += std::fabs(g_[k]);
      csq += c_[k] * c_[k];
    }
    const double tol_b = kBoundSlack * gsum;
    const double tol_n = kRoundSlack * (1.0 + csq + std::fabs(R));
    int32_t first = -1;
    double first_lb = INFINITY;
    for (int32_t q = 0; q < nb; ++q) {
      const double* lo = &blo_[size_t(q) * d_];
      const double* hi = &bhi_[size_t(q) * d_];
      double gmin = 0.0, r2 = 0.0;
      for (int32_t k = 0; k < (D > 0 ? D : d_); ++k) {
        const double a = g_[k] * lo[k], b = g_[k] * hi[k];
        gmin += a < b ? a : b;
        const double u = lo[k] - c_[k], v = c_[k] - hi[k];
        const double t = u > v ? u : v;
        r2 += t > 0.0 ? t * t : 0.0;
      }
      const double bmax = -(gmin + c0) + tol_b;
      bbmax_[q] = bmax;
      br2_[q] = r2 - R - tol_n;
      if (bmax > kOffFacet) {
        const double lb = br2_[q] / bmax;
        if (first < 0 || lb < first_lb) {
          first = q;
          first_lb = lb;
        }
      }
    }
    if (first < 0) return -1;  // every point lies on this side of the facet
    auto block = [&](int32_t q, double* key, int32_t* at) {
#if VARMAP_WIDE_VECTORS
      if (D > 0 && wide_vectors()) return scan_block4<D>(S, c0, K, q, key, at);
#endif
      scan_block<D>(S, c0, K, q, key, at);
    };
    int32_t best = -1;
    double kappa = INFINITY;
    block(first, &kappa, &best);
    double best_key = INFINITY;
    best = -1;
    for (int32_t q = 0; q < nb; ++q) {
      const double bmax = bbmax_[q];
      if (!(bmax > kOffFacet)) continue;
      const double kp = best_key < kappa ? best_key : kappa;
      if (kp < INFINITY && br2_[q] > (kp > 0.0 ? kp : 0.0) * bmax * (1.0 + kBoundSlack)) continue;
      block(q, &best_key, &best);
    }
    return best;
  }

  // The plain scan, coordinate by coordinate over the column-major copy: the two dot products of every point
  // accumulate in the same order (k = 0..d-1) as everywhere else, so the sums are bit-identical, and the loops
  // vectorize and stream through memory.
  int32_t scan_all(const int32_t* S, double c0, double K) {
    double* gb = gb_.data();
    double* cb = cb_.data();
    for (int32_t p = 0; p < n_; ++p) {
      gb[p] = 0.0;
      cb[p] = 0.0;
    }
    for (int32_t k = 0; k < d_; ++k) {
      const double gk = g_[k];
      const double ck = c_[k];
      const double* col = &xt_[size_t(k) * n_];
      for (int32_t p = 0; p < n_; ++p) {
        gb[p] += gk * col[p];
        cb[p] += ck * col[p];
      }
    }
    int32_t best = -1;
    double best_key = INFINITY;
    for (int32_t p = 0; p < n_; ++p) {
      const double b = -(gb[p] + c0);
      const double num = lift_[p] - 2.0 * cb[p] + K;
      if (b > kOffFacet && num < best_key * b && !in_simplex(S, p)) {
        best_key = num / b;
        best = p;
      }
    }
    return best;
  }

  // The scan's test over block q, in index order, updating (best_key, best). Two points at a time in vector
  // registers (D known at compile time): the same operations per lane as the scalar loop, so the same values;
  // a pair where the test passes (rare) is redone point by point, in order.
  template <int D>
  void scan_block(const int32_t* S, double c0, double K, int32_t q, double* best_key_io, int32_t* best_io) {
    const double* xt = xt_.data();
    const double* lift = lift_.data();
    const size_t n = size_t(n_);
    const size_t end = std::min(n, size_t(q + 1) * kBlock);
    int32_t best = *best_io;
    double best_key = *best_key_io;
    auto test = [&](size_t p, double b, double num) {
      if (b > kOffFacet && num < best_key * b && !in_simplex(S, int32_t(p))) {
        best_key = num / b;
        best = int32_t(p);
      }
    };
    size_t p = size_t(q) * kBlock;
#if VARMAP_VECTORS
    if (D > 0) {
      v2d g[D > 0 ? D : 1], c[D > 0 ? D : 1];
      for (int32_t k = 0; k < D; ++k) {
        g[k] = v2d{g_[k], g_[k]};
        c[k] = v2d{c_[k], c_[k]};
      }
      const v2d c0v = {c0, c0}, Kv = {K, K}, two = {2.0, 2.0}, off = {kOffFacet, kOffFacet};
      v2d bestv = {best_key, best_key};
      for (; p + 2 <= end; p += 2) {
        v2d sg = {0.0, 0.0}, sc = {0.0, 0.0};
        for (int32_t k = 0; k < D; ++k) {
          v2d x;
          std::memcpy(&x, xt + size_t(k) * n + p, sizeof x);
          sg += g[k] * x;
          sc += c[k] * x;
        }
        v2d l;
        std::memcpy(&l, lift + p, sizeof l);
        const v2d b = -(sg + c0v);
        const v2d num = l - two * sc + Kv;
        const v2l hit = (b > off) & (num < bestv * b);
        if (hit[0] | hit[1]) {
          test(p, b[0], num[0]);
          test(p + 1, b[1], num[1]);
          bestv = v2d{best_key, best_key};
        }
      }
    }
#endif
    for (; p < end; ++p) {
      double sg = 0.0, sc = 0.0;
      for (int32_t k = 0; k < d_; ++k) {
        const double x = xt[size_t(k) * n + p];
        sg += g_[k] * x;
        sc += c_[k] * x;
      }
      test(p, -(sg + c0), lift[p] - 2.0 * sc + K);
    }
    *best_key_io = best_key;
    *best_io = best;
  }

#if VARMAP_WIDE_VECTORS
  // scan_block four points at a time, where the CPU has AVX2 (checked at run time: the addon targets baseline
  // x86-64). No FMA contraction here either (-ffp-contract=off): the same values as scan_block.
  template <int D>
  __attribute__((target("avx2"))) void scan_block4(const int32_t* S, double c0, double K, int32_t q,
                                                   double* best_key_io, int32_t* best_io) {
    const double* xt = xt_.data();
    const double* lift = lift_.data();
    const size_t n = size_t(n_);
    const size_t end = std::min(n, size_t(q + 1) * kBlock);
    int32_t best = *best_io;
    double best_key = *best_key_io;
    auto test = [&](size_t p, double b, double num) {
      if (b > kOffFacet && num < best_key * b && !in_simplex(S, int32_t(p))) {
        best_key = num / b;
        best = int32_t(p);
      }
    };
    size_t p = size_t(q) * kBlock;
    if (D > 0) {
      v4d g[D > 0 ? D : 1], c[D > 0 ? D : 1];
      for (int32_t k = 0; k < D; ++k) {
        g[k] = v4d{g_[k], g_[k], g_[k], g_[k]};
        c[k] = v4d{c_[k], c_[k], c_[k], c_[k]};
      }
      const v4d c0v = {c0, c0, c0, c0}, Kv = {K, K, K, K}, two = {2.0, 2.0, 2.0, 2.0};
      const v4d off = {kOffFacet, kOffFacet, kOffFacet, kOffFacet};
      v4d bestv = {best_key, best_key, best_key, best_key};
      for (; p + 4 <= end; p += 4) {
        v4d sg = {0.0, 0.0, 0.0, 0.0}, sc = {0.0, 0.0, 0.0, 0.0};
        for (int32_t k = 0; k < D; ++k) {
          v4d x;
          std::memcpy(&x, xt + size_t(k) * n + p, sizeof x);
          sg += g[k] * x;
          sc += c[k] * x;
        }
        v4d l;
        std::memcpy(&l, lift + p, sizeof l);
        const v4d b = -(sg + c0v);
        const v4d num = l - two * sc + Kv;
        const v4l hit = (b > off) & (num < bestv * b);
        if (hit[0] | hit[1] | hit[2] | hit[3]) {
          for (int32_t i = 0; i < 4; ++i) test(p + i, b[i], num[i]);
          bestv = v4d{best_key, best_key, best_key, best_key};
        }
      }
    }
    for (; p < end; ++p) {
      double sg = 0.0, sc = 0.0;
      for (int32_t k = 0; k < d_; ++k) {
        const double x = xt[size_t(k) * n + p];
        sg += g_[k] * x;
        sc += c_[k] * x;
      }
      test(p, -(sg + c0), lift[p] - 2.0 * sc + K);
    }
    *best_key_io = best_key;
    *best_io = best;
  }

#endif

  bool in_simplex(const int32_t* S, int32_t p) const {
    for (int32_t k = 0; k <= d_; ++k)
      if (S[k] == p) return true;
    return false;
  }

  void replace_vertex(int32_t* S, int32_t j, int32_t p) {
    // Remove S[j], insert p keeping S ascending.
    for (int32_t k = j; k < d_; ++k) S[k] = S[k + 1];
    int32_t k = d_;
    while (k > 0 && S[k - 1] > p) {
      S[k] = S[k - 1];
      --k;
    }
    S[k] = p;
  }

  // The vertex across the facet of S opposite S[j] (lu, piv: S's factors), or -1 on the hull.
  int32_t neighbour(const int32_t* S, int32_t j, const double* lu, const int32_t* piv) {
    int32_t m = 0;
    for (int32_t k = 0; k <= d_; ++k)
      if (k != j) key_[m++] = S[k];
    key_[d_] = S[j];
    const size_t slot = memo_.find(key_.data());
    if (memo_.found(slot)) return memo_.value(slot);
    ++flips;
    const double* x0 = &x_[size_t(S[0]) * d_];
    // g = gradient of the barycentric coordinate w_j: w_j(x) = g.x + c0.
    for (int32_t k = 0; k < d_; ++k) g_[k] = j == 0 ? -1.0 : (k == j - 1 ? 1.0 : 0.0);
    solve_transposed(lu, piv, g_.data());
    const double c0 = (j == 0 ? 1.0 : 0.0) - dot(g_.data(), x0, d_);
    // Orthocentre C of S under the lifted (perturbed) heights: 2 (x_i - x_0).(C - x_0) = lift_i - lift_0 - 2 x_0.(x_i - x_0).
    for (int32_t i = 1; i <= d_; ++i) {
      const double* xi = &x_[size_t(S[i]) * d_];
      double t = 0.0;
      for (int32_t k = 0; k < d_; ++k) t += x0[k] * (xi[k] - x0[k]);
      c_[i - 1] = 0.5 * (lift_[S[i]] - lift_[S[0]]) - t;
    }
    solve_transposed(lu, piv, c_.data());
    const double R = dot(c_.data(), c_.data(), d_) + delta_[S[0]];
    for (int32_t k = 0; k < d_; ++k) c_[k] += x0[k];
    const double K = dot(c_.data(), c_.data(), d_) - R;
    // Across the facet, the sphere through it that first touches a point: minimize power(p) / depth(p).
    const int32_t best = scan_facet_columns(S, c0, K, R);
    memo_.insert(key_.data(), best);
    // The way back is known too: from the new simplex across the same facet lies the vertex just left behind.
    if (best >= 0) {
      key_[d_] = best;
      if (!memo_.found(memo_.find(key_.data()))) memo_.insert(key_.data(), S[j]);
    }
    return best;
  }

  // Grows a Delaunay simplex from vertex v: each next vertex makes the smallest (power) sphere through the
  // current face (DelaunaySparse's MAKEFIRSTSIMP). Returns the dimension reached; S gets the vertices ascending.
  int32_t grow(int32_t v, int32_t* S) {
    // Residuals are column-major (resid_[k * n + i]) like xt_: the same sums in the same order, vectorized.
    ensure_columns();
    if (resid_.empty()) {
      resid_.resize(size_t(n_) * d_);
      h2_.resize(n_);
      pw_.resize(n_);
      basis_.resize(d_);
    }
    const size_t n = size_t(n_);
    double* h2 = h2_.data();
    double* pw = pw_.data();
    double* t = gb_.data();  // scratch: e . r per point
    const double* xv = &x_[size_t(v) * d_];
    for (size_t i = 0; i < n; ++i) h2[i] = 0.0;
    for (int32_t k = 0; k < d_; ++k) {
      double* rk = &resid_[size_t(k) * n];
      const double* xk = &xt_[size_t(k) * n];
      const double vk = xv[k];
      for (size_t i = 0; i < n; ++i) {
        rk[i] = xk[i] - vk;
        h2[i] += rk[i] * rk[i];
      }
    }
    for (size_t i = 0; i < n; ++i) pw[i] = h2[i] + delta_[i] - delta_[v];
    S[0] = v;
    const double off2 = kOffFlat * kOffFlat;
    for (int32_t step = 1; step <= d_; ++step) {
      int32_t best = -1;
      double best_key = INFINITY;
      for (int32_t i = 0; i < n_; ++i) {
        // Minimizes s = pw / (2h) through the monotone sign(s) s^2, avoiding a square root per point.
        const double hh = h2[i];
        const double p = pw[i];
        const double key = (p >= 0.0 ? p * p : -(p * p)) / hh;
        if (hh > off2 && key < best_key) {
          best_key = key;
          best = i;
        }
      }
      if (best < 0) return step - 1;
      const double best_s = pw[best] / (2.0 * std::sqrt(h2[best]));
      S[step] = best;
      if (step == d_) break;  // the residuals are only needed for a next step
      const double h = std::sqrt(h2[best]);
      double* e = basis_.data();
      for (int32_t k = 0; k < d_; ++k) e[k] = resid_[size_t(k) * n + best] / h;
      // Remove direction e from every residual, updating |r|^2 and the power.
      for (size_t i = 0; i < n; ++i) t[i] = 0.0;
      for (int32_t k = 0; k < d_; ++k) {
        const double* rk = &resid_[size_t(k) * n];
        const double ek = e[k];
        for (size_t i = 0; i < n; ++i) t[i] += ek * rk[i];
      }
      for (size_t i = 0; i < n; ++i) h2[i] = 0.0;
      for (int32_t k = 0; k < d_; ++k) {
        double* rk = &resid_[size_t(k) * n];
        const double ek = e[k];
        for (size_t i = 0; i < n; ++i) {
          rk[i] -= t[i] * ek;
          h2[i] += rk[i] * rk[i];
        }
      }
      for (size_t i = 0; i < n; ++i) pw[i] -= 2.0 * best_s * t[i];
    }
    for (int32_t i = 1; i <= d_; ++i) {  // insertion sort of d+1 indices
      const int32_t t = S[i];
      int32_t k = i;
      while (k > 0 && S[k - 1] > t) {
        S[k] = S[k - 1];
        --k;
      }
      S[k] = t;
    }
    return d_;
  }

  int32_t n_, d_;
  double eps_;
  std::vector<double> x_, lift_, delta_, center_;
  std::vector<double> xt_, gb_, cb_;  // column-major copy of x_ and scan accumulators (built on first use)
  std::vector<double> blo_, bhi_, bbmax_, br2_;  // scan pruning: block boxes; per scan, bounds (ensure_blocks)
  double radius_;
  std::vector<double> a_;  // walk_plain's factors
  std::vector<int32_t> piv_;
  std::vector<double> rhs_, g_, c_;
  FlipMemo memo_;
  SimplexTable simplices_;
  std::vector<int32_t> key_, first_, first_pool_;
  std::vector<double> resid_, h2_, pw_, basis_;
  std::vector<int32_t> wolfe_set_;
  std::vector<double> wolfe_w_, wolfe_v_, wolfe_x_, qr_, qr_b_, qr_tau_;
};

}  // namespace

int delaunay_locate(const double* X, int32_t n, int32_t d, const double* Q, int32_t nq, double eps,
                    double max_extrap, int32_t* simplices, double* weights, int32_t* qstatus, double* rnorm,
                    int32_t* info) {
  for (int32_t k = 0; k < 4; ++k) info[k] = -1;
  if (n < 0 || nq < 0 || d < 1 || !(eps >= 0.0) || std::isnan(max_extrap)) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * d) || !all_finite(Q, size_t(nq) * d)) return NONFINITE;
  if (n < d + 1) {
    info[0] = n;
    return DELAUNAY_TOO_FEW;
  }
  Locator loc(X, n, d, eps);
  if (!(loc.radius() > 0.0)) {
    info[0] = 0;
    info[1] = 1;
    return DELAUNAY_DUPLICATE;
  }
  if (loc.find_duplicate(info)) return DELAUNAY_DUPLICATE;
  std::vector<int32_t> S(d + 1);
  const int32_t dim = loc.first_simplex(0, S.data());
  if (dim < d) {
    info[0] = dim;
    return DELAUNAY_DEGENERATE;
  }
  const int32_t stride = start_stride(n, d);
  std::vector<double> z(d), proj(d), w(d + 1);
  for (int32_t qi = 0; qi < nq; ++qi) {
    loc.scale_query(Q + size_t(qi) * d, z.data());
    const int32_t start = loc.nearest(z.data(), stride);
    if (loc.first_simplex(start, S.data()) < d) return INTERNAL;
    int32_t r = loc.walk(z.data(), S.data(), w.data());
    int32_t code = QUERY_INSIDE;
    double dist = 0.0;
    if (r == 1) {
      // Outside the hull: the projection starts from the nearest data point (only needed here).
      const int32_t v = stride == 1 ? start : loc.nearest(z.data(), 1);
      if (!loc.project(z.data(), v, proj.data())) {
        info[0] = qi;
        return DELAUNAY_NO_CONVERGE;
      }
      double s = 0.0;
      for (int32_t k = 0; k < d; ++k) {
        const double t = z[k] - proj[k];
        s += t * t;
      }
      dist = std::sqrt(s) * loc.radius();
      // The projection lies on the hull: a walk there ends inside or against the hull facet it lies on.
      r = loc.walk(proj.data(), S.data(), w.data());
      if (r == 1) r = 0;
      code = dist > max_extrap ? QUERY_TOO_FAR : QUERY_EXTRAPOLATED;
    }
    if (r == 2) {
      info[0] = qi;
      return DELAUNAY_NO_CONVERGE;
    }
    if (r == 3) return INTERNAL;
    for (int32_t k = 0; k <= d; ++k) {
      simplices[size_t(qi) * (d + 1) + k] = S[k];
      weights[size_t(qi) * (d + 1) + k] = w[k];
    }
    qstatus[qi] = code;
    rnorm[qi] = dist;
  }
  info[2] = loc.flips;
  info[3] = loc.steps;
  return OK;
}

}  // namespace varmap
