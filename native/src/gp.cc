#include "varmap/gp.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "varmap/fastmath.h"

namespace varmap {

namespace {

constexpr double GP_SQRT5 = 2.23606797749979;
constexpr double GP_SQRT3 = 1.7320508075688772;
constexpr double GP_LOG_2PI = 1.8378770664093453;

// exp and log as the same polynomials in both backends (varmap/fastmath.h, shared with the mixture kernel; wasm/gp.ts
// imports wasm/lib/fastmath.ts): the library functions differ in the last bit between libm and V8, which would let the
// hyperparameter search take different paths on native and wasm. With these, both backends compute the same bits.
inline double gexp(double x) { return fastmath::vexp(x); }
inline double glog(double x) { return fastmath::vlog(x); }

// The row updates below are compiled for AVX-512, AVX2 and SSE2, the CPU picking at load time. Each element gets the
// same operations in the same order as a scalar loop (no reassociation, no fused multiply-add: -ffp-contract=off),
// so every width, and wasm/gp.ts's two lanes, compute the same bits.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define VECTOR_CLONES
#endif

// The three triangular loops of the likelihood, each one call (so one clone dispatch, not one per row). Two updates
// share a pass over their target where the order allows: acc_c + a x_c + b y_c is computed as (acc_c + a x_c) + b y_c,
// the same two roundings in the same order as two single updates acc_c += a x_c, with acc read and written once.

// Cholesky's trailing update after columns j and j + 1 (x[i] = L_ij, y[i] = L_i,j+1 for i > j + 1): rows i > j + 1,
// A_ic −= L_ij L_cj, then −= L_i,j+1 L_c,j+1, for j + 1 < c <= i.
VECTOR_CLONES void cholesky_update2(double* __restrict A, int n, int j, const double* __restrict x,
                                    const double* __restrict y) {
  for (int i = j + 2; i < n; ++i) {
    double* row = A + size_t(i) * n;
    const double a = -x[i], b = -y[i];
    for (int c = j + 2; c <= i; ++c) row[c] = (row[c] + a * x[c]) + b * y[c];
  }
}

// Row i of W = L⁻¹ before its scaling: w_c = −Σ_{k<i} L_ik W_kc for c <= k, k ascending (W's rows k < i are final).
VECTOR_CLONES void inverse_row(double* __restrict wi, const double* __restrict ri, const double* __restrict W, int n,
                               int i) {
  int k = 0;
  for (; k + 1 < i; k += 2) {
    const double a = -ri[k], b = -ri[k + 1];
    const double* x = W + size_t(k) * n;
    const double* y = W + size_t(k + 1) * n;
    for (int c = 0; c <= k; ++c) wi[c] = (wi[c] + a * x[c]) + b * y[c];
    wi[k + 1] += b * y[k + 1];  // W_k,k+1 is 0 (W is lower): row k stops at c = k
  }
  for (; k < i; ++k) {
    const double a = -ri[k];
    const double* x = W + size_t(k) * n;
    for (int c = 0; c <= k; ++c) wi[c] += a * x[c];
  }
}

// acc_c = Σ_{k>=i} W_ki W_kc for c <= i, k ascending (row i of Wᵀ W's lower part); acc starts at 0.
VECTOR_CLONES void gram_row(double* __restrict acc, const double* __restrict W, int n, int i) {
  int k = i;
  for (; k + 1 < n; k += 2) {
    const double* x = W + size_t(k) * n;
    const double* y = W + size_t(k + 1) * n;
    const double a = x[i], b = y[i];
    for (int c = 0; c <= i; ++c) acc[c] = (acc[c] + a * x[c]) + b * y[c];
  }
  for (; k < n; ++k) {
    const double* x = W + size_t(k) * n;
    const double a = x[i];
    for (int c = 0; c <= i; ++c) acc[c] += a * x[c];
  }
}

// Correlations of point x (d inputs) with points 0 … len−1, whose inputs are the columns of the column-major XT
// (XT[k * ld + j]): out[j] = ρ(r_j) and, when deriv is given, deriv[j] = D(r_j) (∂ρ/∂log ℓ_k = D u_k²), with r2
// (len doubles) as scratch; r_j² = Σ_k u_k², u_k = (x_k − x_jk)/ℓ_k, summed k = 0, 1, … from 0. Loops over the points,
// so that they vectorize; wasm/gp.ts's corrRow does the same operations per point (two points per f64x2, its scalar
// corr for an odd last one): the same bits.
VECTOR_CLONES void corr_row(int kernel, const double* x, const double* XT, size_t ld, int len, int d, const double* inv_l,
                            double* __restrict r2, double* __restrict out, double* __restrict deriv) {
  for (int j = 0; j < len; ++j) r2[j] = 0.0;
  for (int k = 0; k < d; ++k) {
    const double xk = x[k], ik = inv_l[k];
    const double* __restrict col = XT + size_t(k) * ld;
    for (int j = 0; j < len; ++j) {
      const double u = (xk - col[j]) * ik;
      r2[j] += u * u;
    }
  }
  if (kernel == GP_SQEXP) {
    for (int j = 0; j < len; ++j) {
      const double v = gexp(-0.5 * r2[j]);
      out[j] = v;
      if (deriv) deriv[j] = v;
    }
  } else if (kernel == GP_MATERN32) {
    for (int j = 0; j < len; ++j) {
      const double r = std::sqrt(r2[j]);
      const double e3 = gexp(-GP_SQRT3 * r);
      if (deriv) deriv[j] = 3.0 * e3;
      out[j] = (1.0 + GP_SQRT3 * r) * e3;
    }
  } else {
    for (int j = 0; j < len; ++j) {
      const double r = std::sqrt(r2[j]);
      const double e = gexp(-GP_SQRT5 * r);
      if (deriv) deriv[j] = (5.0 / 3.0) * (1.0 + GP_SQRT5 * r) * e;
      out[j] = (1.0 + GP_SQRT5 * r + (5.0 / 3.0) * r2[j]) * e;
    }
  }
}

// Queries whitened per block in gp_predict (Z: n × this many doubles of scratch).
constexpr int GP_PREDICT_BLOCK = 32;

// Forward substitution for b right-hand sides at once, Z (n × b, row i = the b values of unknown i) <- L⁻¹ Z, then
// ss[c] = Σ_i Z_ic² (i ascending). Each column gets forward()'s operations in its order (z_i − Σ_{k<i} L_ik z_k,
// k ascending, then / L_ii), with the queries side by side in vector lanes: the same bits as one forward() each.
VECTOR_CLONES void forward_block(const double* L, int n, double* __restrict Z, int b, double* __restrict ss) {
  for (int i = 0; i < n; ++i) {
    const double* li = L + size_t(i) * n;
    double* zi = Z + size_t(i) * b;
    int k = 0;
    for (; k + 1 < i; k += 2) {  // two rows per pass, each element (z − a x) − a' x' as two single updates
      const double a = li[k], a2 = li[k + 1];
      const double* zk = Z + size_t(k) * b;
      const double* zk2 = zk + b;
      for (int c = 0; c < b; ++c) zi[c] = (zi[c] - a * zk[c]) - a2 * zk2[c];
    }
    for (; k < i; ++k) {
      const double a = li[k];
      const double* zk = Z + size_t(k) * b;
      for (int c = 0; c < b; ++c) zi[c] -= a * zk[c];
    }
    const double lii = li[i];
    for (int c = 0; c < b; ++c) zi[c] = zi[c] / lii;
  }
  for (int c = 0; c < b; ++c) ss[c] = 0.0;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < b; ++c) ss[c] += Z[size_t(i) * b + c] * Z[size_t(i) * b + c];
}

// XT = the column-major copy of the n × d row-major X.
void transpose(const double* X, int n, int d, double* XT) {
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < d; ++k) XT[size_t(k) * n + i] = X[size_t(i) * d + k];
}

