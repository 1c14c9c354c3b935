#include "varmap/lsp.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "varmap/lstsq.h"
#include "varmap/status.h"

namespace varmap {
namespace {

constexpr int kLeafSize = 16;
// Up to this many nodes the evaluation scans all nodes: the scan beats the tree's bookkeeping (the real map's
// splits have 86 to 778 points). The fit's neighbour search starts on the tree (see kProbe).
constexpr int kScanAll = 1024;
// Pruning compares an incrementally updated lower bound with a candidate distance; both are rounded, so prune
// only when the bound exceeds it by a relative margin far above rounding (never wrongly, at the cost of a few
// extra visits).
constexpr double kPruneSlack = 1.0 + 1e-9;

// Squared distance as LSHEP/LSHEPVAL compute it: the coordinate differences squared and summed in order.
inline double sqdist(const double* a, const double* b, int m) {
  double s = 0.0;
  for (int j = 0; j < m; ++j) {
    const double t = a[j] - b[j];
    s += t * t;
  }
  return s;
}


// The loop shared by leaf_sqdist, leaf_within and leaf_below, inlined into each (and so into each of their
// target clones, where it vectorizes for that instruction set).
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void block_sqdist(const double* block, int len, int m, const double* q, double* s) {
  for (int p = 0; p < len; ++p) s[p] = 0.0;
  for (int j = 0; j < m; ++j) {
    const double qj = q[j];
    const double* row = block + size_t(j) * len;
    for (int p = 0; p < len; ++p) {
      const double t = row[p] - qj;
      s[p] += t * t;
    }
  }
}

// Squared distances from q to the len points of a dimension-major block, each summed over the coordinates in
// order (the same rounding as a plain loop). On x86-64 Linux an AVX2 clone is chosen at load time when the CPU
// has it (4 points per instruction); AVX2 without FMA, so products and sums are rounded exactly as in the
// default clone and both agree bit for bit.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void leaf_sqdist(const double* block, int len, int m, const double* q, double* s) {
  block_sqdist(block, len, m, q, s);
}

// Positions p of a leaf block whose squared distance s[p] (computed here, as leaf_sqdist) is within reach[p]:
// blocks of 8 are tested with one vectorizable comparison and only inspected when one of them is in reach.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
int leaf_within(const double* block, int len, int m, const double* q, const double* reach, double* s, int32_t* hits) {
  block_sqdist(block, len, m, q, s);
  int h = 0, p0 = 0;
  for (; p0 + 8 <= len; p0 += 8) {
    int any = 0;
    for (int p = p0; p < p0 + 8; ++p) any |= s[p] <= reach[p];
    if (!any) continue;
    for (int p = p0; p < p0 + 8; ++p)
      if (s[p] <= reach[p]) hits[h++] = p;
  }
  for (int p = p0; p < len; ++p)
    if (s[p] <= reach[p]) hits[h++] = p;
  return h;
}

// Positions p of a leaf block with s[p] <= bound (s computed here, as leaf_sqdist), blocks of 8 tested at once.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
int leaf_below(const double* block, int len, int m, const double* q, double bound, double* s, int32_t* hits) {
  block_sqdist(block, len, m, q, s);
  int h = 0, p0 = 0;
  for (; p0 + 8 <= len; p0 += 8) {
    int any = 0;
    for (int p = p0; p < p0 + 8; ++p) any |= s[p] <= bound;
    if (!any) continue;
    for (int p = p0; p < p0 + 8; ++p)
      if (s[p] <= bound) hits[h++] = p;
  }
  for (int p = p0; p < len; ++p)
    if (s[p] <= bound) hits[h++] = p;
  return h;
}

// ---- Scanning every node for a tile of queries (where a tree cannot prune: high dimension, or few nodes) ----
// Nodes in blocks of kBlock, dimension-major within a block; kTile queries share each block's loads. Every
// squared distance is summed over the coordinates in order (x_j - q_j, no fused multiply-add): bit for bit
// what sqdist gives, so the scan only changes which pairs are computed, never a value.
constexpr int kBlock = 8;
constexpr int kTile = 4;

#if defined(__GNUC__) || defined(__clang__)
#define VARMAP_LSP_VECTORS 1
typedef double v4d __attribute__((vector_size(32)));
#else
#define VARMAP_LSP_VECTORS 0
#endif

// s[t * kBlock + p]: squared distance from query t (q + t * m) to node p of the block (m x kBlock).
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void tile_block(const double* blk, int m, const double* q, double* s) {
#if VARMAP_LSP_VECTORS
  v4d a0 = {0, 0, 0, 0}, a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, d0 = a0, d1 = a0;
  const double *q0 = q, *q1 = q + m, *q2 = q + 2 * m, *q3 = q + 3 * m;
  for (int j = 0; j < m; ++j) {
    v4d x0, x1;
    __builtin_memcpy(&x0, blk + size_t(j) * kBlock, sizeof x0);
    __builtin_memcpy(&x1, blk + size_t(j) * kBlock + 4, sizeof x1);
    v4d t0 = x0 - q0[j], t1 = x1 - q0[j];
    a0 += t0 * t0, a1 += t1 * t1;
    t0 = x0 - q1[j], t1 = x1 - q1[j];
    b0 += t0 * t0, b1 += t1 * t1;
    t0 = x0 - q2[j], t1 = x1 - q2[j];
    c0 += t0 * t0, c1 += t1 * t1;
    t0 = x0 - q3[j], t1 = x1 - q3[j];
    d0 += t0 * t0, d1 += t1 * t1;
  }
  __builtin_memcpy(s, &a0, 32), __builtin_memcpy(s + 4, &a1, 32), __builtin_memcpy(s + 8, &b0, 32);
  __builtin_memcpy(s + 12, &b1, 32), __builtin_memcpy(s + 16, &c0, 32), __builtin_memcpy(s + 20, &c1, 32);
  __builtin_memcpy(s + 24, &d0, 32), __builtin_memcpy(s + 28, &d1, 32);
#else
  for (int e = 0; e < kTile * kBlock; ++e) s[e] = 0.0;
  for (int j = 0; j < m; ++j)
    for (int t = 0; t < kTile; ++t)
      for (int p = 0; p < kBlock; ++p) {
        const double d = blk[size_t(j) * kBlock + p] - q[size_t(t) * m + j];
        s[t * kBlock + p] += d * d;
      }
#endif
}

// The nodes of blocks [b0, b1) with s <= reach[node] (per-node bound) for each query t of the tile, ascending:
// appended to hk/hs[t * stride + h[t] ...] (stride >= kBlock * (b1 - b0)).
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void scan_reach(const double* xb, int b0, int b1, int m, const double* q, const double* reach, int32_t* hk, double* hs, size_t stride, int* h) {
  double s[kTile * kBlock];
  for (int b = b0; b < b1; ++b) {
    tile_block(xb + size_t(b) * m * kBlock, m, q, s);
    const double* r = reach + size_t(b) * kBlock;
    int any = 0;
    for (int t = 0; t < kTile; ++t)
      for (int p = 0; p < kBlock; ++p) any |= s[t * kBlock + p] <= r[p];
    if (!any) continue;
    for (int t = 0; t < kTile; ++t) {  // branch-free: every pair is written, the count advances on a hit
      int c = h[t];
      for (int p = 0; p < kBlock; ++p) {
        hk[t * stride + c] = b * kBlock + p, hs[t * stride + c] = s[t * kBlock + p];
        c += s[t * kBlock + p] <= r[p];
      }
      h[t] = c;
    }
  }
}

// As scan_reach with one bound per query (bound[t]).
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void scan_below(const double* xb, int b0, int b1, int m, const double* q, const double* bound, int32_t* hk, double* hs, size_t stride, int* h) {
  double s[kTile * kBlock];
  for (int b = b0; b < b1; ++b) {
    tile_block(xb + size_t(b) * m * kBlock, m, q, s);
    int any = 0;
    for (int t = 0; t < kTile; ++t)
      for (int p = 0; p < kBlock; ++p) any |= s[t * kBlock + p] <= bound[t];
    if (!any) continue;
    for (int t = 0; t < kTile; ++t) {
      int c = h[t];
      for (int p = 0; p < kBlock; ++p) {
        hk[t * stride + c] = b * kBlock + p, hs[t * stride + c] = s[t * kBlock + p];
        c += s[t * kBlock + p] <= bound[t];
      }
      h[t] = c;
    }
  }
}

// s[k] for every node k < n of the blocks: squared distances from one query (the fallback's scan of all nodes).
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void scan_all(const double* xb, int nb, int n, int m, const double* q, double* s) {
  double blk[kBlock];
  for (int b = 0; b < nb; ++b) {
    const double* x = xb + size_t(b) * m * kBlock;
    for (int p = 0; p < kBlock; ++p) blk[p] = 0.0;
    for (int j = 0; j < m; ++j)
      for (int p = 0; p < kBlock; ++p) {
        const double t = x[size_t(j) * kBlock + p] - q[j];
        blk[p] += t * t;
      }
    for (int p = 0; p < kBlock && b * kBlock + p < n; ++p) s[b * kBlock + p] = blk[p];
  }
}

// The nodes of X in blocks (padding nodes repeat node 0; callers exclude them by index or by a bound of -1).
struct NodeBlocks {
  int n, m, nb;
  std::vector<double> xb;
  NodeBlocks(const double* X, int n_, int m_) : n(n_), m(m_), nb((n_ + kBlock - 1) / kBlock), xb(size_t(nb) * m_ * kBlock) {
    for (int k = 0; k < nb * kBlock; ++k) {
      const double* x = X + size_t(k < n ? k : 0) * m;
      double* blk = &xb[size_t(k / kBlock) * m * kBlock + k % kBlock];
      for (int j = 0; j < m; ++j) blk[size_t(j) * kBlock] = x[j];
    }
  }
  // All n squared distances from q, in index order.
  void distances(const double* q, double* s) const { scan_all(xb.data(), nb, n, m, q, s); }
};

// A k-d tree over the rows of X (median splits on the widest coordinate). Cell c owns perm[lo[c] .. hi[c]);
// its left child holds coordinates <= split[c] on dimension dim[c], its right child >= split[c].
struct KdTree {
  const double* X;
  int m;
  std::vector<int32_t> perm, lo, hi, left, right, dim;
  std::vector<double> split, cellMax;  // cellMax: per-cell maximum of a per-point value (the radii)
  std::vector<double> reach2;          // per leaf position: that point's radius squared, with the pruning slack
  // Leaf coordinates copied contiguously, dimension-major within each leaf (xs[lo*m + j*len + p]), so a leaf's
  // distances are computed for all its points at once (vectorizable, no per-point branches).
  std::vector<double> xs;
  int maxLeaf = 0;
  int leafSize;

