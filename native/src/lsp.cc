#include "varmap/lsp.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "varmap/lstsq.h"
#include "varmap/status.h"

namespace varmap {
namespace {

constexpr int kLeafSize = 16;
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


// Squared distances from q to the len points of a dimension-major block, each summed over the coordinates in
// order (the same rounding as a plain loop). On x86-64 Linux an AVX2 clone is chosen at load time when the CPU
// has it (4 points per instruction); AVX2 without FMA, so products and sums are rounded exactly as in the
// default clone and both agree bit for bit.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void leaf_sqdist(const double* block, int len, int m, const double* q, double* s) {
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

// A k-d tree over the rows of X (median splits on the widest coordinate). Cell c owns perm[lo[c] .. hi[c]);
// its left child holds coordinates <= split[c] on dimension dim[c], its right child >= split[c].
struct KdTree {
  const double* X;
  int m;
  std::vector<int32_t> perm, lo, hi, left, right, dim;
  std::vector<double> split, cellMax;  // cellMax: per-cell maximum of a per-point value (the radii)
  // Leaf coordinates copied contiguously, dimension-major within each leaf (xs[lo*m + j*len + p]), so a leaf's
  // distances are computed for all its points at once (vectorizable, no per-point branches).
  std::vector<double> xs;
  int maxLeaf = 0;