// Column j of the Cholesky factor once its updates are in: L_jj = √A_jj (false when not positive), L_ij = A_ij / L_jj
// for i > j, copied to col[i].
bool final_column(double* A, int n, int j, double* col) {
  double* rj = A + size_t(j) * n;
  const double s = rj[j];
  if (!(s > 0.0) || !std::isfinite(s)) return false;
  const double ljj = std::sqrt(s);
  rj[j] = ljj;
  for (int i = j + 1; i < n; ++i) {
    double* ri = A + size_t(i) * n;
    ri[j] = ri[j] / ljj;
    col[i] = ri[j];
  }
  return true;
}

// In-place lower Cholesky of the n x n row-major A (lower triangle read); false when a pivot is not positive.
// Right-looking: once column j is final, every later row subtracts its share at once (a row update that vectorizes).
// Element (i, c) still starts from A_ic and subtracts L_ik L_ck for k = 0, 1, … in turn, as the textbook
// (left-looking) loop does, so the factor is the same to the bit. Two columns per pass over the trailing rows.
// col: 2n doubles of scratch (columns j and j + 1, contiguous).
bool cholesky(double* A, int n, double* col) {
  double* col2 = col + n;
  int j = 0;
  for (; j + 1 < n; j += 2) {  // two columns per pass over the trailing rows (the same operations per element)
    if (!final_column(A, n, j, col)) return false;
    // Column j + 1 gets column j's update first (A_i,j+1 −= L_ij L_j+1,j, i > j), then becomes final too.
    for (int i = j + 1; i < n; ++i) A[size_t(i) * n + j + 1] += -col[i] * col[j + 1];
    if (!final_column(A, n, j + 1, col2)) return false;
    cholesky_update2(A, n, j, col, col2);
  }
  if (j < n && !final_column(A, n, j, col)) return false;  // odd n: the last pivot (no rows below it)
  return true;
}

