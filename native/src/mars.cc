// MARS fitted the way R's earth 5.3 does it (earth.c ForwardPass/FindTerm/FindKnot, leaps backward pruning),
// written afresh from the published algorithm. Candidate order, tie rules (strict ">" so the first candidate
// wins), the Fast MARS queue (including its indexing), span formulas and tolerances follow earth so that the
// same data give the same model. Arrays are column-major inside: x[i + j*n], bx[i + t*n].
#include "varmap/mars.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "varmap/status.h"

#ifdef VARMAP_MARS_TRACE  // debugging aid for comparing choices with earth's trace=7 output; never built by default
#include <cstdio>
#define MARS_TRACE(...) std::fprintf(stderr, __VA_ARGS__)
#else
#define MARS_TRACE(...) ((void)0)
#endif

namespace varmap {
namespace {

constexpr double kMinGrsq = -10.0;
constexpr double kQrTol = 1e-8;       // rank tolerance of the linear-dependence check (as R's lm)
constexpr double kMinBxSos = 0.01;    // a candidate column with less residual sum of squares is unusable
constexpr double kAlmostZero = 1e-10;
constexpr int kMaxDegree = 100;
constexpr size_t kMaxBetaCache = size_t(1) << 24;  // doubles (128 MiB)
const double kInf = std::numeric_limits<double>::infinity();

inline double sq(double v) { return v * v; }
inline double maybe_zero(double v) { return (v > -kAlmostZero && v < kAlmostZero) ? 0.0 : v; }

double mean_of(const double* v, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += v[i];
  return s / double(n);
}

// A sum kept as an unevaluated pair hi + lo (Knuth's TwoSum), to round like an extended-precision sum.
struct DoubleDouble {
  double hi = 0, lo = 0;
  void add(double v) {
    const double s = hi + v;
    const double bb = s - hi;
    lo += (hi - (s - bb)) + (v - bb);
    hi = s;
  }
  double value() const { return hi + lo; }
  // (hi + lo) / d rounded once, via an exact product q*d (Dekker's TwoProduct without FMA).
  double divided_by(double d) const {
    const double q = hi / d;
    const double split = 134217729.0;  // 2^27 + 1
    double t = split * q;
    const double qh = t - (t - q), ql = q - qh;
    t = split * d;
    const double dh = t - (t - d), dl = d - dh;
    const double p = q * d;
    const double pe = ((qh * dh - p) + qh * dl + ql * dh) + ql * dl;
    return q + (((hi - p) - pe) + lo) / d;
  }
};

// One entry of the Fast MARS parent queue. Entries are indexed 0..nQ-1 and entry k always names parent k,
// even after a single (unpaired) term makes term and queue indices diverge: earth does the same.
struct QEntry {
  int parent;
  double rssDelta;
  int nTermsForRssDelta;
  double agedRank;
};

bool by_rss(const QEntry& a, const QEntry& b) {  // true if a sorts before b
  if (a.rssDelta != b.rssDelta) return a.rssDelta > b.rssDelta;
  return a.parent < b.parent;
}
bool by_aged(const QEntry& a, const QEntry& b) {
  if (a.agedRank != b.agedRank) return a.agedRank < b.agedRank;
  return by_rss(a, b);
}
template <typename Less>
void insertion_sort(std::vector<QEntry>& v, int n, Less less) {
  for (int i = 1; i < n; ++i) {
    QEntry e = v[i];
    int j = i - 1;
    while (j >= 0 && less(e, v[j])) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = e;
  }
}

// FindKnot's per-case update: covSx += b1*ct, then covCol += dx*covSx, skipping the halves that are exact
// no-ops (b1 == 0 outside the parent's support, dx == 0 between tied x values): the same rounding as the
// fused loop, much faster on gridded inputs. Compiled also for AVX2 (chosen at run time where the CPU has it):
// element-wise mul/add without FMA round exactly as SSE2 does, so results do not depend on the CPU.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx2", "default")))
#endif
void update_covariances(double* __restrict covSx, double* __restrict covCol, const double* __restrict ct, double b1,
                        double dx, int nc) {
  if (b1 != 0 && dx != 0) {
    for (int k = 0; k < nc; ++k) {
      covSx[k] += b1 * ct[k];
      covCol[k] += dx * covSx[k];
    }
  } else if (b1 != 0) {
    for (int k = 0; k < nc; ++k) covSx[k] += b1 * ct[k];
  } else if (dx != 0) {
    for (int k = 0; k < nc; ++k) covCol[k] += dx * covSx[k];
  }
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
template <typename T>
using Buffer = std::unique_ptr<T[], FreeDeleter>;
template <typename T>
Buffer<T> alloc_buffer(size_t n, bool zeroed) {
  void* p = zeroed ? std::calloc(n ? n : 1, sizeof(T)) : std::malloc((n ? n : 1) * sizeof(T));
  if (!p) throw std::bad_alloc();
  return Buffer<T>(static_cast<T*>(p));
}

struct Options {
  int degree, nk, minspan, endspan, fastK;
  double thresh, penalty, fastBeta, newvarPenalty, adjustEndspan;
  bool autoLinpreds, scaleY;
};

class ForwardPass {
 public:
  ForwardPass(const double* x, const double* y, size_t n, int d, const Options& o)
      : x_(x), y_(y), n_(n), d_(d), M_(o.nk), o_(o) {
    const size_t M = size_t(M_);
    // n x nk buffers from calloc/malloc: fresh pages are only touched for the terms actually created, which
    // matters when nk is large (200) and the forward pass stops early
    bx = alloc_buffer<double>(n * M, true);
    dirs.assign(M * d, 0);
    cuts.assign(M * d, 0.0);
    fullSet.assign(M, 0);
    degree.assign(M, 0);
    nUses.assign(d, 0);
    bxOrth_ = alloc_buffer<double>(n * M, false);    // every column is written before it is read
    // bxOrthCT rows are per case with a stride that grows with the model: FindKnot reads one short row per
    // case, and a stride of nk (200) would spread those reads over 8x more cache lines than needed
    ctStride_ = std::min(M, size_t(32));
    bxOrthCT_ = alloc_buffer<double>(ctStride_ * n, false);
    bxOrthMean_.assign(M, 0.0);
    // the beta cache saves dot products but needs nk^2 * d doubles: skip it when that is large (results are
    // identical either way: a cached beta is the value that would be recomputed)
    if (M * M * size_t(d) <= kMaxBetaCache) {
      betaCache_ = alloc_buffer<double>(M * M * size_t(d), false);
      cacheCount_.assign(M * size_t(d), 0);
    }
    if (n * M * size_t(d) <= kMaxBetaCache) {
      residCache_.resize(M * size_t(d));
      residCount_.assign(M * size_t(d), 0);
    }
    xbx_.assign(n, 0.0);
    covSx_.assign(M, 0.0);
    covCol_.assign(M, 0.0);
    ycbo_.assign(M, 0.0);
    q_.resize(M);
    sortedQ_.resize(M);
    order_.resize(n * d);
    for (int j = 0; j < d; ++j) {  // stable ascending order of each predictor (ties by case index)
      int* o2 = &order_[size_t(j) * n];
      for (size_t i = 0; i < n; ++i) o2[i] = int(i);
      const double* xj = x + size_t(j) * n;
      std::stable_sort(o2, o2 + n, [xj](int a, int b) { return xj[a] < xj[b]; });
    }
  }

  void run() {
    const size_t n = n_;
    for (size_t i = 0; i < n; ++i) bx[i] = 1.0;
    bool good;
    init_orth_col(&good, &bx[0], 0, -1, -1);
    fullSet[0] = 1;
    yMean_ = mean_of(y_, n);
    double rssNull = 0;
    for (size_t i = 0; i < n; ++i) rssNull += sq(y_[i] - yMean_);
    if (rssNull < 1e-8 * double(n)) rssNull = 1e-8 * double(n);
    double rss = rssNull, rssDelta = rssNull, rsq = 0, rsqDelta = 0;
    int nUsedTerms = 1;
    double gcv = 0;
    const double gcvNull = get_gcv(nUsedTerms, rssNull);
    nFastK_ = o_.fastK <= 0 ? 10001 : std::max(o_.fastK, 3);
    for (int k = 0; k < M_; ++k) q_[k] = {k, -1.0, -99, -1.0};
    nQ_ = 0;
    add_to_queue(0, 1, rssNull, true);
    int nTerms = 1, bestCase = -1;
    if (M_ >= 3) {
      for (;;) {
        int bestPred = -1, bestParent = -1;
        bool isNewForm = false, linBest = false;
        const double maxLegal = std::min(1.01 * rss, 10 * rssDelta);
        find_term(&bestCase, &bestPred, &bestParent, &rssDelta, &isNewForm, &linBest, nTerms, rss, maxLegal);
        if (!o_.autoLinpreds) linBest = false;
        if (bestCase >= 0) add_term_pair(nTerms, bestParent, bestCase, bestPred, linBest, &isNewForm);
        MARS_TRACE("STEP nTerms %d parent %d pred %d case %d lin %d delta %.17g\n", nTerms, bestParent, bestPred, bestCase, int(linBest), rssDelta);
        const bool isPair = bestCase > 0 && isNewForm;
        nUsedTerms += isPair ? 2 : 1;
        rss = maybe_zero(rss - rssDelta);
        gcv = get_gcv(nUsedTerms, rss);
        const double old = rsq;
        rsq = 1 - rss / rssNull;
        rsqDelta = maybe_zero(rsq - old);
        if (bestCase < 0 || (o_.thresh != 0 && rsqDelta < o_.thresh) ||
            (o_.thresh != 0 && 1 - gcv / gcvNull < kMinGrsq)) {
          fullSet[nTerms] = 0;
          if (nTerms + 1 < M_) fullSet[nTerms + 1] = 0;
          break;
        }
        if (!linBest && isNewForm) {
          add_to_queue(nTerms, nTerms, kInf, false);
          add_to_queue(nTerms + 1, nTerms, kInf, true);
        } else {
          add_to_queue(nTerms, nTerms, kInf, true);
        }
        nTerms += 2;
        if (rsq >= 1 - o_.thresh) break;
        if (nTerms >= M_ - 1) break;
      }
    }
    nTerms_ = nTerms;
    forwardRsq = rsq;
    termCond = epilog(nTerms, rsq, rsqDelta, gcv, gcvNull, bestCase);
  }

  int nTerms() const { return nTerms_; }

  Buffer<double> bx;
  std::vector<int> dirs;       // dirs[t*d + j]
  std::vector<double> cuts;    // cuts[t*d + j]
  std::vector<char> fullSet;
  std::vector<int> degree;
  std::vector<int> nUses;
  int termCond = 0;
  double forwardRsq = 0;

 private:
  double get_gcv(int nTerms, double rss) const {
    double cost = 0;
    if (o_.penalty != -1) cost = (nTerms + o_.penalty * ((double(nTerms) - 1) / 2)) / double(n_);
    return cost >= 1 ? kInf : rss / (double(n_) * sq(1 - cost));
  }

  int epilog(int nTerms, double rsq, double rsqDelta, double gcv, double gcvNull, int bestCase) const {
    (void)nTerms;
    const double grsq = 1 - gcv / gcvNull;
    if (M_ < 3) return 1;
    if (o_.thresh != 0 && grsq < kMinGrsq) return grsq < -1000 ? 2 : 3;
    if (o_.thresh != 0 && rsqDelta < o_.thresh) return 4;
    if (rsq >= 1 - o_.thresh) return 5;
    if (bestCase < 0) return 6;
    return 7;
  }

  // Fast MARS queue (Friedman 1993): parents sorted by their last best RSS reduction, aged by how long ago
  // that was computed; only the first fastK are searched.
  void add_to_queue(int term, int nTerms, double rssDelta, bool sort) {
    q_[nQ_].nTermsForRssDelta = nTerms;
    q_[nQ_].rssDelta = std::max(q_[term].rssDelta, rssDelta);
    ++nQ_;
    if (!sort) return;
    for (int k = 0; k < nQ_; ++k) sortedQ_[k] = q_[k];
    insertion_sort(sortedQ_, nQ_, by_rss);
    if (o_.fastBeta > 0) {
      for (int r = 0; r < nQ_; ++r)
        sortedQ_[r].agedRank = r + o_.fastBeta * (nTerms - sortedQ_[r].nTermsForRssDelta);
      insertion_sort(sortedQ_, nQ_, by_aged);
    }
  }

  // Puts the (normalized, orthogonalized) column col of bx-like values y into bxOrth[:, t].
  void init_orth_col(bool* good, const double* v, int t, int cacheParent, int pred) {
    const size_t n = n_;
    double* o = &bxOrth_[size_t(t) * n];
    *good = true;
    if (t == 0) {
      const double len = 1 / std::sqrt(double(n));
      for (size_t i = 0; i < n; ++i) o[i] = len;
      bxOrthMean_[0] = len;
    } else if (t == 1) {
      const double m = mean_of(v, n);
      for (size_t i = 0; i < n; ++i) o[i] = v[i] - m;
    } else {
      orthog_residuals(o, v, t, cacheParent, pred);
    }
    if (t > 0) {
      double ss = 0;
      for (size_t i = 0; i < n; ++i) ss += o[i] * o[i];
      if (ss <= kMinBxSos) *good = false;
      if (cacheParent < 0) MARS_TRACE("orth col %d residual ss %.6g\n", t, ss);
      if (ss > (cacheParent < 0 ? 0 : kMinBxSos)) {
        bxOrthMean_[t] = mean_of(o, n);
        const double len = std::sqrt(ss);
        for (size_t i = 0; i < n; ++i) o[i] /= len;
      } else {
        bxOrthMean_[t] = 0;
        std::fill(o, o + n, 0.0);
      }
    }
    ensure_ct_rows(size_t(t) + 1);
    const size_t S = ctStride_;
    for (size_t i = 0; i < n; ++i) bxOrthCT_[size_t(t) + i * S] = o[i] - bxOrthMean_[t];
  }

  // Grows the row stride of bxOrthCT to hold `rows` terms (doubling, at most nk), keeping its contents.
  void ensure_ct_rows(size_t rows) {
    if (rows <= ctStride_) return;
    const size_t S = std::min(size_t(M_), std::max(rows, 2 * ctStride_));
    Buffer<double> grown = alloc_buffer<double>(S * n_, false);
    for (size_t i = 0; i < n_; ++i) std::memcpy(&grown[i * S], &bxOrthCT_[i * ctStride_], ctStride_ * sizeof(double));
    bxOrthCT_ = std::move(grown);
    ctStride_ = S;
  }

  // Modified Gram-Schmidt of v against the used columns 0..t-1 of bxOrth; betas cached per (parent, pred).
  void orthog_residuals(double* out, const double* v, int t, int cacheParent, int pred) {
    const size_t n = n_;
    // betas of (parent, pred) against columns k < count are cached (columns never change once created)
    double* cache = nullptr;
    int* count = nullptr;
    if (cacheParent >= 0 && betaCache_) {
      cache = &betaCache_[size_t(cacheParent) * M_ + size_t(pred) * M_ * M_];
      count = &cacheCount_[size_t(cacheParent) + size_t(pred) * M_];
    }
    // the residual itself is also kept per (parent, pred) when memory allows, so a later step continues the
    // Gram-Schmidt sweep from the columns it has already removed (the same operations in the same order)
    std::vector<double>* resid = nullptr;
    int first = 0;
    if (cacheParent >= 0 && !residCache_.empty()) {
      const size_t idx = size_t(cacheParent) + size_t(pred) * M_;
      resid = &residCache_[idx];
      if (resid->empty()) {
        resid->assign(v, v + n);
        residCount_[idx] = 0;
      }
      first = residCount_[idx];
      std::memcpy(out, resid->data(), n * sizeof(double));
    } else {
      std::memcpy(out, v, n * sizeof(double));
    }
    for (int k = first; k < t; ++k) {
      if (!fullSet[k]) continue;
      const double* b = &bxOrth_[size_t(k) * n];
      double beta;
      if (cache && k < *count) {
        beta = cache[k];
      } else {
        double s = 0;
        for (size_t i = 0; i < n; ++i) s += b[i] * out[i];
        beta = s;
        if (cache) cache[k] = beta;
      }
      for (size_t i = 0; i < n; ++i) out[i] -= beta * b[i];
    }
    if (count && *count < t) *count = t;
    if (resid && first < t) {
      std::memcpy(resid->data(), out, n * sizeof(double));
      residCount_[size_t(cacheParent) + size_t(pred) * M_] = t;
    }
  }

  // earth's GetNewFormFlag: false when every used term already has this predictor with the parent's others.
  bool new_form(int pred, int parent, int nTerms) const {
    bool isNew = true;
    for (int i = 1; i < nTerms; ++i) {
      if (!fullSet[i]) continue;
      isNew = false;
      if (dirs[size_t(i) * d_ + pred] == 0) return true;
      for (int j = 0; j < d_; ++j)
        if (j != pred && (dirs[size_t(i) * d_ + j] != 0) != (dirs[size_t(parent) * d_ + j] != 0)) return true;
    }
    return isNew;
  }

  int end_span(int termDegree) const {
    int e = 1;
    if (o_.endspan > 0) e = o_.endspan;
    else e = int(7.32193 + std::log(double(d_)) / 0.69315);  // Friedman 1991 eq. 45 as earth codes it
    if (termDegree >= 2) e += int(o_.adjustEndspan * e + .5);
    const int half = int(n_) / 2 - 1;
    if (e > half) e = half;
    return std::max(1, e);
  }

  void span_params(int* minSpan, int* endSpan, int* startSpan, int termDegree, int parent) const {
    const int n = int(n_);
    const int e = end_span(termDegree);
    int start = 0, ms = 0;
    if (o_.minspan < 0) {
      ms = int(std::ceil(double(n) / (1. - o_.minspan)));
      start = ms;
      while (start < e) start += ms;
      start = std::max(1, start - 1);
    } else {
      if (o_.minspan > 0) {
        ms = o_.minspan;
      } else {
        int nUsed = 0;  // Nm: cases where the parent is non-zero (Friedman 1991 eq. 43)
        const double* p = &bx[size_t(parent) * n_];
        for (int i = 0; i < n; ++i)
          if (p[i] > 0) ++nUsed;
        ms = int((2.9702 + std::log(double(d_ * nUsed))) / 1.7329);
      }
      ms = std::max(1, ms);
      const int avail = std::max(0, n - 2 * e);
      start = avail / 2;
      if (avail > ms) {
        const int nDiv = avail / ms;
        start = (avail == nDiv * ms) ? ms / 2 : (avail - nDiv * ms) / 2;
      }
      start = std::max(1, e + start);
    }
    *minSpan = ms;
    *endSpan = e;
    *startSpan = start;
  }

  void find_term(int* bestCase, int* bestPred, int* bestParent, double* bestDelta, bool* isNewForm, bool* linBest,
                 int nTerms, double rssBefore, double maxLegal) {
    (void)rssBefore;
    const size_t n = n_;
    *bestCase = -1;
    *bestDelta = 0;
    *linBest = false;
    *isNewForm = false;
    for (int t = 0; t < M_; ++t) ycbo_[t] = 0;
    for (int t = 0; t < nTerms; ++t) {
      const double* o = &bxOrth_[size_t(t) * n];
      double s = 0;
      for (size_t i = 0; i < n; ++i) s += (y_[i] - yMean_) * o[i];
      ycbo_[t] = s;
    }
    const int nParents = std::min(nQ_, nFastK_);
    for (int iq = 0; iq < nParents; ++iq) {
      const int parent = sortedQ_[iq].parent;
      double bestForParent = -1;
      if (degree[parent] >= o_.degree) continue;
      int minSpan, endSpan, startSpan;
      span_params(&minSpan, &endSpan, &startSpan, degree[parent] + 1, parent);
      find_pred_given_parent(bestCase, bestPred, bestParent, bestDelta, &bestForParent, isNewForm, linBest, parent,
                             nTerms, maxLegal, minSpan, endSpan, startSpan);
      q_[parent].nTermsForRssDelta = nTerms;
      q_[parent].rssDelta = bestForParent;
    }
  }

  void find_pred_given_parent(int* bestCase, int* bestPred, int* bestParent, double* bestDelta,
                              double* bestForParent, bool* isNewFormOut, bool* linBest, int parent, int nTerms,
                              double maxLegal, int minSpan, int endSpan, int startSpan) {
    bool updated = false;
    for (int pred = 0; pred < d_; ++pred) {
      if (dirs[size_t(parent) * d_ + pred] != 0) continue;  // predictor already in the parent
      const double adjust = 1 / (1 + (nUses[pred] == 0 ? o_.newvarPenalty : 0));
      double deltaLin = 0, unadjustedLin = 0;
      bool isNew = new_form(pred, parent, nTerms);
      if (isNew) {
        unadjustedLin = add_candidate_linear(&isNew, pred, parent, nTerms);
        MARS_TRACE("lin parent %d pred %d delta %.17g\n", parent, pred, unadjustedLin);
        deltaLin = adjust * unadjustedLin;
        if (deltaLin > *bestForParent) *bestForParent = deltaLin;
        if (deltaLin > *bestDelta) {
          updated = true;
          *bestDelta = deltaLin;
          *linBest = true;
          *bestCase = 0;
          *bestPred = pred;
          *bestParent = parent;
        }
      }
      double pairDelta = deltaLin;
      int knotCase = -1;
      find_knot(&knotCase, &pairDelta, isNew ? nTerms + 1 : nTerms, parent, pred, unadjustedLin, maxLegal, startSpan,
                minSpan, endSpan, adjust);
      if (pairDelta > *bestForParent) *bestForParent = pairDelta;
      if (pairDelta > *bestDelta) {
        updated = true;
        *bestDelta = pairDelta;
        *linBest = false;
        *bestCase = knotCase;
        *bestPred = pred;
        *bestParent = parent;
        *isNewFormOut = isNew;
      }
    }
    if (updated && o_.newvarPenalty != 0 && nUses[*bestPred] == 0) *bestDelta *= 1 + o_.newvarPenalty;
  }

  // Candidate term parent * x[pred] at column nTerms: its RSS reduction is the base a knot must beat.
  double add_candidate_linear(bool* isNew, int pred, int parent, int nTerms) {
    const size_t n = n_;
    const double* xp = x_ + size_t(pred) * n;
    const double* p = &bx[size_t(parent) * n];
    for (size_t i = 0; i < n; ++i) xbx_[i] = xp[i] * p[i];
    init_orth_col(isNew, xbx_.data(), nTerms, parent, pred);
    const double* o = &bxOrth_[size_t(nTerms) * n];
    double s = 0, yo = 0;
    for (size_t i = 0; i < n; ++i) s += (y_[i] - yMean_) * o[i];
    ycbo_[nTerms] = s;
    for (size_t i = 0; i < n; ++i) yo += y_[i] * o[i];
    return yo * yo;
  }

  // Scans knots from the largest x down, updating in O(nTerms) per case the covariances of the hinge
  // parent * max(0, x - knot) with the orthonormal basis and with y (Friedman 1991 sec. 3.9 / earth FindKnot).
  void find_knot(int* bestCase, double* pairDelta, int newCol, int parent, int pred, double deltaLinUnadj,
                 double maxLegal, int startSpan, int minSpan, int endSpan, double adjust) {
    const size_t n = n_;
    const double tol = newCol < 15 ? .01 : 1e-5;
    const size_t S = ctStride_;
    double* covCol = covCol_.data();
    double* covSx = covSx_.data();
    double* ycbo = ycbo_.data();
    ycbo[newCol] = 0;
    for (int k = 0; k <= newCol; ++k) covCol[k] = covSx[k] = 0;
    double ybxSum = 0, bxSum = 0, bxSqSum = 0, bxSqxSum = 0, bxxSum = 0, st = 0;
    int span = startSpan;
    double dot1 = 0, dot2 = 0;  // ycbo.covCol and covCol.covCol over the existing columns
    bool covStale = true;
    const int* ord = &order_[size_t(pred) * n];
    const double* xp = x_ + size_t(pred) * n;
    const double* par = &bx[size_t(parent) * n];
    const double nn = double(n);
    for (int i = int(n) - 2; i >= endSpan; --i) {
      const int ix0 = ord[i];
      const double x0 = xp[ix0];
      const int ix1 = ord[i + 1];
      const double x1 = xp[ix1];
      const double b1 = par[ix1];
      const double bSq = b1 * b1;
      const double dx = x1 - x0;
      const double* ct = &bxOrthCT_[size_t(ix1) * S];
      update_covariances(covSx, covCol, ct, b1, dx, newCol);
      if (dx != 0) covStale = true;
      bxSum += b1;
      bxSqSum += bSq;
      bxxSum += b1 * x1;
      bxSqxSum += bSq * x1;
      const double su = st;
      st = bxxSum - bxSum * x0;
      covCol[newCol] += dx * (2 * bxSqxSum - bxSqSum * (x0 + x1)) + (su * su - st * st) / nn;
      ybxSum += (y_[ix1] - yMean_) * b1;
      ycbo[newCol] += dx * ybxSum;
      if (b1 > 0 && covCol[newCol] > 0 && --span == 0) {
        span = minSpan;
        if (covStale) {  // covCol[0..newCol) changes only when dx != 0: reuse the dots between tied knots
          dot1 = dot2 = 0;
          for (int k = 0; k < newCol; ++k) dot1 += ycbo[k] * covCol[k];
          for (int k = 0; k < newCol; ++k) dot2 += covCol[k] * covCol[k];
          covStale = false;
        }
        const double t1 = ycbo[newCol] - dot1;
        const double t2 = covCol[newCol] - dot2;
        double delta = 0;
        if (t2 / covCol[newCol] > tol) delta = t1 * t1 / t2;
        delta = adjust * (deltaLinUnadj + delta);
        MARS_TRACE("knot parent %d pred %d case %d cut %.9g delta %.17g\n", parent, pred, i, x0, delta);
        if (delta > *pairDelta && delta < maxLegal) {
          *bestCase = i;
          *pairDelta = delta;
        }
      }
    }
  }

  void add_term_pair(int nTerms, int parent, int bestCase, int pred, bool linBest, bool* isNewForm) {
    const size_t n = n_;
    const int t1 = nTerms + 1;
    for (int j = 0; j < d_; ++j) {
      dirs[size_t(nTerms) * d_ + j] = dirs[size_t(t1) * d_ + j] = dirs[size_t(parent) * d_ + j];
      cuts[size_t(nTerms) * d_ + j] = cuts[size_t(t1) * d_ + j] = cuts[size_t(parent) * d_ + j];
    }
    degree[nTerms] = degree[t1] = degree[parent] + 1;
    const int dirEntry = linBest ? 2 : 1;
    dirs[size_t(nTerms) * d_ + pred] = dirEntry;
    dirs[size_t(t1) * d_ + pred] = -1;
    const int* ord = &order_[size_t(pred) * n];
    const double* xp = x_ + size_t(pred) * n;
    const double cut = xp[ord[bestCase]];
    cuts[size_t(nTerms) * d_ + pred] = cuts[size_t(t1) * d_ + pred] = cut;
    double* c0 = &bx[size_t(nTerms) * n];
    double* c1 = &bx[size_t(t1) * n];
    const double* p = &bx[size_t(parent) * n];
    if (dirEntry == 2) {
      for (size_t i = 0; i < n; ++i) c0[i] = p[i] * xp[i];
    } else {
      for (size_t i = 0; i < n; ++i) {
        const int io = ord[i];
        if (int(i) > bestCase) c0[io] = p[io] * (xp[io] - cut);
        else c1[io] = p[io] * (cut - xp[io]);
      }
    }
    nUses[pred]++;
    fullSet[nTerms] = 1;
    bool good;
    init_orth_col(&good, c0, nTerms, -1, pred);
    if (!linBest && *isNewForm) fullSet[t1] = 1;
    if (fullSet[t1]) init_orth_col(&good, c1, t1, -1, pred);
    if (!fullSet[t1]) {  // an unused upper term can never be a parent
      degree[t1] = kMaxDegree + 1;
      double* o = &bxOrth_[size_t(t1) * n];
      std::fill(o, o + n, 0.0);
      bxOrthMean_[t1] = 0;
      ensure_ct_rows(size_t(t1) + 1);
      for (size_t i = 0; i < n; ++i) bxOrthCT_[size_t(t1) + i * ctStride_] = 0;
    }
  }

  const double* x_;
  const double* y_;
  size_t n_;
  int d_, M_;
  Options o_;
  double yMean_ = 0;
  int nTerms_ = 1, nQ_ = 0, nFastK_ = 0;
  std::vector<int> order_;
  Buffer<double> bxOrth_, bxOrthCT_, betaCache_;
  size_t ctStride_ = 0;
  std::vector<int> cacheCount_, residCount_;
  std::vector<std::vector<double>> residCache_;
  std::vector<double> bxOrthMean_, xbx_, covSx_, covCol_, ycbo_;
  std::vector<QEntry> q_, sortedQ_;
};

// Householder QR of the columns `cols` of A (n rows, column-major), with LINPACK dqrdc2's limited pivoting:
// a column whose remaining norm falls below kQrTol times its original norm moves to the end. Returns the
// rank; `order` receives the column order (dependent ones last); R is rank x rank (column-major, ldr = k);
// qty = Q'y (n values).
struct Qr {
  int rank = 0;
  std::vector<int> order;
  std::vector<double> R, qty;
};

Qr householder_qr(const double* A, size_t n, const std::vector<int>& cols, const double* y, bool pivot) {
  const int k = int(cols.size());
  std::vector<double> W(n * size_t(k));
  std::vector<double> orig(k);
  Qr r;
  r.order = cols;
  for (int c = 0; c < k; ++c) {
    std::memcpy(&W[size_t(c) * n], A + size_t(cols[c]) * n, n * sizeof(double));
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += sq(W[size_t(c) * n + i]);
    orig[c] = std::sqrt(s) == 0 ? 1 : std::sqrt(s);
  }
  r.qty.assign(y, y + n);
  int lup = k;  // columns not (yet) found negligible
  const int steps = int(std::min<size_t>(size_t(k), n));
  for (int l = 0; l < steps; ++l) {
    if (pivot) {  // cycle negligible columns to the end, as dqrdc2 does
      for (;;) {
        if (l >= lup) break;
        double s = 0;
        const double* w = &W[size_t(l) * n];
        for (size_t i = size_t(l); i < n; ++i) s += w[i] * w[i];
        MARS_TRACE("qr col %d (term %d) remaining norm ratio %.3e\n", l, r.order[l], std::sqrt(s) / orig[l]);
        if (std::sqrt(s) >= orig[l] * kQrTol) break;
        std::vector<double> tmp(w, w + n);
        const double o = orig[l];
        const int id = r.order[l];
        for (int c = l; c < k - 1; ++c) {
          std::memcpy(&W[size_t(c) * n], &W[size_t(c + 1) * n], n * sizeof(double));
          orig[c] = orig[c + 1];
          r.order[c] = r.order[c + 1];
        }
        std::memcpy(&W[size_t(k - 1) * n], tmp.data(), n * sizeof(double));
        orig[k - 1] = o;
        r.order[k - 1] = id;
        --lup;
      }
      if (l >= lup) break;
    }
    double* w = &W[size_t(l) * n];
    double s = 0;
    for (size_t i = size_t(l); i < n; ++i) s += w[i] * w[i];
    double nrm = std::sqrt(s);
    if (nrm == 0) continue;
    if (w[l] < 0) nrm = -nrm;
    for (size_t i = size_t(l); i < n; ++i) w[i] /= nrm;
    w[l] += 1;
    for (int c = l + 1; c < k; ++c) {  // apply the reflection to the remaining columns and to y
      double* v = &W[size_t(c) * n];
      double t = 0;
      for (size_t i = size_t(l); i < n; ++i) t -= w[i] * v[i];
      t /= w[l];
      for (size_t i = size_t(l); i < n; ++i) v[i] += t * w[i];
    }
    double t = 0;
    for (size_t i = size_t(l); i < n; ++i) t -= w[i] * r.qty[i];
    t /= w[l];
    for (size_t i = size_t(l); i < n; ++i) r.qty[i] += t * w[i];
    w[l] = -nrm;  // diagonal of R
  }
  r.rank = std::min(lup, steps);
  const int rk = r.rank;
  r.R.assign(size_t(rk) * rk, 0.0);
  for (int c = 0; c < rk; ++c)
    for (int i = 0; i <= c; ++i) r.R[size_t(c) * rk + i] = W[size_t(c) * n + i];
  return r;
}

// Backward elimination as leaps' BAKWRD does it for earth (intercept forced in; at each size drop the term
// whose removal raises the RSS least, first position on ties). R (m x m upper, column-major) and z = Q'y are
// updated by Givens rotations. Like leaps' REPORT, every prefix of the current variable order is a candidate
// subset of its size (the initial order's prefixes too, as INITR records them), and each size keeps the
// candidate with the lowest RSS, so the subsets need not be nested. rssVec[s-1] = RSS of the best subset of
// size s; subsets[s-1] lists its columns (positions into the original order).
void backward_eliminate(std::vector<double> R, std::vector<double> z, int m, double rssFull, double* rssVec,
                        std::vector<std::vector<int>>& subsets) {
  std::vector<int> pos(m);
  for (int i = 0; i < m; ++i) pos[i] = i;
  double rss = rssFull;  // RSS of the whole current active set
  subsets.assign(m, {});
  auto report = [&](int fromSize, int toSize, bool initial) {
    double tail = 0;  // RSS of prefix s = rss + sum_{i >= s} z[i]^2 over the active set
    const int k = int(pos.size());
    std::vector<double> prefixRss(k + 1);
    prefixRss[k] = rss;
    for (int s = k - 1; s >= 1; --s) {
      tail += z[s] * z[s];
      prefixRss[s] = rss + tail;
    }
    for (int s = fromSize; s <= toSize; ++s)
      if (initial || prefixRss[s] < rssVec[s - 1]) {
        rssVec[s - 1] = prefixRss[s];
        subsets[s - 1].assign(pos.begin(), pos.begin() + s);
      }
  };
  report(1, m, true);
  std::vector<double> Rinv(size_t(m) * m);
  for (int k = m; k >= 2; --k) {
    // Rinv = R^-1 (upper triangular), by back substitution column by column
    for (int c = 0; c < k; ++c) {
      for (int i = c; i >= 0; --i) {
        double s = (i == c) ? 1.0 : 0.0;
        for (int j = i + 1; j <= c; ++j) s -= R[size_t(j) * m + i] * Rinv[size_t(c) * k + j];
        Rinv[size_t(c) * k + i] = s / R[size_t(i) * m + i];
      }
    }
    // RSS increase when dropping j = beta_j^2 / (R^-1 R^-T)_jj
    int drop = -1;
    double best = kInf;
    for (int j = 1; j < k; ++j) {
      double beta = 0, w = 0;
      for (int c = j; c < k; ++c) {
        beta += Rinv[size_t(c) * k + j] * z[c];
        w += sq(Rinv[size_t(c) * k + j]);
      }
      const double delta = beta * beta / w;
      if (delta < best) {
        best = delta;
        drop = j;
      }
    }
    // remove column `drop` and re-triangularize rows drop..k-1 with Givens rotations
    for (int c = drop; c < k - 1; ++c)
      for (int i = 0; i < m; ++i) R[size_t(c) * m + i] = R[size_t(c + 1) * m + i];
    for (int i = drop; i < k - 1; ++i) {
      const double a = R[size_t(i) * m + i], b = R[size_t(i) * m + i + 1];
      const double h = std::sqrt(a * a + b * b);  // not hypot: the same rounding in both backends
      if (h == 0) continue;
      const double c = a / h, s = b / h;
      for (int col = i; col < k - 1; ++col) {
        const double u = R[size_t(col) * m + i], v = R[size_t(col) * m + i + 1];
        R[size_t(col) * m + i] = c * u + s * v;
        R[size_t(col) * m + i + 1] = -s * u + c * v;
      }
      const double u = z[i], v = z[i + 1];
      z[i] = c * u + s * v;
      z[i + 1] = -s * u + c * v;
    }
    rss += sq(z[k - 1]);
    pos.erase(pos.begin() + drop);
    if (drop < k - 1) report(drop + 1, k - 1, false);
  }
}

}  // namespace

int mars_fit(const double* X, const double* y, int32_t n, int32_t d, const double* opts, int32_t* dirsOut,
             double* cutsOut, int32_t* termFlags, double* coef, double* rssPerSubset, double* info) {
  if (n < 2 || d < 1) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * d) || !all_finite(y, size_t(n)) || !all_finite(opts, MO_COUNT)) return NONFINITE;
  Options o;
  o.degree = int(opts[MO_DEGREE]);
  o.nk = int(opts[MO_NK]);
  o.thresh = opts[MO_THRESH];
  o.penalty = opts[MO_PENALTY];
  o.minspan = int(opts[MO_MINSPAN]);
  o.endspan = int(opts[MO_ENDSPAN]);
  o.fastK = int(opts[MO_FASTK]);
  o.fastBeta = opts[MO_FASTBETA];
  o.newvarPenalty = opts[MO_NEWVAR_PENALTY];
  o.autoLinpreds = opts[MO_AUTO_LINPREDS] != 0;
  o.adjustEndspan = opts[MO_ADJUST_ENDSPAN];
  o.scaleY = opts[MO_SCALE_Y] != 0;
  if (o.degree < 1 || o.nk < 1 || o.nk > 1000 || o.endspan < 0 || o.thresh < 0) return BAD_ARGUMENT;
  const size_t N = size_t(n);
  const int M = o.nk;

