#include "varmap/mars.h"

#include "registry.h"

using varmap_binding::Args;

// mars_fit(X: f64[n*d], y: f64[n], n, d, opts: f64[MO_COUNT], dirs: i32[nk*d], cuts: f64[nk*d],
//          termFlags: i32[nk], coef: f64[nk], rssPerSubset: f64[nk], info: f64[MI_COUNT]) -> status
static Napi::Value MarsFit(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, ly = 0, lo = 0, ldirs = 0, lcuts = 0, lflags = 0, lcoef = 0, lrss = 0, linfo = 0;
  double* X = a.f64(0, &lx);
  double* y = a.f64(1, &ly);
  int32_t n = a.int32(2);
  int32_t d = a.int32(3);
  double* opts = a.f64(4, &lo);
  int32_t* dirs = a.i32(5, &ldirs);
  double* cuts = a.f64(6, &lcuts);
  int32_t* flags = a.i32(7, &lflags);
  double* coef = a.f64(8, &lcoef);
  double* rss = a.f64(9, &lrss);
  double* out = a.f64(10, &linfo);
  if (!a.ok() || n < 0 || d < 1 || lo < size_t(varmap::MO_COUNT) || linfo < size_t(varmap::MI_COUNT))
    return a.status(varmap::BAD_ARGUMENT);
  const double nkd = opts[varmap::MO_NK];
  if (!(nkd >= 1 && nkd <= 1000)) return a.status(varmap::BAD_ARGUMENT);
  const size_t nk = size_t(nkd);
  if (lx < size_t(n) * d || ly < size_t(n) || ldirs < nk * d || lcuts < nk * d || lflags < nk || lcoef < nk || lrss < nk)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded(
      [&] { return varmap::mars_fit(X, y, n, d, opts, dirs, cuts, flags, coef, rss, out); }));
}
VARMAP_EXPORT(mars_fit, MarsFit);

// mars_predict(dirs: i32[nTerms*d], cuts: f64[nTerms*d], coef: f64[nTerms], nTerms, d, Xq: f64[nq*d], nq,
//              out: f64[nq]) -> status
static Napi::Value MarsPredict(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t ldirs = 0, lcuts = 0, lcoef = 0, lq = 0, lout = 0;
  int32_t* dirs = a.i32(0, &ldirs);
  double* cuts = a.f64(1, &lcuts);
  double* coef = a.f64(2, &lcoef);
  int32_t nTerms = a.int32(3);
  int32_t d = a.int32(4);
  double* Xq = a.f64(5, &lq);
  int32_t nq = a.int32(6);
  double* out = a.f64(7, &lout);
  if (!a.ok() || nTerms < 0 || d < 1 || nq < 0 || ldirs < size_t(nTerms) * d || lcuts < size_t(nTerms) * d ||
      lcoef < size_t(nTerms) || lq < size_t(nq) * d || lout < size_t(nq))
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(
      varmap_binding::guarded([&] { return varmap::mars_predict(dirs, cuts, coef, nTerms, d, Xq, nq, out); }));
}
VARMAP_EXPORT(mars_predict, MarsPredict);
