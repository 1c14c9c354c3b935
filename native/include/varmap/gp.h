// Gaussian-process regression, the dense O(n³) part of the gp predictor: the profile negative log marginal
// likelihood (and its gradient) of y ~ N(H β, σ² (R + g I)) at given correlation hyperparameters, and the
// predictive mean and variance at query points.
//
// Model. R_ij = ρ(r_ij) with r_ij² = Σ_k ((x_ik − x_jk) / ℓ_k)² (one length scale per input, ARD);
// ρ = exp(−r²/2) (GP_SQEXP), (1 + √5 r + 5r²/3) exp(−√5 r) (GP_MATERN52) or (1 + √3 r) exp(−√3 r) (GP_MATERN32). g is the nugget relative to σ².
// theta = (log ℓ_1 … log ℓ_d, log g). β (generalized least squares) and σ² = Qᵀ/n are profiled out, so
//   nll(θ) = n/2 log σ̂² + Σ log L_ii + n/2 (1 + log 2π),     L Lᵀ = R + g I,
// and (envelope theorem: β̂ and σ̂² minimize nll for fixed θ) the gradient is
//   ∂nll/∂θ_t = ½ Σ_ij (Rg⁻¹ − α αᵀ / σ̂²)_ij ∂(R + g I)_ij/∂θ_t,   α = Rg⁻¹ (y − H β̂),
// with ∂R_ij/∂log ℓ_k = D(r) u_k², u_k = (x_ik − x_jk)/ℓ_k, D = ρ (sqexp), 5/3 (1 + √5 r) e^{−√5 r} (Matérn 5/2) or 3 e^{−√3 r} (Matérn 3/2),
// and ∂(g I)/∂log g = g I. Method: Cholesky of R + g I (row-major, lower), triangular solves, a p × p Cholesky
// for β, and for the gradient the explicit inverse L⁻ᵀ L⁻¹ (the trace terms need all of it).
//
// Status codes (besides status.h's generic ones):
//   10 GP_NOT_POSITIVE_DEFINITE: R + g I lost positive definiteness in floating point (nugget too small for
//      near-duplicate inputs); the caller raises the nugget or rejects these hyperparameters.
//   11 GP_SINGULAR_MEAN: Hᵀ (R + g I)⁻¹ H is singular (a mean basis column constant or collinear).
#pragma once
#include <cstdint>

#include "varmap/status.h"

namespace varmap {

enum GpStatus : int { GP_NOT_POSITIVE_DEFINITE = 10, GP_SINGULAR_MEAN = 11 };
enum GpKernel : int { GP_SQEXP = 0, GP_MATERN52 = 1, GP_MATERN32 = 2 };

// Number of doubles in gp_nll's `out`: nll, σ̂², then d + 1 gradient entries (d + 2 with per-point variances).
inline int32_t gp_out_size(int32_t d, int32_t nv = 0) { return d + 3 + (nv ? 1 : 0); }

// X: n x d row-major inputs; y: n responses; H: n x p mean basis (row-major); theta: d + 1 log hyperparameters.
// Outputs: L (n x n, lower Cholesky factor of R + g I; the strict upper triangle is zeroed), alpha (n: Rg⁻¹ r),
// beta (p), out (gp_out_size(d, nv)). want_grad = 0 skips the gradient (out[2…] set to 0). work: n*n + n*p + n*(3 + d) doubles.
// Per-point noise (heteroscedastic GP): with nv = n, v holds a known variance per point (≥ 0, e.g. the sampling
// variance of each configuration's statistic) and theta a last entry log τ: the diagonal becomes 1 + g + τ v_i, i.e.
// noise_i = σ² (g + τ v_i), and out gets ∂nll/∂log τ = ½ τ Σ_i (Rg⁻¹ − α αᵀ/σ̂²)_ii v_i last. nv = 0: no v, theta has
// d + 1 entries, the computation is the homoscedastic one, operation for operation.
int gp_nll(const double* X, const double* y, const double* H, int32_t n, int32_t d, int32_t p, int32_t kernel, const double* theta,
           int32_t want_grad, double* L, double* alpha, double* beta, double* out, const double* v, int32_t nv, double* work);

// Predictive residual mean kᵀ α (the caller adds h(x)ᵀ β) and correlation-scale variance 1 − kᵀ Rg⁻¹ k (clamped at 0;
// the caller multiplies by σ̂² and adds the nugget for an observation) at q query points Xq (q x d).
// L and alpha as gp_nll returned them. work: n*(2 + d + 32) doubles.
int gp_predict(const double* X, int32_t n, int32_t d, int32_t kernel, const double* theta, const double* L, const double* alpha,
               const double* Xq, int32_t q, double* mean, double* var, double* work);

// Local (nearest-neighbour) prediction for training sets too large for the exact solve: query r is predicted from
// the m training points nbr[r*m … r*m+m−1] alone, by the exact GP equations on them: C = R_NN + diag(g [+ τ v_i]),
// mean kᵀ C⁻¹ res_N (res: the training residuals y − H β, the caller's), correlation-scale variance 1 − kᵀ C⁻¹ k
// (clamped at 0). theta and v as in gp_nll (nv = 0 or n). With m = n and every query's list 0…n−1 this is gp_predict
// on gp_nll's factor up to rounding. Returns GP_NOT_POSITIVE_DEFINITE when some C is not, BAD_ARGUMENT for a
// neighbour index outside 0…n−1. work: m*m + m*(5 + d) doubles.
int gp_local_predict(const double* X, int32_t n, int32_t d, int32_t kernel, const double* theta, const double* v, int32_t nv,
                     const double* res, const int32_t* nbr, int32_t m, const double* Xq, int32_t q, double* mean, double* var,
                     double* work);

}  // namespace varmap