  // column-major inputs, and y standardized like R's scale() when Scale.y
  std::vector<double> x(N * d);
  for (size_t i = 0; i < N; ++i)
    for (int j = 0; j < d; ++j) x[i + size_t(j) * N] = X[i * d + j];
  const double yMean = mean_of(y, N);
  double tss = 0;
  for (size_t i = 0; i < N; ++i) tss += sq(y[i] - yMean);
  // |y| near 1e154 overflows the squared sums: refuse (the TypeScript layer rescales y by a power of 2 first).
  if (!std::isfinite(tss)) return NONFINITE;
  std::vector<double> ys(y, y + N);
  if (o.scaleY) {
    // R's scale(): mean and sum of squares accumulated in extended precision (long double) before rounding;
    // emulated with double-double sums so both backends agree. Rounding-level near-ties in the forward
    // pass can depend on these last bits.
    DoubleDouble sum;
    for (size_t i = 0; i < N; ++i) sum.add(y[i]);
    const double center = sum.divided_by(double(N));
    std::vector<double> c(N);
    DoubleDouble ss;
    for (size_t i = 0; i < N; ++i) {
      c[i] = y[i] - center;
      ss.add(c[i] * c[i]);
    }
    const double sd = std::sqrt(ss.value() / double(n - 1));
    if (sd > 0)
      for (size_t i = 0; i < N; ++i) ys[i] = c[i] / sd;
  }

