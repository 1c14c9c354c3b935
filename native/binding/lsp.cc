#include "varmap/lsp.h"

#include "registry.h"

using varmap_binding::Args;

// lspFit(X: f64[n*m], f: f64[n], n, m, A: f64[n*m], rw: f64[n], rank: i32[n]) -> status
static Napi::Value LspFit(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lf = 0, la = 0, lr = 0, lk = 0;
  double* X = a.f64(0, &lx);
  double* f = a.f64(1, &lf);
  int32_t n = a.int32(2), m = a.int32(3);
  double* A = a.f64(4, &la);
  double* rw = a.f64(5, &lr);
  int32_t* rank = a.i32(6, &lk);
  if (!a.ok() || n < 0 || m < 1 || lx < size_t(n) * m || lf < size_t(n) || la < size_t(n) * m || lr < size_t(n) ||
      lk < size_t(n))
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_fit(X, f, n, m, A, rw, rank); }));
}
VARMAP_EXPORT(lspFit, LspFit);

// lspEval(X: f64[n*m], f: f64[n], A: f64[n*m], rw: f64[n], n, m, Q: f64[nq*m], nq, out: f64[nq], ierr: i32[nq])
static Napi::Value LspEval(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lf = 0, la = 0, lr = 0, lq = 0, lo = 0, le = 0;
  double* X = a.f64(0, &lx);
  double* f = a.f64(1, &lf);
  double* A = a.f64(2, &la);
  double* rw = a.f64(3, &lr);
  int32_t n = a.int32(4), m = a.int32(5);
  double* Q = a.f64(6, &lq);
  int32_t nq = a.int32(7);
  double* out = a.f64(8, &lo);
  int32_t* ierr = a.i32(9, &le);
  if (!a.ok() || n < 1 || m < 1 || nq < 0 || lx < size_t(n) * m || lf < size_t(n) || la < size_t(n) * m ||
      lr < size_t(n) || lq < size_t(nq) * m || lo < size_t(nq) || le < size_t(nq))
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_eval(X, f, A, rw, n, m, Q, nq, out, ierr); }));
}
VARMAP_EXPORT(lspEval, LspEval);
