#include "varmap/mixture.h"

#include "registry.h"

using varmap_binding::Args;

// mixtureFit(runs f64, offsets i32[nconf+1], nconf, configIds i32[nconf], models i32[2*nmodels], nmodels, seed,
//            restarts, maxIter, tol, pstride, strategy, priorStrength, loglik f64, bic f64, iterations i32, converged u8, floorBound u8,
//            params f64[nconf*nmodels*pstride], resolution f64[2*nconf], work f64[nconf*nmodels]) -> status
static Napi::Value MixtureFit(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lr = 0, lo = 0, lid = 0, lm = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0, l8 = 0;
  double* runs = a.f64(0, &lr);
  int32_t* offsets = a.i32(1, &lo);
  int32_t nconf = a.int32(2);
  int32_t* ids = a.i32(3, &lid);
  int32_t* models = a.i32(4, &lm);
  int32_t nmodels = a.int32(5);
  double seed = a.number(6);
  int32_t restarts = a.int32(7);
  int32_t max_iter = a.int32(8);
  double tol = a.number(9);
  int32_t pstride = a.int32(10);
  int32_t strategy = a.int32(11);
  double prior_strength = a.number(12);
  double* loglik = a.f64(13, &l1);
  double* bic = a.f64(14, &l2);
  int32_t* iters = a.i32(15, &l3);
  uint8_t* conv = a.u8(16, &l4);
  uint8_t* bound = a.u8(17, &l5);
  double* params = a.f64(18, &l6);
  double* res = a.f64(19, &l7);
  double* work = a.f64(20, &l8);
  if (!a.ok() || nconf < 0 || nmodels < 0 || pstride < 1 || lo < size_t(nconf) + 1 || lid < size_t(nconf) ||
      lm < size_t(2) * nmodels)
    return a.status(varmap::BAD_ARGUMENT);
  const size_t nr = size_t(nconf) * nmodels;
  if (offsets[nconf] < 0 || lr < size_t(offsets[nconf]) || l1 < nr || l2 < nr || l3 < nr || l4 < nr || l5 < nr ||
      l6 < nr * pstride || l7 < size_t(2) * nconf || l8 < nr)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    return varmap::mixture_fit(runs, offsets, nconf, ids, models, nmodels, seed, restarts, max_iter, tol, pstride, strategy, prior_strength,
                               loglik, bic, iters, conv, bound, params, res, work);
  }));
}
VARMAP_EXPORT(mixtureFit, MixtureFit);