  ForwardPass fp(x.data(), ys.data(), N, d, o);
  fp.run();
  const int nTerms = fp.nTerms();

  // drop linearly dependent terms (earth's RegressAndFix after the forward pass); when none is, the same
  // factorization (on the original y) serves the pruning
  std::vector<int> used;
  for (int t = 0; t < std::min(nTerms, M); ++t)
    if (fp.fullSet[t]) used.push_back(t);
  Qr q = householder_qr(fp.bx.get(), N, used, y, true);
  if (q.rank < int(used.size())) {
    for (size_t c = size_t(q.rank); c < used.size(); ++c) fp.fullSet[q.order[c]] = 0;
    used.clear();
    for (int t = 0; t < std::min(nTerms, M); ++t)
      if (fp.fullSet[t]) used.push_back(t);
    q = householder_qr(fp.bx.get(), N, used, y, false);
  }
  const int m = int(used.size());

  // pruning on the original y
  if (q.rank < m) return MARS_SINGULAR;
  for (int i = 0; i < m; ++i)
    if (!(std::fabs(q.R[size_t(i) * m + i]) > 0)) return MARS_SINGULAR;
  double rssFull = 0;
  for (size_t i = size_t(m); i < N; ++i) rssFull += sq(q.qty[i]);
  std::vector<double> z(q.qty.begin(), q.qty.begin() + m);
  std::vector<std::vector<int>> subsets;
  std::vector<double> rssVec(m);
  backward_eliminate(q.R, z, m, rssFull, rssVec.data(), subsets);

