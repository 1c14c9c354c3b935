#include "varmap/mars.h"

#include "registry.h"

using varmap_binding::Args;

// Lengths (with nk = opts[MO_NK]): MARS_FIT and MARS_PREDICT's lengths() in ts/backend/kernels/mars.ts, checked
// before a binding runs (registry.h).

// mars_fit(X: f64[n*d], y: f64[n], n, d, opts: f64[MO_COUNT], dirs: i32[nk*d], cuts: f64[nk*d],
//          termFlags: i32[nk], coef: f64[nk], rssPerSubset: f64[nk], info: f64[MI_COUNT]) -> status
static Napi::Value MarsFit(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  double* y = a.f64(1);
  int32_t n = a.int32(2);
  int32_t d = a.int32(3);
  double* opts = a.f64(4);
  int32_t* dirs = a.i32(5);
  double* cuts = a.f64(6);
  int32_t* flags = a.i32(7);
  double* coef = a.f64(8);
  double* rss = a.f64(9);
  double* out = a.f64(10);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded(
      [&] { return varmap::mars_fit(X, y, n, d, opts, dirs, cuts, flags, coef, rss, out); }));
}
VARMAP_EXPORT(mars_fit, MarsFit);

// mars_predict(dirs: i32[nTerms*d], cuts: f64[nTerms*d], coef: f64[nTerms], nTerms, d, Xq: f64[nq*d], nq,
//              out: f64[nq]) -> status
static Napi::Value MarsPredict(const Napi::CallbackInfo& info) {
  Args a(info);
  int32_t* dirs = a.i32(0);
  double* cuts = a.f64(1);
  double* coef = a.f64(2);
  int32_t nTerms = a.int32(3);
  int32_t d = a.int32(4);
  double* Xq = a.f64(5);
  int32_t nq = a.int32(6);
  double* out = a.f64(7);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(
      varmap_binding::guarded([&] { return varmap::mars_predict(dirs, cuts, coef, nTerms, d, Xq, nq, out); }));
}
VARMAP_EXPORT(mars_predict, MarsPredict);