// x <- L⁻¹ x (forward substitution).
void forward(const double* L, int n, double* x) {
  for (int i = 0; i < n; ++i) {
    const double* ri = L + size_t(i) * n;
    double s = x[i];
    for (int k = 0; k < i; ++k) s -= ri[k] * x[k];
    x[i] = s / ri[i];
  }
}

// x <- L⁻ᵀ x (back substitution with the transpose).
void backward(const double* L, int n, double* x) {
  for (int i = n - 1; i >= 0; --i) {
    double s = x[i];
    for (int k = i + 1; k < n; ++k) s -= L[size_t(k) * n + i] * x[k];
    x[i] = s / L[size_t(i) * n + i];
  }
}

}  // namespace

int gp_nll(const double* X, const double* y, const double* H, int32_t n, int32_t d, int32_t p, int32_t kernel, const double* theta,
           int32_t want_grad, double* L, double* alpha, double* beta, double* out, const double* v, int32_t nv, double* work) {
  if (n < 1 || d < 1 || p < 0 || p > n || (kernel != GP_SQEXP && kernel != GP_MATERN52 && kernel != GP_MATERN32)) return BAD_ARGUMENT;
  if (nv != 0 && nv != n) return BAD_ARGUMENT;
  const size_t N = size_t(n);
  // Hyperparameters: log ℓ_1 … log ℓ_d, log g, and with per-point variances v also log τ.
  const int nt = d + 1 + (nv ? 1 : 0);
  if (!all_finite(X, N * d) || !all_finite(y, N) || !all_finite(H, N * p) || !all_finite(theta, size_t(nt)) || !all_finite(v, size_t(nv))) return NONFINITE;
  for (int i = 0; i < nv; ++i)
    if (v[i] < 0.0) return BAD_ARGUMENT;
  double inv_l[64];
  if (d > 64) return BAD_ARGUMENT;
  for (int k = 0; k < d; ++k) inv_l[k] = gexp(-theta[k]);
  const double g = gexp(theta[d]);
  const double tau = nv ? gexp(theta[d + 1]) : 0.0;

  // Scratch after W (n × n) and H̃ (n × p): acc (n), the column-major inputs XT (d × n), r2 and D (n each).
  double* acc = work + N * N + N * size_t(p);
  double* XT = acc + N;
  double* r2 = XT + N * d;
  double* D = r2 + N;
  transpose(X, n, d, XT);

  // R + g I, lower triangle; upper zeroed.
  for (int i = 0; i < n; ++i) {
    double* ri = L + size_t(i) * n;
    corr_row(kernel, X + size_t(i) * d, XT, N, i, d, inv_l, r2, ri, nullptr);
    ri[i] = nv ? 1.0 + g + tau * v[i] : 1.0 + g;
    for (int j = i + 1; j < n; ++j) ri[j] = 0.0;
  }
  if (!cholesky(L, n, work)) return GP_NOT_POSITIVE_DEFINITE;

  // Whitened response and basis: ỹ = L⁻¹ y (in alpha), H̃ = L⁻¹ H (column by column, in work after the n*n block).
  double* Ht = work + N * N;
  for (int i = 0; i < n; ++i) alpha[i] = y[i];
  forward(L, n, alpha);
  for (int c = 0; c < p; ++c) {
    double* col = work;  // scratch column
    for (int i = 0; i < n; ++i) col[i] = H[size_t(i) * p + c];
    forward(L, n, col);
    for (int i = 0; i < n; ++i) Ht[size_t(i) * p + c] = col[i];
  }
  // β from the normal equations H̃ᵀ H̃ β = H̃ᵀ ỹ (p small), by Cholesky.
  if (p > 0) {
    double A[64 * 64];
    double b[64];
    if (p > 64) return BAD_ARGUMENT;
    for (int a = 0; a < p; ++a) {
      double s = 0.0;
      for (int i = 0; i < n; ++i) s += Ht[size_t(i) * p + a] * alpha[i];
      b[a] = s;
      for (int c = 0; c <= a; ++c) {
        double t = 0.0;
        for (int i = 0; i < n; ++i) t += Ht[size_t(i) * p + a] * Ht[size_t(i) * p + c];
        A[a * p + c] = t;
      }
    }
    double diag_max = 0.0;
    for (int a = 0; a < p; ++a) diag_max = std::fmax(diag_max, A[a * p + a]);
    for (int j = 0; j < p; ++j) {
      double s = A[j * p + j];
      for (int k = 0; k < j; ++k) s -= A[j * p + k] * A[j * p + k];
      if (!(s > 1e-13 * diag_max)) return GP_SINGULAR_MEAN;
      const double ljj = std::sqrt(s);
      A[j * p + j] = ljj;
      for (int i = j + 1; i < p; ++i) {
        double t = A[i * p + j];
        for (int k = 0; k < j; ++k) t -= A[i * p + k] * A[j * p + k];
        A[i * p + j] = t / ljj;
      }
    }
    for (int i = 0; i < p; ++i) {
      double s = b[i];
      for (int k = 0; k < i; ++k) s -= A[i * p + k] * beta[k];
      beta[i] = s / A[i * p + i];
    }
    for (int i = p - 1; i >= 0; --i) {
      double s = beta[i];
      for (int k = i + 1; k < p; ++k) s -= A[k * p + i] * beta[k];
      beta[i] = s / A[i * p + i];
    }
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int c = 0; c < p; ++c) s += Ht[size_t(i) * p + c] * beta[c];
      alpha[i] -= s;
    }
  }
  // alpha holds the whitened residual r̃: Q = r̃ᵀ r̃, then α = L⁻ᵀ r̃.
  double Q = 0.0;
  for (int i = 0; i < n; ++i) Q += alpha[i] * alpha[i];
  backward(L, n, alpha);
  double logdet = 0.0;
  for (int i = 0; i < n; ++i) logdet += glog(L[size_t(i) * n + i]);
  // A response fitted exactly by the mean has Q = 0: σ̂² is floored so the likelihood stays finite.
  const double sigma2 = std::fmax(Q / n, 1e-300);
  out[0] = 0.5 * n * glog(sigma2) + logdet + 0.5 * n * (1.0 + GP_LOG_2PI);
  out[1] = sigma2;
  for (int t = 0; t < nt; ++t) out[2 + t] = 0.0;
  if (!want_grad) return std::isfinite(out[0]) ? OK : INTERNAL;

  // W = L⁻¹ (lower, in work), then Rg⁻¹ = Wᵀ W (Rinv_ij for i > j is stored at W[j * n + i], W's upper triangle).
  // Both are built a row at a time from row updates that vectorize; each element still sums its terms in the order
  // of the textbook loops (W_ij = −Σ_{k=j}^{i−1} L_ik W_kj / L_ii, Rinv_ij = Σ_{k>=i} W_ki W_kj, k ascending).
  double* W = work;
  for (int i = 0; i < n; ++i) {
    double* wi = W + size_t(i) * n;
    const double* ri = L + size_t(i) * n;
    for (int j = 0; j < i; ++j) wi[j] = 0.0;  // the rest of the row is set below (W_ii, then Rinv in the upper part)
    inverse_row(wi, ri, W, n, i);
    for (int j = 0; j < i; ++j) wi[j] = wi[j] / ri[i];
    wi[i] = 1.0 / ri[i];
  }
  double diag_sum = 0.0, diag_v = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) acc[j] = 0.0;
    gram_row(acc, W, n, i);
    for (int j = 0; j < i; ++j) W[size_t(j) * n + i] = acc[j];
    const double G = acc[i] - alpha[i] * alpha[i] / sigma2;
    diag_sum += G;
    if (nv) diag_v += G * v[i];
  }
  double* grad = out + 2;
  for (int i = 1; i < n; ++i) {
    const double* xi = X + size_t(i) * d;
    corr_row(kernel, xi, XT, N, i, d, inv_l, r2, acc, D);  // D(r_ij) for j < i (the correlations in acc are not used)
    for (int j = 0; j < i; ++j) {
      const double G = W[size_t(j) * n + i] - alpha[i] * alpha[j] / sigma2;
      const double* xj = X + size_t(j) * d;
      const double w = G * D[j];
      for (int k = 0; k < d; ++k) {
        const double u = (xi[k] - xj[k]) * inv_l[k];
        grad[k] += w * u * u;
      }
    }
  }
  grad[d] = 0.5 * g * diag_sum;
  if (nv) grad[d + 1] = 0.5 * tau * diag_v;  // ∂(τ diag v)/∂log τ = τ diag v
  for (int t = 0; t < nt; ++t)
    if (!std::isfinite(grad[t])) return INTERNAL;
  return std::isfinite(out[0]) ? OK : INTERNAL;
}