  KdTree(const double* X_, int n, int m_, int leafSize_ = kLeafSize) : X(X_), m(m_), perm(n), leafSize(leafSize_) {
    for (int i = 0; i < n; ++i) perm[i] = i;
    if (n > 0) build(0, n);
    xs.resize(size_t(n) * m);
    for (size_t c = 0; c < lo.size(); ++c) {
      if (left[c] >= 0) continue;
      const int len = hi[c] - lo[c];
      maxLeaf = std::max(maxLeaf, len);
      double* block = &xs[size_t(lo[c]) * m];
      for (int p = 0; p < len; ++p)
        for (int j = 0; j < m; ++j) block[size_t(j) * len + p] = X[size_t(perm[lo[c] + p]) * m + j];
    }
  }

  // s[p] = squared distance (LSHEP's sum order) from q to the p-th point of leaf c.
  void leafDistances(int c, const double* q, double* s) const {
    leaf_sqdist(&xs[size_t(lo[c]) * m], hi[c] - lo[c], m, q, s);
  }

  int build(int a, int b) {
    const int id = int(lo.size());
    lo.push_back(a), hi.push_back(b), left.push_back(-1), right.push_back(-1), dim.push_back(0), split.push_back(0.0);
    if (b - a <= leafSize) return id;
    int best = 0;
    double spread = -1.0;
    for (int j = 0; j < m; ++j) {
      double mn = X[size_t(perm[a]) * m + j], mx = mn;
      for (int i = a + 1; i < b; ++i) {
        const double v = X[size_t(perm[i]) * m + j];
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
      }
      if (mx - mn > spread) spread = mx - mn, best = j;
    }
    if (!(spread > 0.0)) return id;  // all points coincide: one leaf
    const int mid = a + (b - a) / 2;
    const double* Xc = X;
    const int mm = m, dd = best;
    std::nth_element(perm.begin() + a, perm.begin() + mid, perm.begin() + b, [Xc, mm, dd](int32_t p, int32_t q) {
      const double u = Xc[size_t(p) * mm + dd], v = Xc[size_t(q) * mm + dd];
      return u < v || (u == v && p < q);
    });
    dim[id] = best;
    split[id] = X[size_t(perm[mid]) * m + best];
    const int l = build(a, mid);
    const int r = build(mid, b);
    left[id] = l, right[id] = r;
    return id;
  }

