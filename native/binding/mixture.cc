#include "varmap/mixture.h"

#include "registry.h"

using varmap_binding::Args;

// mixtureFit(runs f64, offsets i32[nconf+1], nconf, configIds i32[nconf], models i32[2*nmodels], nmodels, seed,
//            restarts, maxIter, tol, pstride, strategy, priorStrength, loglik f64, bic f64, iterations i32, converged u8, floorBound u8,
//            params f64[nconf*nmodels*pstride], resolution f64[2*nconf], work f64[nconf*nmodels]) -> status
// Lengths: MIXTURE_FIT.lengths() in ts/backend/kernels/mixture.ts, checked before this runs (registry.h).
static Napi::Value MixtureFit(const Napi::CallbackInfo& info) {
  Args a(info);
  double* runs = a.f64(0);
  int32_t* offsets = a.i32(1);
  int32_t nconf = a.int32(2);
  int32_t* ids = a.i32(3);
  int32_t* models = a.i32(4);
  int32_t nmodels = a.int32(5);
  double seed = a.number(6);
  int32_t restarts = a.int32(7);
  int32_t max_iter = a.int32(8);
  double tol = a.number(9);
  int32_t pstride = a.int32(10);
  int32_t strategy = a.int32(11);
  double prior_strength = a.number(12);
  double* loglik = a.f64(13);
  double* bic = a.f64(14);
  int32_t* iters = a.i32(15);
  uint8_t* conv = a.u8(16);
  uint8_t* bound = a.u8(17);
  double* params = a.f64(18);
  double* res = a.f64(19);
  double* work = a.f64(20);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    return varmap::mixture_fit(runs, offsets, nconf, ids, models, nmodels, seed, restarts, max_iter, tol, pstride, strategy, prior_strength,
                               loglik, bic, iters, conv, bound, params, res, work);
  }));
}
VARMAP_EXPORT(mixtureFit, MixtureFit);