  // GCV of each size; the first minimum wins (R's which.min)
  auto gcv_of = [&](int k, double rss) {
    const double nparams = o.penalty < 0 ? 0 : k + o.penalty * ((k - 1) / 2.0);
    return nparams >= double(N) ? kInf : rss / (double(N) * sq(1 - nparams / double(N)));
  };
  int bestSize = 1;
  double bestGcv = kInf;
  for (int k = 1; k <= m; ++k) {
    const double g = gcv_of(k, rssVec[k - 1]);
    if (g < bestGcv) {
      bestGcv = g;
      bestSize = k;
    }
  }
  if (bestGcv == kInf) bestGcv = gcv_of(1, rssVec[0]), bestSize = 1;
  std::vector<int> sel;
  for (int p : subsets[bestSize - 1]) sel.push_back(used[p]);
  std::sort(sel.begin(), sel.end());

  // final coefficients by least squares on the selected terms (R's lm.fit)
  Qr f = householder_qr(fp.bx.get(), N, sel, y, false);
  const int s = int(sel.size());
  std::vector<double> b(s);
  for (int i = s - 1; i >= 0; --i) {
    double v = f.qty[i];
    for (int j = i + 1; j < s; ++j) v -= f.R[size_t(j) * s + i] * b[j];
    b[i] = v / f.R[size_t(i) * s + i];
  }