  // Maximum of v over each cell's points (for the radius-of-influence search).
  void setCellMax(const double* v) {
    reach2.resize(perm.size());
    for (size_t p = 0; p < perm.size(); ++p) reach2[p] = v[perm[p]] * v[perm[p]] * kPruneSlack;
    cellMax.assign(lo.size(), 0.0);
    for (int c = int(lo.size()) - 1; c >= 0; --c) {
      if (left[c] < 0) {
        double mx = 0.0;
        for (int i = lo[c]; i < hi[c]; ++i) mx = std::max(mx, v[perm[i]]);
        cellMax[c] = mx;
      } else {
        cellMax[c] = std::max(cellMax[left[c]], cellMax[right[c]]);
      }
    }
  }
};

// LSHEP's SORT order: (squared distance, index).
inline bool nearer(double d, int32_t i, double e, int32_t j) { return d < e || (d == e && i < j); }

// Inserts (d, i) into the ascending list (d2, idx) of count <= k entries, dropping the k-th when full.
inline void insert_nearest(double d, int32_t i, int k, double* d2, int32_t* idx, int& count) {
  int s = count < k ? count++ : k - 1;
  while (s > 0 && nearer(d, i, d2[s - 1], idx[s - 1])) {
    d2[s] = d2[s - 1], idx[s] = idx[s - 1];
    --s;
  }
  d2[s] = d, idx[s] = i;
}

// The k nearest rows to row `self` (excluding it), ordered by (squared distance, index): LSHEP's SORT.
// Cells are visited nearest first with the incremental lower bound of Arya and Mount (off = per-dimension
// offsets of the current cell from q).
struct Knn {
  const KdTree& t;
  int k;
  const double* q;
  int self;
  double* d2;    // k squared distances, ascending
  int32_t* idx;  // their indices
  double* off;   // m offsets, zero on entry
  double* s;     // maxLeaf scratch distances
  int32_t* hits; // maxLeaf scratch positions
  int count = 0;
  long visits = 0;  // leaf points whose distance was computed (to choose between the tree and a scan)

  bool better(double d, int32_t i, int slot) const { return nearer(d, i, d2[slot], idx[slot]); }
  void offer(double d, int32_t i) { insert_nearest(d, i, k, d2, idx, count); }

  void search(int c, double lb) {
    if (t.left[c] < 0) {
      const int base = t.lo[c], len = t.hi[c] - base;
      // Candidates no farther than the current k-th (which only shrinks while the leaf is scanned).
      const double bound = count < k ? HUGE_VAL : d2[k - 1];
      visits += len;
      const int h = leaf_below(&t.xs[size_t(base) * t.m], len, t.m, q, bound, s, hits);
      for (int e = 0; e < h; ++e) {
        const int p = hits[e];
        const int32_t i = t.perm[base + p];
        if (i == self) continue;
        if (count < k || better(s[p], i, k - 1)) offer(s[p], i);
      }
      return;
    }
    const int j = t.dim[c];
    const double diff = q[j] - t.split[c];
    const int nearC = diff < 0.0 ? t.left[c] : t.right[c];
    const int farC = diff < 0.0 ? t.right[c] : t.left[c];
    search(nearC, lb);
    const double old = off[j];
    const double flb = lb - old * old + diff * diff;
    if (count < k || flb <= d2[k - 1] * kPruneSlack) {
      off[j] = diff;
      search(farC, flb);
      off[j] = old;
    }
  }
};

// Collects the nodes whose radius of influence covers q (|q - x_k| < rw[k], LSHEPVAL's test), visiting only
// cells whose largest radius can reach q.
struct Cover {
  const KdTree& t;
  const double* rw;
  const double* q;
  double* off;
  double* s;
  int32_t* hits;
  std::vector<std::pair<int32_t, double>>& out;  // (node, squared distance)
  long visits = 0;

  void search(int c, double lb) {
    const double r = t.cellMax[c];
    if (lb > r * r * kPruneSlack) return;
    if (t.left[c] < 0) {
      const int base = t.lo[c], len = t.hi[c] - base;
      // Candidates within reach (radius squared with slack), then LSHEPVAL's exact test.
      visits += len;
      const int h = leaf_within(&t.xs[size_t(base) * t.m], len, t.m, q, &t.reach2[base], s, hits);
      for (int i = 0; i < h; ++i) {
        const int p = hits[i];
        const int32_t k = t.perm[base + p];
        if (std::sqrt(s[p]) < rw[k]) out.emplace_back(k, s[p]);
      }
      return;
    }
    const int j = t.dim[c];
    const double diff = q[j] - t.split[c];
    const int nearC = diff < 0.0 ? t.left[c] : t.right[c];
    const int farC = diff < 0.0 ? t.right[c] : t.left[c];
    search(nearC, lb);
    const double old = off[j];
    off[j] = diff;
    search(farC, lb - old * old + diff * diff);
    off[j] = old;
  }
};

// The largest squared distance between two rows (LSHEP's DIAM, same rounding), given a lower bound `best` from
// an actual pair. Pairs are pruned by the triangle inequality through the centroid: |x_i - x_j| <= r_i + r_j
// (r = distance to the centroid), scanning rows by decreasing r, so only the few outermost pairs are computed.
double diameter2(const double* X, int n, int m, double best) {
  std::vector<double> c(m, 0.0), r(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) c[j] += X[size_t(i) * m + j];
  for (int j = 0; j < m; ++j) c[j] /= n;
  for (int i = 0; i < n; ++i) r[i] = std::sqrt(sqdist(X + size_t(i) * m, c.data(), m));
  std::vector<int32_t> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return r[a] > r[b] || (r[a] == r[b] && a < b); });
  for (int a = 0; a < n; ++a) {
    const int i = order[a];
    if ((r[i] + r[order[0]]) * kPruneSlack < std::sqrt(best)) break;
    for (int b = 0; b < a; ++b) {
      const int j = order[b];
      if ((r[i] + r[j]) * kPruneSlack < std::sqrt(best)) break;
      // LSHEP computes X(:,I) - X(:,K) for every ordered pair; the square makes the order irrelevant.
      best = std::max(best, sqdist(X + size_t(i) * m, X + size_t(j) * m, m));
    }
  }
  return best;
}

// Scratch for one node's local fit (NP neighbours in m dimensions).
// Squared relative distance under which the nearest other node counts as a duplicate (1e-6 in distance).
constexpr double kNearDuplicate2 = 1e-12;
// Rank tolerance of the local fits: SHEPPACK's NP·ε, but never below 1e-6. A neighbourhood flat to 1e-6 along a
// direction (a grid line whose points are offset by rounding noise) has no gradient information there; fitting
// one amplifies the noise by 1e6 and more (predictions of 1e14 on data of 1e2 in fuzzing, 1e6 times the data when
// the query lies off that line). No local system of the reference data comes near it: every golden is unchanged.
constexpr double kMinRcond = 1e-6;

struct NodeFit {
  int np, m;
  double rcond;
  std::vector<double> alpha, beta, omega, work;
  NodeFit(int np_, int m_)
      : np(np_), m(m_), rcond(std::max(np_ * kLstsqEps, kMinRcond)), alpha(size_t(np_) * m_), beta(np_), omega(np_), work(lstsq_work_size(np_, m_)) {}