int gp_predict(const double* X, int32_t n, int32_t d, int32_t kernel, const double* theta, const double* L, const double* alpha,
               const double* Xq, int32_t q, double* mean, double* var, double* work) {
  if (n < 1 || d < 1 || d > 64 || q < 0 || (kernel != GP_SQEXP && kernel != GP_MATERN52 && kernel != GP_MATERN32)) return BAD_ARGUMENT;
  if (!all_finite(Xq, size_t(q) * d) || !all_finite(theta, size_t(d) + 1)) return NONFINITE;
  double inv_l[64];
  for (int k = 0; k < d; ++k) inv_l[k] = gexp(-theta[k]);
  // Scratch: one query's correlations (n), the column-major inputs XT (n × d), r2 (n), then Z (n × GP_PREDICT_BLOCK):
  // a block of queries' correlation vectors side by side, whitened together (forward_block) and summed.
  double* row = work;
  double* XT = row + n;
  double* r2 = XT + size_t(n) * d;
  double* Z = r2 + n;
  transpose(X, n, d, XT);
  for (int r0 = 0; r0 < q; r0 += GP_PREDICT_BLOCK) {
    const int b = q - r0 < GP_PREDICT_BLOCK ? q - r0 : GP_PREDICT_BLOCK;
    for (int c = 0; c < b; ++c) {
      corr_row(kernel, Xq + size_t(r0 + c) * d, XT, size_t(n), n, d, inv_l, r2, row, nullptr);
      double m = 0.0;
      for (int i = 0; i < n; ++i) m += row[i] * alpha[i];
      mean[r0 + c] = m;
      for (int i = 0; i < n; ++i) Z[size_t(i) * b + c] = row[i];
    }
    forward_block(L, n, Z, b, var + r0);
    for (int c = 0; c < b; ++c) var[r0 + c] = std::fmax(1.0 - var[r0 + c], 0.0);
  }
  return OK;
}

