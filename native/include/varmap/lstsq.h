// Weighted linear least squares for many small independent problems, minimum-norm when rank-deficient.
//
// One problem: minimize || diag(w) (A x - b) ||_2 over x, A m x n row-major. The weights multiply the rows
// (they are the square roots of the usual least-squares weights, as SHEPPACK's LSHEP scales its rows).
// Method: Householder QR when m >= n (reduces to R, n x n); when R is comfortably full rank (condition
// estimate times rcond < 1e-2) x = R^-1 Q^T b, else a one-sided (Hestenes) Jacobi SVD of R (or of A if m < n),
// which is accurate to high relative precision for tiny matrices. Singular values s_j <= rcond * s_max are
// treated as zero, exactly as LAPACK's DGELSS decides the rank; x = sum over kept j of (u_j . b / s_j) v_j is
// the minimum-norm solution. rcond < 0 means machine epsilon (DGELSS's convention).
//
// Header-only so other kernels (LSP fit, linear regression) inline it; no allocation per problem: the caller
// passes a workspace of lstsq_work_size(max m, n) doubles.
//
// Status codes of the batched kernel (besides status.h's generic ones):
//   10 LSTSQ_NO_CONVERGENCE: the Jacobi sweeps did not converge (not observed in practice; guards the loop).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "varmap/status.h"