  // LSHEP's local fit of node k of (X, f) from its NP nearest others (d2 ascending, idx their rows): writes
  // A[k], rw[k] = d_NP (before the diameter cap) and rank[k]. Returns OK, LSP_DUPLICATE_POINTS (node marked
  // rank -1) or LSP_LSTSQ_FAILED.
  int fit(const double* X, const double* f, int k, const double* d2, const int32_t* idx, double* A, double* rw, int32_t* rank) {
    const double* xk = X + size_t(k) * m;
    // A coincident node (LSHEP would divide by zero), or a nearly coincident one: closer than 1e-6 of the
    // neighbourhood's radius, its weight (R_p − d)/(R_p·d) swamps the local fit and predictions become garbage.
    if (d2[0] <= kNearDuplicate2 * d2[np - 1]) {
      rank[k] = -1;
      rw[k] = 0.0;
      for (int j = 0; j < m; ++j) A[size_t(k) * m + j] = 0.0;
      return LSP_DUPLICATE_POINTS;
    }
    for (int i = 0; i < np; ++i) {
      const double* xi = X + size_t(idx[i]) * m;
      for (int j = 0; j < m; ++j) alpha[size_t(i) * m + j] = xi[j] - xk[j];
      beta[i] = f[idx[i]] - f[k];
    }
    const double dnp = std::sqrt(d2[np - 1]);
    rw[k] = dnp;
    const double rp = 1.1 * dnp;
    for (int i = 0; i < np; ++i) {
      const double d = std::sqrt(d2[i]);
      omega[i] = (rp - d) / (rp * d);
    }
    int rk = 0;
    if (lstsq_solve(alpha.data(), beta.data(), omega.data(), np, m, rcond, A + size_t(k) * m, &rk, work.data()) != OK)
      return LSP_LSTSQ_FAILED;
    rank[k] = rk;
    return OK;
  }
};

// R_w = min(diameter / 2, d_NP). The diameter is only needed when some d_NP could exceed half of it: a double
// sweep gives a pair of nodes whose distance bounds the diameter from below; only if that is not enough is the
// exact (quadratic) maximum over all pairs computed.
void cap_radii(const double* X, int n, int m, double* rw) {
  double maxRw = 0.0;
  for (int k = 0; k < n; ++k) maxRw = std::max(maxRw, rw[k]);
  int a = 0;
  double best = -1.0;
  for (int i = 0; i < n; ++i) {
    const double d = sqdist(X + size_t(i) * m, X, m);
    if (d > best) best = d, a = i;
  }
  double lower = 0.0;
  for (int i = 0; i < n; ++i) lower = std::max(lower, sqdist(X + size_t(i) * m, X + size_t(a) * m, m));
  if (maxRw > std::sqrt(lower) / 2.0) {
    const double cap = std::sqrt(diameter2(X, n, m, lower)) / 2.0;
    for (int k = 0; k < n; ++k) rw[k] = std::min(cap, rw[k]);
  }
}

int check_radii(const double* rw, int n) {
  for (int k = 0; k < n; ++k)
    if (!(rw[k] > 0.0) || !std::isfinite(rw[k])) return LSP_BAD_RADIUS;
  return OK;
}

#if VARMAP_LSP_VECTORS
// Columns [j0, j0 + 4 NV) of weighted_rows, NV vectors of four sums held in registers over the whole pass.
template <int NV>
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void weighted_cols(const double* A, int m, const int32_t* cover, const double* w, int nc, int j0, double* out) {
  v4d acc[NV];
  for (int c = 0; c < NV; ++c) acc[c] = v4d{0, 0, 0, 0};
  for (int i = 0; i < nc; ++i) {
    const double* a = A + size_t(cover[i]) * m + j0;
    for (int c = 0; c < NV; ++c) {
      v4d x;
      __builtin_memcpy(&x, a + 4 * c, sizeof x);
      acc[c] += x * w[i];
    }
  }
  for (int c = 0; c < NV; ++c) __builtin_memcpy(out + j0 + 4 * c, &acc[c], sizeof acc[c]);
}
#endif

// out[j] = sum over i < nc of A[cover[i]][j] * w[i], each sum in i order from 0, for j < m: up to 32 columns
// per pass held in registers (summing into memory would wait on each store), the last m % 4 as scalars
// side by side.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void weighted_rows(const double* A, int m, const int32_t* cover, const double* w, int nc, double* out) {
  int j0 = 0;
#if VARMAP_LSP_VECTORS
  for (; j0 + 32 <= m; j0 += 32) weighted_cols<8>(A, m, cover, w, nc, j0, out);
  switch ((m - j0) / 4) {
    case 7: weighted_cols<7>(A, m, cover, w, nc, j0, out); break;
    case 6: weighted_cols<6>(A, m, cover, w, nc, j0, out); break;
    case 5: weighted_cols<5>(A, m, cover, w, nc, j0, out); break;
    case 4: weighted_cols<4>(A, m, cover, w, nc, j0, out); break;
    case 3: weighted_cols<3>(A, m, cover, w, nc, j0, out); break;
    case 2: weighted_cols<2>(A, m, cover, w, nc, j0, out); break;
    case 1: weighted_cols<1>(A, m, cover, w, nc, j0, out); break;
    default: break;
  }
  j0 += (m - j0) / 4 * 4;
#endif
  double s0 = 0.0, s1 = 0.0, s2 = 0.0;
  const int rest = m - j0;  // 0 to 3 (any number without vectors)
  if (rest > 3) {
    for (; j0 < m; ++j0) {
      double s = 0.0;
      for (int i = 0; i < nc; ++i) s += A[size_t(cover[i]) * m + j0] * w[i];
      out[j0] = s;
    }
    return;
  }
  for (int i = 0; i < nc; ++i) {
    const double* a = A + size_t(cover[i]) * m + j0;
    if (rest > 0) s0 += a[0] * w[i];
    if (rest > 1) s1 += a[1] * w[i];
    if (rest > 2) s2 += a[2] * w[i];
  }
  if (rest > 0) out[j0] = s0;
  if (rest > 1) out[j0 + 1] = s1;
  if (rest > 2) out[j0 + 2] = s2;
}

// Each node's hyperplane normal (a_k, -1) divided by its length, for LSHEPVAL's IER = 2 test: unit[k * m + j] =
// a_kj / nn_k and last[k] = -1 / nn_k, the very quotients the test forms, computed once per node instead of
// once per (query, covering node).
struct UnitNormals {
  std::vector<double> unit, last;
  UnitNormals(const double* A, int n, int m) : unit(size_t(n) * m), last(n) {
    for (int k = 0; k < n; ++k) {
      const double* ak = A + size_t(k) * m;
      double nn = 0.0;
      for (int j = 0; j < m; ++j) nn += ak[j] * ak[j];
      nn = std::sqrt(nn + 1.0);
      for (int j = 0; j < m; ++j) unit[size_t(k) * m + j] = ak[j] / nn;
      last[k] = -1.0 / nn;
    }
  }
};

// LSHEPVAL at one query q of the fitted (X, f, A, rw), given the nodes whose radius covers q in ascending
// order (cover, nc) and optionally their squared distances cs (else computed here): the weighted sum, f_k at
// a node, or the Shepard fallback when nc = 0. blocks (optional) serves the fallback's scan of all nodes;
// normals (optional) the IER = 2 test.
struct PointEval {
  int m;
  const NodeBlocks* blocks = nullptr;
  const UnitNormals* normals = nullptr;
  std::vector<double> sw, swc, slope, mean, D, all;
  std::vector<int32_t> ID, wid;
  explicit PointEval(int m_) : m(m_), slope(m_ + 1), mean(m_ + 1), D(m_ + 1), ID(m_ + 1) {}

