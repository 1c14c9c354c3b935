#include "varmap/symeig.h"

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace varmap {

namespace {

// The same formula as wasm/symeig.ts's hypot (std::hypot rounds differently), so both backends agree to the bit
// on the rotations.
double hypot2(double a, double b) {
  const double x = std::fabs(a), y = std::fabs(b);
  const double big = x > y ? x : y, small = x > y ? y : x;
  if (big == 0.0 || !std::isfinite(big)) return big;
  const double q = small / big;
  return big * std::sqrt(1.0 + q * q);
}

// Householder tridiagonalization (tred2). V: m x m row-major, on entry the matrix, on exit the orthogonal
// transformation; d: diagonal, e: subdiagonal (e[0] = 0).
void tred2(double* V, int n, double* d, double* e) {
  auto at = [&](int i, int j) -> double& { return V[size_t(i) * n + j]; };
  for (int j = 0; j < n; ++j) d[j] = at(n - 1, j);
  for (int i = n - 1; i > 0; --i) {
    double scale = 0.0, h = 0.0;
    for (int k = 0; k < i; ++k) scale += std::fabs(d[k]);
    if (scale == 0.0) {
      e[i] = d[i - 1];
      for (int j = 0; j < i; ++j) {
        d[j] = at(i - 1, j);
        at(i, j) = 0.0;
        at(j, i) = 0.0;
      }
    } else {
      for (int k = 0; k < i; ++k) {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      double f = d[i - 1];
      double g = std::sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (int j = 0; j < i; ++j) e[j] = 0.0;
      for (int j = 0; j < i; ++j) {
        f = d[j];
        at(j, i) = f;
        g = e[j] + at(j, j) * f;
        for (int k = j + 1; k <= i - 1; ++k) {
          g += at(k, j) * d[k];
          e[k] += at(k, j) * f;
        }
        e[j] = g;
      }
      f = 0.0;
      for (int j = 0; j < i; ++j) {
        e[j] /= h;
        f += e[j] * d[j];
      }
      const double hh = f / (h + h);
      for (int j = 0; j < i; ++j) e[j] -= hh * d[j];
      for (int j = 0; j < i; ++j) {
        f = d[j];
        g = e[j];
        for (int k = j; k <= i - 1; ++k) at(k, j) -= (f * e[k] + g * d[k]);
        d[j] = at(i - 1, j);
        at(i, j) = 0.0;
      }
    }
    d[i] = h;
  }
  for (int i = 0; i < n - 1; ++i) {
    at(n - 1, i) = at(i, i);
    at(i, i) = 1.0;
    const double h = d[i + 1];
    if (h != 0.0) {
      for (int k = 0; k <= i; ++k) d[k] = at(k, i + 1) / h;
      for (int j = 0; j <= i; ++j) {
        double g = 0.0;
        for (int k = 0; k <= i; ++k) g += at(k, i + 1) * at(k, j);
        for (int k = 0; k <= i; ++k) at(k, j) -= g * d[k];
      }
    }
    for (int k = 0; k <= i; ++k) at(k, i + 1) = 0.0;
  }
  for (int j = 0; j < n; ++j) {
    d[j] = at(n - 1, j);
    at(n - 1, j) = 0.0;
  }
  at(n - 1, n - 1) = 1.0;
  e[0] = 0.0;
}

// Implicit QL on the tridiagonal (d, e). W: the transformation transposed (row i = column i of tred2's V), so the
// rotations touch two contiguous rows.
int tql2(double* W, int n, double* d, double* e) {
  for (int i = 1; i < n; ++i) e[i - 1] = e[i];
  e[n - 1] = 0.0;
  double f = 0.0, tst1 = 0.0;
  const double eps = 2.220446049250313e-16;
  for (int l = 0; l < n; ++l) {
    tst1 = std::fmax(tst1, std::fabs(d[l]) + std::fabs(e[l]));
    int m = l;
    while (m < n - 1 && !(std::fabs(e[m]) <= eps * tst1)) ++m;
    if (m > l) {
      int iter = 0;
      do {
        if (++iter > 30 * n + 30) return SYMEIG_NO_CONVERGENCE;
        double g = d[l];
        double p = (d[l + 1] - g) / (2.0 * e[l]);
        double r = hypot2(p, 1.0);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const double dl1 = d[l + 1];
        double h = g - d[l];
        for (int i = l + 2; i < n; ++i) d[i] -= h;
        f += h;
        p = d[m];
        double c = 1.0, c2 = c, c3 = c, s = 0.0, s2 = 0.0;
        const double el1 = e[l + 1];
        for (int i = m - 1; i >= l; --i) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = hypot2(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          double* wi = W + size_t(i) * n;
          double* wj = W + size_t(i + 1) * n;
          for (int k = 0; k < n; ++k) {
            h = wj[k];
            wj[k] = s * wi[k] + c * h;
            wi[k] = c * wi[k] - s * h;
          }
        }
        p = -s * s2 * c3 * el1 * e[l] / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (std::fabs(e[l]) > eps * tst1);
    }
    d[l] += f;
    e[l] = 0.0;
  }
  return OK;
}

}  // namespace

int symeig(double* A, int32_t m, double* w, double* work) {
  if (m < 0) return BAD_ARGUMENT;
  if (m == 0) return OK;
  if (!all_finite(A, size_t(m) * m)) return NONFINITE;
  // The lower triangle is authoritative: symmetrize so tred2 sees an exactly symmetric matrix.
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < i; ++j) A[size_t(j) * m + i] = A[size_t(i) * m + j];
  double* e = work;
  tred2(A, m, w, e);
  // Transpose in place: rows become the columns tql2 rotates.
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < i; ++j) {
      const double t = A[size_t(i) * m + j];
      A[size_t(i) * m + j] = A[size_t(j) * m + i];
      A[size_t(j) * m + i] = t;
    }
  const int st = tql2(A, m, w, e);
  if (st != OK) return st;
  return all_finite(w, size_t(m)) ? OK : INTERNAL;
}


namespace {

// The Householder vector of x[0..r-1] that maps x onto its last coordinate: v (unit, written to v[0..r-1]) and
// the value alpha left there. Returns false (v = 0, alpha = x[r-1]) when x[0..r-2] is already zero.
bool householder_last(const double* x, int r, double* v, double* alpha) {
  double sigma = 0.0;
  for (int k = 0; k < r - 1; ++k) sigma += x[k] * x[k];
  const double last = x[r - 1];
  if (sigma == 0.0) {
    for (int k = 0; k < r; ++k) v[k] = 0.0;
    *alpha = last;
    return false;
  }
  const double norm = std::sqrt(sigma + last * last);
  const double a = last > 0 ? -norm : norm;
  const double vl = last - a;
  const double inv = 1.0 / std::sqrt(sigma + vl * vl);
  for (int k = 0; k < r - 1; ++k) v[k] = x[k] * inv;
  v[r - 1] = vl * inv;
  *alpha = a;
  return true;
}

#define SYMTRID_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))

// The dot products below sum in 8 interleaved partial sums, combined in a fixed order (wasm/symeig.ts does the
// same): the compiler can keep them in vector registers, and both backends round alike.
inline double combine8(const double* acc) {
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

// p[0..j] += contributions of row j (entries 0..j) of a symmetric matrix stored by its lower triangle, times v.
SYMTRID_CLONES void symv_row(const double* a, int j, const double* v, double* p) {
  const double vj = v[j];
  double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const int j8 = j & ~7;
  for (int k = 0; k < j8; k += 8)
    for (int l = 0; l < 8; ++l) {
      acc[l] += a[k + l] * v[k + l];
      p[k + l] += a[k + l] * vj;
    }
  for (int k = j8; k < j; ++k) {
    acc[k - j8] += a[k] * v[k];
    p[k] += a[k] * vj;
  }
  p[j] += combine8(acc) + a[j] * vj;
}

// Row j (entries 0..j) minus the symmetric rank-2 term v wᵀ + w vᵀ.
SYMTRID_CLONES void rank2_row(double* a, int j, const double* v, const double* w) {
  const double vj = v[j], wj = w[j];
  for (int k = 0; k <= j; ++k) a[k] -= vj * w[k] + wj * v[k];
}

// Both at once on one row: the rank-2 update, then the updated row's share of p += A vn (one read, one write).
SYMTRID_CLONES void rank2_symv_row(double* a, int j, const double* v, const double* w, const double* vn, double* p) {
  const double vj = v[j], wj = w[j], vnj = vn[j];
  double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const int j8 = j & ~7;
  for (int k = 0; k < j8; k += 8)
    for (int l = 0; l < 8; ++l) {
      const double x = a[k + l] - (vj * w[k + l] + wj * v[k + l]);
      a[k + l] = x;
      acc[l] += x * vn[k + l];
      p[k + l] += x * vnj;
    }
  for (int k = j8; k < j; ++k) {
    const double x = a[k] - (vj * w[k] + wj * v[k]);
    a[k] = x;
    acc[k - j8] += x * vn[k];
    p[k] += x * vnj;
  }
  const double x = a[j] - (vj * w[j] + wj * v[j]);
  a[j] = x;
  p[j] += combine8(acc) + x * vnj;
}

}  // namespace

int symtrid(double* A, int32_t m, double* d, double* e, double* work) {
  if (m < 0) return BAD_ARGUMENT;
  if (m == 0) return OK;
  if (!all_finite(A, size_t(m) * m)) return NONFINITE;
  const size_t M = size_t(m);
  double* v = work;
  double* vn = work + M;
  double* p = work + 2 * M;
  double* w = work + 3 * M;
  e[0] = 0.0;
  if (m >= 3) {
    // Step i = m-1: its reflector from row m-1, p = A0 v by one pass over the leading block.
    const int r0 = m - 1;
    householder_last(A + size_t(r0) * M, r0, v, &e[r0]);
    for (int k = 0; k < r0; ++k) p[k] = 0.0;
    for (int j = 0; j < r0; ++j) symv_row(A + size_t(j) * M, j, v, p);
    for (int i = m - 1; i >= 2; --i) {
      const int r = i;  // the leading r x r block is reflected
      double vp = 0.0;
      for (int k = 0; k < r; ++k) vp += v[k] * p[k];
      for (int k = 0; k < r; ++k) w[k] = 2.0 * p[k] - 2.0 * vp * v[k];
      // Row r-1 first: it gives the next reflector; then the other rows, each updated and at once multiplied by
      // the next reflector (one pass over the block per step).
      double* last = A + size_t(r - 1) * M;
      rank2_row(last, r - 1, v, w);
      const bool next = i - 1 >= 2;
      if (next) {
        householder_last(last, r - 1, vn, &e[r - 1]);
        for (int k = 0; k < r - 1; ++k) p[k] = 0.0;
      }
      for (int j = 0; j < r - 1; ++j) {
        double* a = A + size_t(j) * M;
        if (next)
          rank2_symv_row(a, j, v, w, vn, p);
        else
          rank2_row(a, j, v, w);
      }
      double* row = A + size_t(i) * M;
      for (int k = 0; k < r; ++k) row[k] = v[k];
      if (next) std::swap(v, vn);
    }
  }
  if (m >= 2) e[1] = A[M];
  for (size_t k = 0; k < M; ++k) d[k] = A[k * M + k];
  if (m >= 2) A[M] = 0.0;
  return all_finite(d, M) && all_finite(e, M) ? OK : INTERNAL;
}


namespace {

// φ(r) of the rbf predictor (ts/predict/rbf.ts): r² log r (thin plate) or r³, from the squared distance.
inline double rbf_phi(int cubic, double s) {
  const double r = std::sqrt(s);
  if (cubic) return r * r * r;
  return r > 0 ? r * r * std::log(r) : 0.0;
}

}  // namespace

int rbfgram(const double* X, int32_t n, int32_t d, int32_t cubic, const double* V, int32_t q, double* K, double* B, double* work) {
  if (n < 0 || d < 0 || q < 0 || q > n) return BAD_ARGUMENT;
  if (!all_finite(X, size_t(n) * d) || !all_finite(V, size_t(n) * q)) return NONFINITE;
  const size_t N = size_t(n), Q = size_t(q), M = N - Q;
  double* KV = work;           // n x q
  double* T = work + N * Q;    // q x q, upper triangular
  double* A = T + Q * Q;       // n x q
  double* C = A + N * Q;       // q x q
  double* tmp = C + Q * Q;     // q x q
  for (size_t k = 0; k < N * Q; ++k) KV[k] = 0.0;
  for (size_t i = 0; i < N; ++i) {
    double* Ki = K + i * N;
    Ki[i] = 0.0;
    for (size_t j = 0; j < i; ++j) {
      double s = 0.0;
      for (int32_t t = 0; t < d; ++t) {
        const double e = X[i * d + t] - X[j * d + t];
        s += e * e;
      }
      const double v = rbf_phi(cubic, s);
      Ki[j] = v;
      K[j * N + i] = v;
    }
  }
  // K V, row by row (K full and symmetric).
  for (size_t i = 0; i < N; ++i) {
    const double* Ki = K + i * N;
    double* out = KV + i * Q;
    for (size_t j = 0; j < N; ++j)
      for (size_t t = 0; t < Q; ++t) out[t] += Ki[j] * V[j * Q + t];
  }
  // Q = H_1 ⋯ H_q = I − V T Vᵀ (H_t = I − 2 v_t v_tᵀ): dlarft's forward recurrence.
  for (size_t k = 0; k < Q * Q; ++k) T[k] = 0.0;
  for (size_t i = 0; i < Q; ++i) {
    for (size_t r = 0; r < i; ++r) {
      double g = 0.0;
      for (size_t j = 0; j < N; ++j) g += V[j * Q + r] * V[j * Q + i];
      tmp[r] = g;
    }
    for (size_t r = 0; r < i; ++r) {
      double s = 0.0;
      for (size_t c = r; c < i; ++c) s += T[r * Q + c] * tmp[c];
      T[r * Q + i] = -2.0 * s;
    }
    T[i * Q + i] = 2.0;
  }
  // C = Tᵀ (Vᵀ K V) T; A = K V T − ½ V C; then Qᵀ K Q = K − A Vᵀ − V Aᵀ.
  for (size_t r = 0; r < Q; ++r)
    for (size_t c = 0; c < Q; ++c) {
      double s = 0.0;
      for (size_t j = 0; j < N; ++j) s += V[j * Q + r] * KV[j * Q + c];
      C[r * Q + c] = s;
    }
  for (size_t r = 0; r < Q; ++r)  // tmp = (VᵀKV) T
    for (size_t c = 0; c < Q; ++c) {
      double s = 0.0;
      for (size_t t = 0; t < Q; ++t) s += C[r * Q + t] * T[t * Q + c];
      tmp[r * Q + c] = s;
    }
  for (size_t r = 0; r < Q; ++r)  // C = Tᵀ tmp
    for (size_t c = 0; c < Q; ++c) {
      double s = 0.0;
      for (size_t t = 0; t < Q; ++t) s += T[t * Q + r] * tmp[t * Q + c];
      C[r * Q + c] = s;
    }
  for (size_t i = 0; i < N; ++i)
    for (size_t c = 0; c < Q; ++c) {
      double g = 0.0, h = 0.0;
      for (size_t t = 0; t < Q; ++t) {
        g += KV[i * Q + t] * T[t * Q + c];
        h += V[i * Q + t] * C[t * Q + c];
      }
      A[i * Q + c] = g - 0.5 * h;
    }
  for (size_t i = 0; i < M; ++i) {
    const size_t I = Q + i;
    const double* Ki = K + I * N + Q;
    double* Bi = B + i * M;
    for (size_t j = 0; j <= i; ++j) {
      const size_t J = Q + j;
      double s = Ki[j];
      for (size_t t = 0; t < Q; ++t) s -= A[I * Q + t] * V[J * Q + t] + V[I * Q + t] * A[J * Q + t];
      Bi[j] = s;
    }
    for (size_t j = i + 1; j < M; ++j) Bi[j] = 0.0;
  }
  return all_finite(B, M * M) ? OK : INTERNAL;
}

}  // namespace varmap