namespace varmap {

enum LstsqStatus : int { LSTSQ_NO_CONVERGENCE = 10 };

constexpr double kLstsqEps = 2.220446049250313e-16;  // DBL_EPSILON, LAPACK's EPSILON(1.0_R8)
constexpr double kLstsqSafeMin = 2.2250738585072014e-308;
constexpr int kLstsqMaxSweeps = 60;
constexpr double kLstsqNoise = 4.0;  // columns below kLstsqNoise * eps * ||M||_F are treated as rounding noise

// Doubles of workspace one problem of m rows and n unknowns needs.
inline size_t lstsq_work_size(int m, int n) {
  return size_t(m) * n + size_t(m) + size_t(n) * n + size_t(n);
}

// Solves one problem. A: m x n row-major, b: m, w: m row weights or nullptr (all ones). Writes x (n) and
// *rank. work: lstsq_work_size(m, n) doubles. Returns OK or LSTSQ_NO_CONVERGENCE. Inputs are not modified.
// NT > 0 / MT > 0 fix the number of unknowns / rows at compile time (the loops unroll); 0: runtime values.
template <int NT, int MT = 0>
inline int lstsq_solve_n(const double* A, const double* b, const double* w, int m_arg, int n_arg, double rcond,
                         double* x, int* rank, double* work) {
  const int n = NT > 0 ? NT : n_arg;
  const int m = MT > 0 ? MT : m_arg;
  double* M = work;                  // m x n, column-major (columns contiguous for the Jacobi dot products)
  double* c = M + size_t(m) * n;     // m: right-hand side, then Q^T b
  double* V = c + m;                 // n x n, column-major: the right singular vectors
  double* sv = V + size_t(n) * n;    // n: singular values (unordered)
  for (int i = 0; i < m; ++i) {
    const double wi = w ? w[i] : 1.0;
    for (int j = 0; j < n; ++j) M[size_t(j) * m + i] = wi * A[size_t(i) * n + j];
    c[i] = wi * b[i];
  }
  for (int j = 0; j < n; ++j) x[j] = 0.0;
  *rank = 0;
  if (m == 0 || n == 0) return OK;

  // Householder QR when there are at least as many rows as unknowns: R (n x n) overwrites the top of M.
  int p = m;  // rows of the matrix the Jacobi sweeps work on
  if (m >= n) {
    for (int k = 0; k < n; ++k) {
      double* col = M + size_t(k) * m;
      double norm2 = 0.0;
      for (int i = k; i < m; ++i) norm2 += col[i] * col[i];
      if (norm2 == 0.0) continue;  // zero column below the diagonal: nothing to eliminate
      const double alpha = col[k] >= 0.0 ? -std::sqrt(norm2) : std::sqrt(norm2);
      // v = col[k..m) - alpha e_k, stored in place; H = I - v v^T / (v^T v), v^T v = 2 (norm2 - alpha col[k]).
      const double vk = col[k] - alpha;
      const double vtv = norm2 - col[k] * col[k] + vk * vk;
      const double tau = 2.0 / vtv;
      col[k] = vk;
      for (int j = k + 1; j < n; ++j) {
        double* cj = M + size_t(j) * m;
        double s = 0.0;
        for (int i = k; i < m; ++i) s += col[i] * cj[i];
        const double f = s * tau;
        for (int i = k; i < m; ++i) cj[i] -= f * col[i];
      }
      {
        double s = 0.0;
        for (int i = k; i < m; ++i) s += col[i] * c[i];
        const double f = s * tau;
        for (int i = k; i < m; ++i) c[i] -= f * col[i];
      }
      col[k] = alpha;
      for (int i = k + 1; i < m; ++i) col[i] = 0.0;
    }
    // Pack R's columns (n x n) so each column is contiguous with stride n.
    for (int j = 1; j < n; ++j)
      for (int i = 0; i < n; ++i) M[size_t(j) * n + i] = M[size_t(j) * m + i];
    p = n;
    // Fast path: when R is comfortably far from the rank threshold (condition estimate ||R||_F ||R^-1||_F,
    // an upper bound of s_max / s_min, times rcond below 1e-2), the SVD would keep every singular value and
    // its minimum-norm solution is the unique one, x = R^-1 Q^T b. Otherwise fall through to the SVD.
    const double rc = rcond < 0.0 ? kLstsqEps : rcond;
    bool nonsingular = true;
    for (int j = 0; j < n; ++j)
      if (M[size_t(j) * n + j] == 0.0) nonsingular = false;
    if (nonsingular) {
      double* T = V;  // R^-1, column-major, upper triangular
      double normR2 = 0.0, normT2 = 0.0;
      for (int j = 0; j < n; ++j) {
        const double* rj = M + size_t(j) * n;
        double* tj = T + size_t(j) * n;
        for (int i = 0; i <= j; ++i) normR2 += rj[i] * rj[i];
        for (int i = j + 1; i < n; ++i) tj[i] = 0.0;
        tj[j] = 1.0 / rj[j];
        for (int i = j - 1; i >= 0; --i) {
          double s = 0.0;
          for (int k = i + 1; k <= j; ++k) s += M[size_t(k) * n + i] * tj[k];
          tj[i] = -(s * T[size_t(i) * n + i]);
        }
        for (int i = 0; i <= j; ++i) normT2 += tj[i] * tj[i];
      }
      if (std::sqrt(normR2) * std::sqrt(normT2) * rc < 1e-2) {
        for (int i = 0; i < n; ++i) {
          double s = 0.0;
          for (int k = i; k < n; ++k) s += T[size_t(k) * n + i] * c[k];
          x[i] = s;
        }
        *rank = n;
        return OK;
      }
    }
  }

  // One-sided Jacobi: rotate column pairs of M (p x n) until all are mutually orthogonal; V accumulates.
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) V[size_t(j) * n + i] = i == j ? 1.0 : 0.0;
  const double tol = kLstsqEps * p;
  // Columns below eps * ||M||_F are rounding noise (a dependent column after cancellation): rotating them
  // against the others cannot make them orthogonal, so they are left alone and fall below the rank threshold.
  double frob2 = 0.0;
  for (size_t k = 0; k < size_t(p) * n; ++k) frob2 += M[k] * M[k];
  const double negligible = kLstsqNoise * kLstsqNoise * kLstsqEps * kLstsqEps * frob2;
  bool converged = false;
  for (int sweep = 0; sweep < kLstsqMaxSweeps && !converged; ++sweep) {
    converged = true;
    for (int i = 0; i < n - 1; ++i) {
      double* ci = M + size_t(i) * p;
      for (int j = i + 1; j < n; ++j) {
        double* cj = M + size_t(j) * p;
        double a = 0.0, bb = 0.0, g = 0.0;
        for (int r = 0; r < p; ++r) {
          a += ci[r] * ci[r];
          bb += cj[r] * cj[r];
          g += ci[r] * cj[r];
        }
        if (g == 0.0 || a <= negligible || bb <= negligible || !(std::fabs(g) > tol * std::sqrt(a) * std::sqrt(bb))) continue;
        converged = false;
        const double zeta = (bb - a) / (2.0 * g);
        const double t = (zeta >= 0.0 ? 1.0 : -1.0) / (std::fabs(zeta) + std::sqrt(1.0 + zeta * zeta));
        const double cs = 1.0 / std::sqrt(1.0 + t * t);
        const double sn = cs * t;
        for (int r = 0; r < p; ++r) {
          const double u = ci[r], v = cj[r];
          ci[r] = cs * u - sn * v;
          cj[r] = sn * u + cs * v;
        }
        double* vi = V + size_t(i) * n;
        double* vj = V + size_t(j) * n;
        for (int r = 0; r < n; ++r) {
          const double u = vi[r], v = vj[r];
          vi[r] = cs * u - sn * v;
          vj[r] = sn * u + cs * v;
        }
      }
    }
  }
  if (!converged) return LSTSQ_NO_CONVERGENCE;