  // LSHEPVAL's normalized weights at q (the evaluation below and lsp_weights share them): nodes in wid and
  // weights in sw (sw.size() >= max(nc, m + 1)); returns their count. The fallback (nc == 0, code 1) gives the
  // inverse-distance-squared weights of its m + 1 slots; a query at a node x_k (R_w - d == R_w) gives weight 1
  // there (code 3, LSHEPVAL returns f_k).
  int weights(const double* X, const double* rw, int n, const double* q, const int32_t* cover, const double* cs, int nc, int* code) {
    *code = 0;
    if (sw.size() < size_t(std::max(nc, m + 1))) sw.resize(std::max(nc, m + 1)), swc.resize(std::max(nc, m + 1)), wid.resize(std::max(nc, m + 1));
    if (nc == 0) {
      // LSHEPVAL's fallback, exactly: scan all nodes in index order keeping m + 1 slots of 1/d. The distances
      // are computed first (vectorized); 1/d is formed only where the squared distance is below farther, a
      // bound beyond which 1/d cannot exceed the smallest slot (far above rounding: (1/temp)^2 (1 + 1e-9)).
      all.resize(n);
      if (blocks) blocks->distances(q, all.data());
      else
        for (int k = 0; k < n; ++k) all[k] = sqdist(q, X + size_t(k) * m, m);
      std::fill(D.begin(), D.end(), 0.0);
      std::fill(ID.begin(), ID.end(), 0);
      int J = 0;
      double temp = 0.0, farther = HUGE_VAL;
      for (int k = 0; k < n; ++k) {
        if (all[k] > farther) continue;
        const double w = 1.0 / std::sqrt(all[k]);
        if (w > temp) {
          D[J] = w, ID[J] = k;
          J = 0;
          for (int s = 1; s <= m; ++s)
            if (D[s] < D[J]) J = s;
          temp = D[J];
          if (temp > 0.0) farther = (1.0 / temp) * (1.0 / temp) * (1.0 + 1e-9);
        }
      }
      double sum = 0.0;
      for (int s = 0; s <= m; ++s) D[s] *= D[s], sum += D[s];
      for (int s = 0; s <= m; ++s) sw[s] = D[s] / sum, wid[s] = ID[s];
      *code = 1;
      return m + 1;
    }
    double sum = 0.0;
    for (int i = 0; i < nc; ++i) {
      const int32_t k = cover[i];
      const double dist = std::sqrt(cs ? cs[i] : sqdist(q, X + size_t(k) * m, m));
      if (rw[k] - dist == rw[k]) {
        sw[0] = 1.0, wid[0] = k;
        *code = 3;
        return 1;
      }
      const double t = (rw[k] - dist) / (rw[k] * dist);
      sw[i] = t * t;
      wid[i] = k;
      sum += sw[i];
    }
    for (int i = 0; i < nc; ++i) sw[i] /= sum;
    return nc;
  }

  void run(const double* X, const double* f, const double* A, const double* rw, int n, const double* q,
           const int32_t* cover, const double* cs, int nc, double* out, int32_t* ierr) {
    *ierr = 0;
    int code = 0;
    const int nw = weights(X, rw, n, q, cover, cs, nc, &code);
    if (code == 1) {
      double v = 0.0;
      for (int s = 0; s < nw; ++s) v += sw[s] * f[wid[s]];
      *out = v;
      *ierr = 1;
      return;
    }
    if (code == 3) {
      *out = f[wid[0]];
      return;
    }
    // Each node's local linear value; four nodes at a time (independent sums, each in coordinate order) so
    // their additions overlap instead of waiting on one another.
    int i = 0;
    for (; i + 4 <= nc; i += 4) {
      const double *x0 = X + size_t(cover[i]) * m, *x1 = X + size_t(cover[i + 1]) * m, *x2 = X + size_t(cover[i + 2]) * m,
                   *x3 = X + size_t(cover[i + 3]) * m;
      const double *a0 = A + size_t(cover[i]) * m, *a1 = A + size_t(cover[i + 1]) * m, *a2 = A + size_t(cover[i + 2]) * m,
                   *a3 = A + size_t(cover[i + 3]) * m;
      double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
      for (int j = 0; j < m; ++j) {
        s0 += a0[j] * (q[j] - x0[j]);
        s1 += a1[j] * (q[j] - x1[j]);
        s2 += a2[j] * (q[j] - x2[j]);
        s3 += a3[j] * (q[j] - x3[j]);
      }
      swc[i] = s0 + f[cover[i]], swc[i + 1] = s1 + f[cover[i + 1]], swc[i + 2] = s2 + f[cover[i + 2]], swc[i + 3] = s3 + f[cover[i + 3]];
    }
    for (; i < nc; ++i) {
      const int32_t k = cover[i];
      const double* xk = X + size_t(k) * m;
      double s = 0.0;
      const double* ak = A + size_t(k) * m;
      for (int j = 0; j < m; ++j) s += ak[j] * (q[j] - xk[j]);
      swc[i] = s + f[k];
    }
    double v = 0.0;
    for (int e = 0; e < nc; ++e) v += sw[e] * swc[e];
    *out = v;
    // LSHEPVAL's IER = 2: the weighted mean normal (a, -1) against each node's, cosine below 0.9.
    weighted_rows(A, m, cover, sw.data(), nc, slope.data());
    slope[m] = 0.0;
    for (int i = 0; i < nc; ++i) slope[m] += -sw[i];
    double sn = 0.0;
    for (int j = 0; j <= m; ++j) sn += slope[j] * slope[j];
    sn = std::sqrt(sn);
    for (int j = 0; j <= m; ++j) mean[j] = slope[j] / sn;  // the mean unit normal: the test's quotients
    i = 0;
    if (normals) {  // four nodes at a time, as above
      for (; i + 4 <= nc; i += 4) {
        const double *u0 = &normals->unit[size_t(cover[i]) * m], *u1 = &normals->unit[size_t(cover[i + 1]) * m],
                     *u2 = &normals->unit[size_t(cover[i + 2]) * m], *u3 = &normals->unit[size_t(cover[i + 3]) * m];
        double d0 = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0;
        for (int j = 0; j < m; ++j) {
          d0 += mean[j] * u0[j];
          d1 += mean[j] * u1[j];
          d2 += mean[j] * u2[j];
          d3 += mean[j] * u3[j];
        }
        d0 += mean[m] * normals->last[cover[i]];
        d1 += mean[m] * normals->last[cover[i + 1]];
        d2 += mean[m] * normals->last[cover[i + 2]];
        d3 += mean[m] * normals->last[cover[i + 3]];
        if (d0 < 0.9 || d1 < 0.9 || d2 < 0.9 || d3 < 0.9) {
          *ierr = 2;
          return;
        }
      }
    }
    for (; i < nc; ++i) {
      double dot = 0.0;
      if (normals) {
        const double* u = &normals->unit[size_t(cover[i]) * m];
        for (int j = 0; j < m; ++j) dot += mean[j] * u[j];
        dot += mean[m] * normals->last[cover[i]];
      } else {
        const double* ak = A + size_t(cover[i]) * m;
        double nn = 0.0;
        for (int j = 0; j < m; ++j) nn += ak[j] * ak[j];
        nn = std::sqrt(nn + 1.0);
        for (int j = 0; j < m; ++j) dot += mean[j] * (ak[j] / nn);
        dot += mean[m] * (-1.0 / nn);
      }
      if (dot < 0.9) {
        *ierr = 2;
        return;
      }
    }
  }
};