  KdTree(const double* X_, int n, int m_) : X(X_), m(m_), perm(n) {
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
    if (b - a <= kLeafSize) return id;
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
  int count = 0;

  bool better(double d, int32_t i, int slot) const { return d < d2[slot] || (d == d2[slot] && i < idx[slot]); }

  void offer(double d, int32_t i) {
    int s = count < k ? count++ : k - 1;
    while (s > 0 && better(d, i, s - 1)) {
      d2[s] = d2[s - 1], idx[s] = idx[s - 1];
      --s;
    }
    d2[s] = d, idx[s] = i;
  }

  void search(int c, double lb) {
    if (t.left[c] < 0) {
      t.leafDistances(c, q, s);
      const int base = t.lo[c], len = t.hi[c] - base;
      for (int p = 0; p < len; ++p) {
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
  std::vector<int32_t>& out;

  void search(int c, double lb) {
    const double r = t.cellMax[c];
    if (lb > r * r * kPruneSlack) return;
    if (t.left[c] < 0) {
      t.leafDistances(c, q, s);
      const int base = t.lo[c], len = t.hi[c] - base;
      for (int p = 0; p < len; ++p) {
        const int32_t k = t.perm[base + p];
        if (s[p] <= rw[k] * rw[k] * kPruneSlack && std::sqrt(s[p]) < rw[k]) out.push_back(k);
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

}  // namespace

int lsp_fit(const double* X, const double* f, int32_t n, int32_t m, double* A, double* rw, int32_t* rank) {
  if (n < 0 || m < 1) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * m) || !all_finite(f, size_t(n))) return NONFINITE;
  if (n <= m + 1) return LSP_TOO_FEW_POINTS;
  const int np = std::min(n - 1, (3 * m + 1) / 2);
  const double rcond = np * kLstsqEps;
  KdTree tree(X, n, m);
  std::vector<double> d2(np), alpha(size_t(np) * m), beta(np), omega(np), work(lstsq_work_size(np, m));
  std::vector<int32_t> idx(np);
  std::vector<double> off(m, 0.0), scratch(tree.maxLeaf);
  bool duplicates = false;
  double maxRw = 0.0;
  for (int k = 0; k < n; ++k) {
    const double* xk = X + size_t(k) * m;
    Knn knn{tree, np, xk, k, d2.data(), idx.data(), off.data(), scratch.data()};
    knn.search(0, 0.0);
    if (d2[0] == 0.0) {  // a coincident node: LSHEP would divide by zero
      duplicates = true;
      rank[k] = -1;
      rw[k] = 0.0;
      for (int j = 0; j < m; ++j) A[size_t(k) * m + j] = 0.0;
      continue;
    }
    for (int i = 0; i < np; ++i) {
      const double* xi = X + size_t(idx[i]) * m;
      for (int j = 0; j < m; ++j) alpha[size_t(i) * m + j] = xi[j] - xk[j];
      beta[i] = f[idx[i]] - f[k];
    }
    const double dnp = std::sqrt(d2[np - 1]);
    rw[k] = dnp;
    maxRw = std::max(maxRw, dnp);
    const double rp = 1.1 * dnp;
    for (int i = 0; i < np; ++i) {
      const double d = std::sqrt(d2[i]);
      omega[i] = (rp - d) / (rp * d);
    }
    int rk = 0;
    if (lstsq_solve(alpha.data(), beta.data(), omega.data(), np, m, rcond, A + size_t(k) * m, &rk, work.data()) != OK)
      return LSP_LSTSQ_FAILED;
    rank[k] = rk;
  }
  if (duplicates) return LSP_DUPLICATE_POINTS;

  // R_w = min(diameter / 2, d_NP). The diameter is only needed when some d_NP could exceed half of it: a
  // double sweep gives a pair of nodes whose distance bounds the diameter from below; only if that is not
  // enough is the exact (quadratic) maximum over all pairs computed.
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
  return OK;
}

int lsp_eval(const double* X, const double* f, const double* A, const double* rw, int32_t n, int32_t m,
             const double* Q, int32_t nq, double* out, int32_t* ierr) {
  if (n < 1 || m < 1 || nq < 0) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * m) || !all_finite(f, size_t(n)) || !all_finite(A, size_t(n) * m) ||
      !all_finite(Q, size_t(nq) * m))
    return NONFINITE;
  for (int k = 0; k < n; ++k)
    if (!(rw[k] > 0.0) || !std::isfinite(rw[k])) return LSP_BAD_RADIUS;
  KdTree tree(X, n, m);
  tree.setCellMax(rw);
  std::vector<int32_t> cover;
  cover.reserve(64);
  std::vector<double> sw, swc, slope(m + 1);
  std::vector<double> off(m, 0.0), scratch(tree.maxLeaf);
  std::vector<double> D(m + 1);
  std::vector<int32_t> ID(m + 1);
  for (int iq = 0; iq < nq; ++iq) {
    const double* q = Q + size_t(iq) * m;
    // Every node whose radius covers q.
    cover.clear();
    Cover{tree, rw, q, off.data(), scratch.data(), cover}.search(0, 0.0);
    ierr[iq] = 0;
    if (cover.empty()) {
      // LSHEPVAL's fallback, exactly: scan all nodes in index order keeping m + 1 slots of 1/d.
      std::fill(D.begin(), D.end(), 0.0);
      std::fill(ID.begin(), ID.end(), 0);
      int J = 0;
      double temp = 0.0;
      for (int k = 0; k < n; ++k) {
        const double w = 1.0 / std::sqrt(sqdist(q, X + size_t(k) * m, m));
        if (w > temp) {
          D[J] = w, ID[J] = k;
          J = 0;
          for (int s = 1; s <= m; ++s)
            if (D[s] < D[J]) J = s;
          temp = D[J];
        }
      }
      double sum = 0.0;
      for (int s = 0; s <= m; ++s) D[s] *= D[s], sum += D[s];
      double v = 0.0;
      for (int s = 0; s <= m; ++s) v += (D[s] / sum) * f[ID[s]];
      out[iq] = v;
      ierr[iq] = 1;
      continue;
    }
    std::sort(cover.begin(), cover.end());
    sw.resize(cover.size()), swc.resize(cover.size());
    bool atNode = false;
    double sum = 0.0;
    for (size_t i = 0; i < cover.size(); ++i) {
      const int32_t k = cover[i];
      const double* xk = X + size_t(k) * m;
      const double dist = std::sqrt(sqdist(q, xk, m));
      if (rw[k] - dist == rw[k]) {
        out[iq] = f[k];
        atNode = true;
        break;
      }
      const double t = (rw[k] - dist) / (rw[k] * dist);
      sw[i] = t * t;
      double s = 0.0;
      const double* ak = A + size_t(k) * m;
      for (int j = 0; j < m; ++j) s += ak[j] * (q[j] - xk[j]);
      swc[i] = s + f[k];
      sum += sw[i];
    }
    if (atNode) continue;
    double v = 0.0;
    for (size_t i = 0; i < cover.size(); ++i) {
      sw[i] /= sum;
      v += sw[i] * swc[i];
    }
    out[iq] = v;
    // LSHEPVAL's IER = 2: the weighted mean normal (a, -1) against each node's, cosine below 0.9.
    std::fill(slope.begin(), slope.end(), 0.0);
    for (size_t i = 0; i < cover.size(); ++i) {
      const double* ak = A + size_t(cover[i]) * m;
      for (int j = 0; j < m; ++j) slope[j] += ak[j] * sw[i];
      slope[m] += -sw[i];
    }
    double sn = 0.0;
    for (int j = 0; j <= m; ++j) sn += slope[j] * slope[j];
    sn = std::sqrt(sn);
    for (size_t i = 0; i < cover.size(); ++i) {
      const double* ak = A + size_t(cover[i]) * m;
      double nn = 0.0;
      for (int j = 0; j < m; ++j) nn += ak[j] * ak[j];
      nn = std::sqrt(nn + 1.0);
      double dot = 0.0;
      for (int j = 0; j < m; ++j) dot += (slope[j] / sn) * (ak[j] / nn);
      dot += (slope[m] / sn) * (-1.0 / nn);
      if (dot < 0.9) {
        ierr[iq] = 2;
        break;
      }
    }
  }
  return OK;
}

}  // namespace varmap
