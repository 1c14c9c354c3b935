// Finite mixtures of six families fitted by EM with restarts, batched over configurations × models.
// (seed 001 sec. 3; the AssemblyScript mirror is wasm/mixture.ts and must do the same arithmetic.)
#pragma once
#include <cstdint>

namespace varmap {

// Families (the order of seed 001 Table 2). Normal and gamma live on x; the others are location-scale
// families of y = log x (lognormal = normal, Weibull = smallest extreme value, loglogistic = logistic,
// Fréchet = largest extreme value), with parameters (mu, sigma) of that log-domain distribution.
enum MixtureFamily : int32_t { FAM_NORMAL = 0, FAM_GAMMA = 1, FAM_WEIBULL = 2, FAM_LOGNORMAL = 3, FAM_LOGLOGISTIC = 4, FAM_FRECHET = 5, FAM_COUNT = 6 };

// Kernel-specific status codes.
enum MixtureStatus : int {
  MIXTURE_NONPOSITIVE = 10,  // a run is <= 0 (every family is fitted to runs divided by their mean)
  MIXTURE_BAD_MODEL = 11,    // family outside 0..FAM_COUNT-1, k outside 1..pstride/3
  MIXTURE_TOO_FEW = 12,      // a configuration has fewer than 2 runs
};

// Starts (strategy 0, the default): `restarts` partition starts (below), 3 spike starts (a narrow component on
// the adjacent pair of runs that is closest relative to its neighbourhood), 2 core starts (dense windows over a
// broad background) and, for k >= 2, 8 greedy starts from the (k-1)-component fit plus one new component (spike
// pairs, residual windows where the (k-1) fit explains the data worst, lowest and highest runs). Every start runs
// up to 25 EM iterations (given up after 5 when hopelessly behind or repeating an earlier start's state); the best
// is continued to convergence, then refined by split-and-merge moves (k >= 3). Strategy 1: partition starts only
// (large samples). Strategy 2: the starts of strategy 0, raced (at iterations 10 and 15 a start whose projected
// log L trails 3, then 1, earlier starts is given up): about 15% faster, a few fits end at lower optima.
// Fits, for every configuration c (runs[offsets[c] .. offsets[c+1])) and every model m = (family, k) =
// (models[2m], models[2m+1]), a k-component mixture by EM: `restarts` starts (restart 0 from equal-count
// quantile groups, the others from k-means++ seeds of a SplitMix64 generator keyed by (seed, config_ids[c],
// family, k, restart)), each iterated until |ΔlogL| < tol·max(1, |logL|) on the scaled runs or max_iter
// iterations; the best log-likelihood is kept. Results go to index r = c*nmodels + m:
//   loglik[r]      log-likelihood of the ORIGINAL runs; bic[r] = -2 loglik + (3k-1) log n
//   iterations[r], converged[r] (0/1) of the kept restart; floor_bound[r] = 1 when the tie floor binds
//   params[r*pstride ...] = w[0..k), a[0..k), b[0..k) on the original scale, components ordered by location:
//     normal (mean, sd); gamma (shape, scale); log families (mu, sigma) of log x.
//   work[r]        density evaluations (point x component) spent on the fit (to apportion timings)
//   resolution[2c], [2c+1] = smallest gap between distinct runs (original units) and between distinct log runs.
// prior_strength s > 0: maximum a posteriori EM (issue #17) with a weak prior on every component's scale in its
// family's domain (normal: x; lognormal, Weibull, loglogistic, Fréchet: log x, on sd = sigma·sd factor):
// s/2·(−log sd² − p2/sd²), p2 = the configuration's variance in that domain / k² (mclust's priorControl scale), i.e.
// an inverse-gamma prior on sd² worth s pseudo-runs. The gamma family has no scale of log x in its parameters and
// is fitted by ML (its tie floor stays). s = 0: maximum likelihood, bit for bit the same as without the prior.
// Tie floor: every component's standard deviation in its family's domain (x for normal, log x otherwise;
// gamma: sd of log x = sqrt(trigamma(shape))) is kept >= the data's resolution in that domain.
int mixture_fit(const double* runs, const int32_t* offsets, int32_t nconf, const int32_t* config_ids,
                const int32_t* models, int32_t nmodels, double seed, int32_t restarts, int32_t max_iter, double tol,
                int32_t pstride, int32_t strategy, double prior_strength, double* loglik, double* bic, int32_t* iterations,
                uint8_t* converged, uint8_t* floor_bound, double* params, double* resolution, double* work);

}  // namespace varmap