// The tree prunes well in few dimensions and hardly at all in many (in 20 it computes nearly every distance,
// with its bookkeeping on top), where scanning all nodes kTile queries at a time is several times faster. The
// first kProbe searches run on the tree; if they computed more than n / kScanShare distances each on average,
// the rest scan. Both give the same nodes and the same distances, so the choice only changes speed.
constexpr int kProbe = 32;
constexpr long kScanShare = 4;

// Whether an evaluation's tree is worth building and probing: its cells must be split about one and a half
// times per coordinate (n >= kLeafSize 2^(1.5 m)); below that (uniform data: 8 or more dimensions at 10,000
// nodes) the probe would switch to the scan anyway, after paying for the tree.
inline bool tree_may_prune(int n, int m) { return n > kScanAll && double(n) >= kLeafSize * std::pow(2.0, 1.5 * m); }

// The nodes whose radius covers each query (LSHEPVAL's |q - x_k| < R_w(k)), ascending, with their squared
// distances: the one search lsp_eval and lsp_weights share.
class CoverSearch {
 public:
  CoverSearch(const double* X, const double* rw, int n, int m) : X_(X), rw_(rw), n_(n), m_(m), blocks_(X, n, m) {
    reach_.assign(size_t(blocks_.nb) * kBlock, -1.0);  // padding nodes are never in reach
    for (int k = 0; k < n; ++k) reach_[k] = rw[k] * rw[k] * kPruneSlack;
    if (tree_may_prune(n, m)) {
      tree_.reset(new KdTree(X, n, m));
      tree_->setCellMax(rw);
      off_.assign(m, 0.0), scratch_.resize(tree_->maxLeaf), hits_.resize(tree_->maxLeaf);
    }
  }
  const NodeBlocks& blocks() const { return blocks_; }

  // visit(iq, cover, s, nc) for every row iq of Q (nq x m), in order.
  template <class Visit>
  void each(const double* Q, int nq, Visit visit) {
    int iq = 0;
    if (tree_) {
      long visits = 0;
      for (; iq < nq && !(iq == kProbe && visits > kProbe * (n_ / kScanShare)); ++iq) {
        pairs_.clear();
        Cover c{*tree_, rw_, Q + size_t(iq) * m_, off_.data(), scratch_.data(), hits_.data(), pairs_};
        c.search(0, 0.0);
        visits += c.visits;
        std::sort(pairs_.begin(), pairs_.end());
        cover_.clear(), dist_.clear();
        for (const auto& e : pairs_) cover_.push_back(e.first), dist_.push_back(e.second);
        visit(iq, cover_.data(), dist_.data(), int(cover_.size()));
      }
      if (iq == nq) return;
    }
    const size_t stride = size_t(blocks_.nb) * kBlock;
    hk_.resize(kTile * stride), hs_.resize(kTile * stride);
    tileQ_.resize(size_t(kTile) * m_);
    for (; iq < nq; iq += kTile) {
      const int nt = std::min(kTile, nq - iq);
      for (int t = 0; t < kTile; ++t)  // a short last tile repeats its last query
        for (int j = 0; j < m_; ++j) tileQ_[size_t(t) * m_ + j] = Q[size_t(iq + std::min(t, nt - 1)) * m_ + j];
      int h[kTile] = {0, 0, 0, 0};
      scan_reach(blocks_.xb.data(), 0, blocks_.nb, m_, tileQ_.data(), reach_.data(), hk_.data(), hs_.data(), stride, h);
      for (int t = 0; t < nt; ++t) {
        // LSHEPVAL's exact test on the candidates within reach, compacted in place.
        int32_t* k = &hk_[t * stride];
        double* d = &hs_[t * stride];
        int c = 0;
        for (int e = 0; e < h[t]; ++e) {
          k[c] = k[e], d[c] = d[e];
          c += std::sqrt(d[e]) < rw_[k[e]];
        }
        visit(iq + t, k, d, c);
      }
    }
  }

 private:
  const double* X_;
  const double* rw_;
  int n_, m_;
  NodeBlocks blocks_;
  std::vector<double> reach_, off_, scratch_, dist_, hs_, tileQ_;
  std::unique_ptr<KdTree> tree_;
  std::vector<int32_t> hits_, cover_, hk_;
  std::vector<std::pair<int32_t, double>> pairs_;
};

// One subset of lsp_subsets: the fit of lsp_fit on the training rows tr (ascending) and the evaluation of
// lsp_eval at the query rows qr, with neighbours and covering nodes read from the point set's neighbour table
// instead of searched. Scratch is kept between subsets.
struct SubsetPass {
  const double* X;
  const double* f;
  int N, m, K;
  const int32_t* nbr;
  const double* nd2;
  std::vector<int32_t> posOf, slotOf;  // per row of X: its training position / first query position, or -1
  std::vector<double> Xs, fs, d2, off, scratch;
  std::vector<int32_t> idx, hits, pairQ, pairK, start, cover;
  PointEval point;

  SubsetPass(const double* X_, const double* f_, int N_, int m_, const int32_t* nbr_, const double* nd2_, int K_)
      : X(X_), f(f_), N(N_), m(m_), K(K_), nbr(nbr_), nd2(nd2_), posOf(N_, -1), slotOf(N_, -1), point(m_) {}

  int run(const int32_t* tr, int n, const int32_t* qr, int nq, double* A, double* rw, int32_t* rank, double* out, int32_t* ierr) {
    // The training set gathered in its order: exactly what lsp_fit would be given.
    Xs.resize(size_t(n) * m), fs.resize(n);
    for (int t = 0; t < n; ++t) {
      for (int j = 0; j < m; ++j) Xs[size_t(t) * m + j] = X[size_t(tr[t]) * m + j];
      fs[t] = f[tr[t]];
    }
    int st = fit(tr, n, A, rw, rank);
    if (st != OK) return st;
    return eval(tr, n, qr, nq, A, rw, out, ierr);
  }