  // Singular values are the column norms; keep those above rcond * s_max (and above underflow).
  double smax = 0.0;
  for (int j = 0; j < n; ++j) {
    const double* cj = M + size_t(j) * p;
    double s2 = 0.0;
    for (int k = 0; k < p; ++k) s2 += cj[k] * cj[k];
    sv[j] = std::sqrt(s2);
    if (sv[j] > smax) smax = sv[j];
  }
  const double rc = rcond < 0.0 ? kLstsqEps : rcond;
  double thr = rc * smax;
  if (thr < kLstsqSafeMin) thr = kLstsqSafeMin;
  int r = 0;
  for (int j = 0; j < n; ++j) {
    const double s = sv[j];
    if (!(s > thr)) continue;
    ++r;
    const double* cj = M + size_t(j) * p;
    double ub = 0.0;
    for (int k = 0; k < p; ++k) ub += cj[k] * c[k];
    const double coef = (ub / s) / s;  // (u_j . b) / s_j with u_j = M_j / s_j
    const double* vj = V + size_t(j) * n;
    for (int k = 0; k < n; ++k) x[k] += coef * vj[k];
  }
  *rank = r;
  return OK;
}

// Solves one problem (see lstsq_solve_n), dispatching small n to unrolled instances.
inline int lstsq_solve(const double* A, const double* b, const double* w, int m, int n, double rcond, double* x,
                       int* rank, double* work) {
  // LSHEP's shape, NP = floor((3n + 1) / 2) rows, and small n get unrolled instances.
#define VARMAP_LSTSQ_CASE(N)                                                                                      \
  case N:                                                                                                       \
    return m == (3 * N + 1) / 2 ? lstsq_solve_n<N, (3 * N + 1) / 2>(A, b, w, m, n, rcond, x, rank, work)         \
                                : lstsq_solve_n<N>(A, b, w, m, n, rcond, x, rank, work);
  switch (n) {
    VARMAP_LSTSQ_CASE(1)
    VARMAP_LSTSQ_CASE(2)
    VARMAP_LSTSQ_CASE(3)
    VARMAP_LSTSQ_CASE(4)
    VARMAP_LSTSQ_CASE(5)
    VARMAP_LSTSQ_CASE(6)
    VARMAP_LSTSQ_CASE(8)
    default: return lstsq_solve_n<0>(A, b, w, m, n, rcond, x, rank, work);
  }
#undef VARMAP_LSTSQ_CASE
}

// The batched kernel: problem k has rows offsets[k] .. offsets[k+1) of A (rows x n, row-major), b and w
// (w may be nullptr). Writes x (nprob x n) and rank (nprob).
int lstsq_batch(const double* A, const double* b, const double* w, const int32_t* offsets, int32_t nprob, int32_t n,
                double rcond, double* x, int32_t* rank);

}  // namespace varmap
