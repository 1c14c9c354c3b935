// Generalized extreme value (GEV) maximum likelihood, one fit per configuration, batched.
//
// Parametrization (evd/ismev): location mu, scale sigma > 0, shape xi; xi > 0 is a heavy upper tail (scipy's
// c = -xi). With z = (x - mu)/sigma, w = 1 + xi z (support w > 0), L = log(w)/xi (-> z as xi -> 0), t = e^-L:
//   G(x) = exp(-t),  nllh = n log sigma + sum_i [(1 + xi) L_i + t_i]        (one formula for every xi).
// Seed 002 errata (recorded here because this is the formula the paper got wrong): its eq. (1) is labelled a
// density but is the CDF G, and its xi = 0 branch exp(-e^{(x-mu)/sigma}) has a sign error: it is
// exp(-e^{-(x-mu)/sigma}). Its Fig. 2 caption's +- values are 1.18-1.20x the expected-information SEs at its
// own estimates for n = 400 (spec B.1), as if about 280 runs had been fitted.
//
// Smooth through xi = 0: L, dL/dxi and d2L/dxi2 are power series in a = xi z when |a| < 0.1 (evaluated to
// below 1e-17 truncation), log1p forms otherwise. The spec's 1e-3 switch loses up to ~1e-9 relative in d2L/dxi2
// just outside it (two cancelling 1/xi terms); at 0.1 the closed forms lose at most ~1e-14.
//
// Fit (spec B.2): data standardized by mean and sd; Gumbel MLE start (1-D safeguarded Newton on sigma, always
// feasible); Newton on (mu, sigma, xi) with the analytic Hessian, Levenberg damping lambda diag(H) (1e-8, x10)
// when H is not positive definite, Armijo backtracking (halving, 1e-4) that keeps sigma > 0 and every w_i > 0;
// stop when the relative Newton step < 1e-13 or max_i |g_i| SE_i < 1e-12; at most max_iter iterations. From a
// failed Gumbel start, retries from xi0 = +-0.1 and keeps the best. Then a polishing Newton run in the fit's own
// units (z = (x - mu)/sigma), which a heavy upper tail needs (the sd of such a sample is set by its few largest
// runs). The estimates are then evaluated on the original scale: nllh and the inverse observed information.
#pragma once
#include <cstddef>
#include <cstdint>

#include "varmap/status.h"

namespace varmap {

// Doubles per configuration in the output buffer.
constexpr int kGevOut = 14;
enum GevOutIndex : int {
  GEV_LOC = 0, GEV_SCALE = 1, GEV_SHAPE = 2, GEV_NLLH = 3,
  GEV_COV = 4,  // 6 values: (loc,loc) (loc,scale) (loc,shape) (scale,scale) (scale,shape) (shape,shape)
  GEV_GUMBEL_LOC = 10, GEV_GUMBEL_SCALE = 11, GEV_GUMBEL_NLLH = 12,
  GEV_GRAD_SE = 13,  // max_i |gradient_i| * SE_i at the estimate: how far from stationary, in SE units
};

// Per-configuration status (info[2k]); info[2k + 1] = Newton iterations.
enum GevFitStatus : int {
  GEV_FIT_OK = 0,
  GEV_FIT_TOO_FEW = 1,        // fewer than 3 runs
  GEV_FIT_DEGENERATE = 2,     // fewer than 3 distinct values (zero spread included)
  GEV_FIT_NONFINITE = 3,      // a NaN or infinite run
  GEV_FIT_NOT_CONVERGED = 4,  // estimates from the best iterate, covariance NaN
  GEV_FIT_UNBOUNDED = 5,      // the likelihood grows without bound along an endpoint: iterates reached xi <= -1, or stalled
                              // with a run pressed onto the support's end (xi -> -1 at max x, xi -> +inf at min x)
  GEV_FIT_SINGULAR = 6,       // converged, but the observed information is not positive definite: covariance NaN
};

// Accumulates the negative log-likelihood (and with derivs, its gradient g[3] and Hessian h[6], packed as
// GEV_COV) of runs x[0..n) at (mu, sigma, xi). Returns false (and *f = +inf) outside the support.
bool gev_nllh(const double* x, int n, double mu, double sigma, double xi, double* f, double* g, double* h);

// The Gumbel (xi = 0) MLE: *mu, *sigma, returns the number of iterations or -1 if it failed.
int gev_gumbel_mle(const double* x, int n, double* mu, double* sigma);

// Fits one configuration: writes kGevOut doubles to out, returns a GevFitStatus and *iterations.
int gev_fit_one(const double* x, int n, int max_iter, double* out, int* iterations, double* work);

// The batched kernel: configuration k owns runs offsets[k] .. offsets[k+1). out: nconf x kGevOut; info: nconf x 2.
int gev_batch(const double* x, const int32_t* offsets, int32_t nconf, int32_t max_iter, double* out, int32_t* info);

}  // namespace varmap