  int fit(const int32_t* tr, int n, double* A, double* rw, int32_t* rank) {
    if (!all_finite(Xs.data(), size_t(n) * m) || !all_finite(fs.data(), size_t(n))) return NONFINITE;
    if (n <= m + 1) return LSP_TOO_FEW_POINTS;
    const int np = std::min(n - 1, (3 * m + 1) / 2);
    NodeFit node(np, m);
    d2.resize(np), idx.resize(np);
    for (int t = 0; t < n; ++t) posOf[tr[t]] = t;
    std::unique_ptr<KdTree> tree;
    bool duplicates = false;
    int st = OK;
    for (int t = 0; t < n && st == OK; ++t) {
      // The table lists the other rows by (distance, row); training rows ascend with their positions, so its
      // first NP training rows are LSHEP's neighbours with its tie order.
      const int32_t* nb = nbr + size_t(tr[t]) * K;
      const double* nd = nd2 + size_t(tr[t]) * K;
      int c = 0;
      for (int e = 0; e < K && c < np; ++e) {
        const int p = posOf[nb[e]];
        if (p >= 0) d2[c] = nd[e], idx[c] = p, ++c;
      }
      if (c < np) {  // too few training rows among this row's K nearest: search a k-d tree of the training set
        if (!tree) {
          tree.reset(new KdTree(Xs.data(), n, m));
          off.assign(m, 0.0), scratch.resize(tree->maxLeaf), hits.resize(tree->maxLeaf);
        }
        Knn{*tree, np, Xs.data() + size_t(t) * m, t, d2.data(), idx.data(), off.data(), scratch.data(), hits.data()}.search(0, 0.0);
      }
      const int r = node.fit(Xs.data(), fs.data(), t, d2.data(), idx.data(), A, rw, rank);
      if (r == LSP_DUPLICATE_POINTS) duplicates = true;
      else st = r;
    }
    for (int t = 0; t < n; ++t) posOf[tr[t]] = -1;
    if (st != OK) return st;
    if (duplicates) return LSP_DUPLICATE_POINTS;
    cap_radii(Xs.data(), n, m, rw);
    return OK;
  }

  int eval(const int32_t* tr, int n, const int32_t* qr, int nq, const double* A, const double* rw, double* out, int32_t* ierr) {
    if (!all_finite(A, size_t(n) * m)) return NONFINITE;
    for (int i = 0; i < nq; ++i)
      if (!all_finite(X + size_t(qr[i]) * m, m)) return NONFINITE;
    if (check_radii(rw, n) != OK) return LSP_BAD_RADIUS;
    for (int i = 0; i < nq; ++i)
      if (slotOf[qr[i]] < 0) slotOf[qr[i]] = i;
    // (query, node) for every node covering a query row (|q - x_k| < R_w): the rows in reach of node k are a
    // prefix of its table. Nodes are visited in ascending order, so each query's nodes come out ascending.
    pairQ.clear(), pairK.clear();
    for (int t = 0; t < n; ++t) {
      const int32_t g = tr[t];
      const double r = rw[t];
      const size_t mark = pairQ.size();
      if (slotOf[g] >= 0) pairQ.push_back(slotOf[g]), pairK.push_back(t);  // the node's own row: distance 0
      const int32_t* nb = nbr + size_t(g) * K;
      const double* nd = nd2 + size_t(g) * K;
      int e = 0;
      for (; e < K && std::sqrt(nd[e]) < r; ++e)
        if (slotOf[nb[e]] >= 0) pairQ.push_back(slotOf[nb[e]]), pairK.push_back(t);
      if (e == K && K < N - 1) {  // the radius reaches past the table: test every query row
        pairQ.resize(mark), pairK.resize(mark);
        for (int i = 0; i < nq; ++i)
          if (slotOf[qr[i]] == i && std::sqrt(sqdist(X + size_t(qr[i]) * m, Xs.data() + size_t(t) * m, m)) < r)
            pairQ.push_back(i), pairK.push_back(t);
      }
    }
    // Group by query (a stable counting sort keeps each query's nodes ascending).
    start.assign(size_t(nq) + 1, 0);
    for (int32_t q : pairQ) ++start[q + 1];
    for (int i = 0; i < nq; ++i) start[i + 1] += start[i];
    cover.resize(pairQ.size());
    for (size_t e = 0; e < pairQ.size(); ++e) cover[start[pairQ[e]]++] = pairK[e];
    for (int i = nq; i > 0; --i) start[i] = start[i - 1];
    start[0] = 0;
    for (int i = 0; i < nq; ++i) {
      const int first = slotOf[qr[i]];
      if (first < i) {  // a repeated query row: the same result
        out[i] = out[first], ierr[i] = ierr[first];
        continue;
      }
      point.run(Xs.data(), fs.data(), A, rw, n, X + size_t(qr[i]) * m, cover.data() + start[i], nullptr, start[i + 1] - start[i], out + i, ierr + i);
    }
    for (int i = 0; i < nq; ++i) slotOf[qr[i]] = -1;
    return OK;
  }
};

}  // namespace

int lsp_fit(const double* X, const double* f, int32_t n, int32_t m, double* A, double* rw, int32_t* rank) {
  if (n < 0 || m < 1) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * m) || !all_finite(f, size_t(n))) return NONFINITE;
  if (n <= m + 1) return LSP_TOO_FEW_POINTS;
  const int np = std::min(n - 1, (3 * m + 1) / 2);
  KdTree tree(X, n, m);
  NodeFit node(np, m);
  std::vector<double> d2(size_t(kTile) * np);
  std::vector<int32_t> idx(size_t(kTile) * np);
  std::vector<double> off(m, 0.0), scratch(tree.maxLeaf);
  std::vector<int32_t> hits(tree.maxLeaf);
  bool duplicates = false;
  auto fitNode = [&](int k, const double* kd2, const int32_t* kidx) {
    const int st = node.fit(X, f, k, kd2, kidx, A, rw, rank);
    if (st == LSP_DUPLICATE_POINTS) duplicates = true;
    return st == LSP_DUPLICATE_POINTS ? OK : st;
  };
  // Neighbours from the tree while it prunes (see kProbe), else from a scan of all nodes, kTile rows at once.
  long visits = 0;
  int k = 0;
  for (; k < n && !(k == kProbe && visits > kProbe * (n / kScanShare)); ++k) {
    Knn knn{tree, np, X + size_t(k) * m, k, d2.data(), idx.data(), off.data(), scratch.data(), hits.data()};
    knn.search(0, 0.0);
    visits += knn.visits;
    const int st = fitNode(k, d2.data(), idx.data());
    if (st != OK) return st;
  }
  if (k < n) {
    const NodeBlocks blocks(X, n, m);
    // Blocks per scan call: the bounds (each row's current NP-th distance) tighten between calls.
    constexpr int kChunk = 16;
    const size_t stride = size_t(kChunk) * kBlock;
    std::vector<int32_t> hk(kTile * stride);
    std::vector<double> hs(kTile * stride), tileQ(size_t(kTile) * m);
    for (; k < n; k += kTile) {
      const int nt = std::min(kTile, n - k);
      int count[kTile] = {0, 0, 0, 0};
      double bound[kTile];
      for (int t = 0; t < kTile; ++t)
        for (int j = 0; j < m; ++j) tileQ[size_t(t) * m + j] = X[size_t(k + std::min(t, nt - 1)) * m + j];
      for (int b0 = 0; b0 < blocks.nb; b0 += kChunk) {
        for (int t = 0; t < kTile; ++t) bound[t] = count[t] < np ? HUGE_VAL : d2[size_t(t) * np + np - 1];
        int h[kTile] = {0, 0, 0, 0};
        scan_below(blocks.xb.data(), b0, std::min(blocks.nb, b0 + kChunk), m, tileQ.data(), bound, hk.data(), hs.data(), stride, h);
        for (int t = 0; t < nt; ++t) {
          double* td2 = &d2[size_t(t) * np];
          int32_t* tidx = &idx[size_t(t) * np];
          for (int e = 0; e < h[t]; ++e) {
            const int32_t i = hk[t * stride + e];
            const double d = hs[t * stride + e];
            if (i >= n || i == k + t) continue;
            if (count[t] < np || nearer(d, i, td2[np - 1], tidx[np - 1])) insert_nearest(d, i, np, td2, tidx, count[t]);
          }
        }
      }
      for (int t = 0; t < nt; ++t) {
        const int st = fitNode(k + t, &d2[size_t(t) * np], &idx[size_t(t) * np]);
        if (st != OK) return st;
      }
    }
  }
  if (duplicates) return LSP_DUPLICATE_POINTS;
  cap_radii(X, n, m, rw);
  return OK;
}