  for (int t = 0; t < M; ++t) {
    termFlags[t] = fp.fullSet[t] ? 1 : 0;
    coef[t] = 0;
    rssPerSubset[t] = t < m ? rssVec[t] : 0;
    for (int j = 0; j < d; ++j) {
      dirsOut[size_t(t) * d + j] = fp.dirs[size_t(t) * d + j];
      cutsOut[size_t(t) * d + j] = fp.cuts[size_t(t) * d + j];
    }
  }
  for (int i = 0; i < s; ++i) {
    termFlags[sel[i]] |= 2;
    coef[sel[i]] = b[i];
  }
  const double rss = rssVec[bestSize - 1];
  info[MI_NTERMS] = std::min(nTerms, M);
  info[MI_TERMCOND] = fp.termCond;
  info[MI_NFULLSET] = m;
  info[MI_NSELECTED] = s;
  info[MI_RSS] = rss;
  info[MI_GCV] = bestGcv;
  info[MI_RSQ] = 1 - rss / rssVec[0];
  info[MI_GRSQ] = 1 - bestGcv / gcv_of(1, rssVec[0]);
  info[MI_TSS] = tss;
  info[MI_FORWARD_RSQ] = fp.forwardRsq;
  return OK;
}

int mars_predict(const int32_t* dirs, const double* cuts, const double* coef, int32_t nTerms, int32_t d,
                 const double* Xq, int32_t nq, double* out) {
  if (nTerms < 0 || d < 1 || nq < 0) return BAD_ARGUMENT;
  if (!all_finite(Xq, size_t(nq) * d) || !all_finite(coef, size_t(nTerms)) || !all_finite(cuts, size_t(nTerms) * d))
    return NONFINITE;
  for (int32_t q = 0; q < nq; ++q) {
    const double* xq = Xq + size_t(q) * d;
    double s = 0;
    for (int32_t t = 0; t < nTerms; ++t) {
      double b = 1;
      for (int32_t j = 0; j < d; ++j) {
        const int dir = dirs[size_t(t) * d + j];
        if (dir == 0) continue;
        const double c = cuts[size_t(t) * d + j];
        const double v = xq[j];
        if (dir == 1) b *= v > c ? v - c : 0.0;
        else if (dir == -1) b *= c > v ? c - v : 0.0;
        else if (dir == 2) b *= v;
        else return BAD_ARGUMENT;
      }
      s += coef[t] * b;
    }
    out[q] = s;
  }
  return OK;
}

}  // namespace varmap