int gp_local_predict(const double* X, int32_t n, int32_t d, int32_t kernel, const double* theta, const double* v, int32_t nv,
                     const double* res, const int32_t* nbr, int32_t m, const double* Xq, int32_t q, double* mean, double* var,
                     double* work) {
  if (n < 1 || d < 1 || d > 64 || m < 1 || m > n || q < 0 || (nv != 0 && nv != n) ||
      (kernel != GP_SQEXP && kernel != GP_MATERN52 && kernel != GP_MATERN32))
    return BAD_ARGUMENT;
  const int nt = d + 1 + (nv ? 1 : 0);
  if (!all_finite(Xq, size_t(q) * d) || !all_finite(theta, size_t(nt)) || !all_finite(res, size_t(n)) || !all_finite(v, size_t(nv)))
    return NONFINITE;
  for (size_t k = 0; k < size_t(q) * m; ++k)
    if (nbr[k] < 0 || nbr[k] >= n) return BAD_ARGUMENT;
  double inv_l[64];
  for (int k = 0; k < d; ++k) inv_l[k] = gexp(-theta[k]);
  const double g = gexp(theta[d]);
  const double tau = nv ? gexp(theta[d + 1]) : 0.0;
  // Scratch: C (m × m), kq, z (m each), the Cholesky's two columns (2m), the neighbours' inputs column-major XN
  // (d × m), r2 (m).
  double* C = work;
  double* kq = work + size_t(m) * m;
  double* z = kq + m;
  double* XN = z + 3 * size_t(m);
  double* r2 = XN + size_t(m) * d;
  for (int r = 0; r < q; ++r) {
    const int32_t* idx = nbr + size_t(r) * m;
    const double* xq = Xq + size_t(r) * d;
    for (int a = 0; a < m; ++a)
      for (int k = 0; k < d; ++k) XN[size_t(k) * m + a] = X[size_t(idx[a]) * d + k];
    // C = R_NN + noise on the diagonal (lower triangle), the query's correlations, and the neighbours' residuals.
    for (int a = 0; a < m; ++a) {
      double* ca = C + size_t(a) * m;
      corr_row(kernel, X + size_t(idx[a]) * d, XN, size_t(m), a, d, inv_l, r2, ca, nullptr);
      ca[a] = nv ? 1.0 + g + tau * v[idx[a]] : 1.0 + g;
      for (int b = a + 1; b < m; ++b) ca[b] = 0.0;
      z[a] = res[idx[a]];
    }
    corr_row(kernel, xq, XN, size_t(m), m, d, inv_l, r2, kq, nullptr);
    if (!cholesky(C, m, z + m)) return GP_NOT_POSITIVE_DEFINITE;
    // mean = (L⁻¹k)ᵀ (L⁻¹ res_N), var = 1 − |L⁻¹k|².
    forward(C, m, kq);
    forward(C, m, z);
    double mu = 0.0, s = 0.0;
    for (int a = 0; a < m; ++a) {
      mu += kq[a] * z[a];
      s += kq[a] * kq[a];
    }
    mean[r] = mu;
    var[r] = std::fmax(1.0 - s, 0.0);
  }
  return OK;
}

}  // namespace varmap