int lsp_eval(const double* X, const double* f, const double* A, const double* rw, int32_t n, int32_t m,
             const double* Q, int32_t nq, double* out, int32_t* ierr) {
  if (n < 1 || m < 1 || nq < 0) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * m) || !all_finite(f, size_t(n)) || !all_finite(A, size_t(n) * m) ||
      !all_finite(Q, size_t(nq) * m))
    return NONFINITE;
  if (check_radii(rw, n) != OK) return LSP_BAD_RADIUS;
  CoverSearch search(X, rw, n, m);
  const UnitNormals normals(A, n, m);
  PointEval point(m);
  point.blocks = &search.blocks(), point.normals = &normals;
  search.each(Q, nq, [&](int iq, const int32_t* cover, const double* s, int nc) {
    point.run(X, f, A, rw, n, Q + size_t(iq) * m, cover, s, nc, out + iq, ierr + iq);
  });
  return OK;
}

int lsp_weights(const double* X, const double* rw, int32_t n, int32_t m, const double* Q, int32_t nq, int32_t cap,
                int32_t* count, int32_t* code, int32_t* idx, double* w) {
  if (n < 1 || m < 1 || nq < 0 || cap < m + 1) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * m) || !all_finite(Q, size_t(nq) * m)) return NONFINITE;
  if (check_radii(rw, n) != OK) return LSP_BAD_RADIUS;
  CoverSearch search(X, rw, n, m);
  PointEval point(m);
  point.blocks = &search.blocks();
  bool full = false;
  // (Queries after one that overflows cap are still visited but not written: the kernel reports the capacity.)
  search.each(Q, nq, [&](int iq, const int32_t* cover, const double* s, int nc) {
    if (full) return;
    int c = 0;
    const int nw = point.weights(X, rw, n, Q + size_t(iq) * m, cover, s, nc, &c);
    count[iq] = nw, code[iq] = c;
    if (nw > cap) {
      full = true;
      return;
    }
    for (int e = 0; e < nw; ++e) idx[size_t(iq) * cap + e] = point.wid[e], w[size_t(iq) * cap + e] = point.sw[e];
  });
  return full ? int(LSP_WEIGHTS_CAPACITY) : int(OK);
}

int lsp_neighbors(const double* X, int32_t n, int32_t m, int32_t K, int32_t* nbr, double* nd2) {
  if (n < 2 || m < 1 || K < 1 || K > n - 1) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * m)) return NONFINITE;
  // All rows dimension-major, so one row's distances to every row are one vectorized block scan (LSHEP's sum
  // order, as leaf_sqdist computes it).
  std::vector<double> xt(size_t(n) * m), d(n), others(n - 1);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) xt[size_t(j) * n + i] = X[size_t(i) * m + j];
  struct Entry {
    double d;
    int32_t i;
  };
  std::vector<Entry> sel;
  sel.reserve(K);
  for (int i = 0; i < n; ++i) {
    leaf_sqdist(xt.data(), n, m, X + size_t(i) * m, d.data());
    // The K-th smallest distance t to the others; then every row below t and the lowest rows at t that fill K:
    // the first K rows in (distance, row) order.
    int c = 0;
    for (int j = 0; j < n; ++j)
      if (j != i) others[c++] = d[j];
    std::nth_element(others.begin(), others.begin() + (K - 1), others.end());
    const double t = others[K - 1];
    int at = K;
    for (int j = 0; j < n; ++j) at -= j != i && d[j] < t;
    sel.clear();
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      if (d[j] < t) sel.push_back({d[j], j});
      else if (d[j] == t && at > 0) sel.push_back({d[j], j}), --at;
    }
    std::sort(sel.begin(), sel.end(), [](const Entry& a, const Entry& b) { return a.d < b.d || (a.d == b.d && a.i < b.i); });
    for (int e = 0; e < K; ++e) nbr[size_t(i) * K + e] = sel[e].i, nd2[size_t(i) * K + e] = sel[e].d;
  }
  return OK;
}

int lsp_subsets(const double* X, const double* f, int32_t N, int32_t m, const int32_t* nbr, const double* nd2, int32_t K,
                int32_t S, const int32_t* trainOff, const int32_t* train, const int32_t* queryOff, const int32_t* query,
                double* A, double* rw, int32_t* rank, int32_t* status, double* out, int32_t* ierr) {
  if (N < 2 || m < 1 || K < 1 || K > N - 1 || S < 0 || trainOff[0] != 0 || queryOff[0] != 0) return BAD_ARGUMENT;
  for (int s = 0; s < S; ++s) {
    if (trainOff[s + 1] < trainOff[s] || queryOff[s + 1] < queryOff[s]) return BAD_ARGUMENT;
    for (int t = trainOff[s]; t < trainOff[s + 1]; ++t)
      if (train[t] < 0 || train[t] >= N || (t > trainOff[s] && train[t] <= train[t - 1])) return BAD_ARGUMENT;
    for (int t = queryOff[s]; t < queryOff[s + 1]; ++t)
      if (query[t] < 0 || query[t] >= N) return BAD_ARGUMENT;
  }
  for (size_t e = 0; e < size_t(N) * K; ++e)
    if (nbr[e] < 0 || nbr[e] >= N) return BAD_ARGUMENT;
  SubsetPass pass(X, f, N, m, nbr, nd2, K);
  for (int s = 0; s < S; ++s) {
    const int t0 = trainOff[s], q0 = queryOff[s];
    status[s] = pass.run(train + t0, trainOff[s + 1] - t0, query + q0, queryOff[s + 1] - q0, A + size_t(t0) * m, rw + t0,
                         rank + t0, out + q0, ierr + q0);
  }
  return OK;
}

}  // namespace varmap
