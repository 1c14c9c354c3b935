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

// lspWeights(X: f64[n*m], rw: f64[n], n, m, Q: f64[nq*m], nq, cap, count: i32[nq], code: i32[nq], idx: i32[nq*cap], w: f64[nq*cap])
static Napi::Value LspWeights(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lr = 0, lq = 0, lc = 0, lk = 0, li = 0, lw = 0;
  double* X = a.f64(0, &lx);
  double* rw = a.f64(1, &lr);
  int32_t n = a.int32(2), m = a.int32(3);
  double* Q = a.f64(4, &lq);
  int32_t nq = a.int32(5), cap = a.int32(6);
  int32_t* count = a.i32(7, &lc);
  int32_t* code = a.i32(8, &lk);
  int32_t* idx = a.i32(9, &li);
  double* w = a.f64(10, &lw);
  if (!a.ok() || n < 1 || m < 1 || nq < 0 || cap < m + 1 || lx < size_t(n) * m || lr < size_t(n) || lq < size_t(nq) * m ||
      lc < size_t(nq) || lk < size_t(nq) || li < size_t(nq) * cap || lw < size_t(nq) * cap)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_weights(X, rw, n, m, Q, nq, cap, count, code, idx, w); }));
}
VARMAP_EXPORT(lspWeights, LspWeights);

// lspNeighbors(X: f64[n*m], n, m, K, nbr: i32[n*K], nd2: f64[n*K]) -> status
static Napi::Value LspNeighbors(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, ln = 0, ld = 0;
  double* X = a.f64(0, &lx);
  int32_t n = a.int32(1), m = a.int32(2), K = a.int32(3);
  int32_t* nbr = a.i32(4, &ln);
  double* nd2 = a.f64(5, &ld);
  if (!a.ok() || n < 2 || m < 1 || K < 1 || K > n - 1 || lx < size_t(n) * m || ln < size_t(n) * K || ld < size_t(n) * K)
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_neighbors(X, n, m, K, nbr, nd2); }));
}
VARMAP_EXPORT(lspNeighbors, LspNeighbors);

// lspSubsets(X: f64[N*m], f: f64[N], N, m, nbr: i32[N*K], nd2: f64[N*K], K, S, trainOff: i32[S+1], train,
//            queryOff: i32[S+1], query, A: f64[T*m], rw: f64[T], rank: i32[T], status: i32[S], out: f64[Q],
//            ierr: i32[Q]) -> status, with T = trainOff[S] and Q = queryOff[S]
static Napi::Value LspSubsets(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lx = 0, lf = 0, ln = 0, ld = 0, lto = 0, lt = 0, lqo = 0, lq = 0, la = 0, lr = 0, lk = 0, ls = 0, lo = 0, le = 0;
  double* X = a.f64(0, &lx);
  double* f = a.f64(1, &lf);
  int32_t N = a.int32(2), m = a.int32(3);
  int32_t* nbr = a.i32(4, &ln);
  double* nd2 = a.f64(5, &ld);
  int32_t K = a.int32(6), S = a.int32(7);
  int32_t* trainOff = a.i32(8, &lto);
  int32_t* train = a.i32(9, &lt);
  int32_t* queryOff = a.i32(10, &lqo);
  int32_t* query = a.i32(11, &lq);
  double* A = a.f64(12, &la);
  double* rw = a.f64(13, &lr);
  int32_t* rank = a.i32(14, &lk);
  int32_t* status = a.i32(15, &ls);
  double* out = a.f64(16, &lo);
  int32_t* ierr = a.i32(17, &le);
  if (!a.ok() || N < 2 || m < 1 || K < 1 || K > N - 1 || S < 0 || lx < size_t(N) * m || lf < size_t(N) ||
      ln < size_t(N) * K || ld < size_t(N) * K || lto < size_t(S) + 1 || lqo < size_t(S) + 1 || ls < size_t(S))
    return a.status(varmap::BAD_ARGUMENT);
  const int32_t T = trainOff[S], Q = queryOff[S];
  if (T < 0 || Q < 0 || lt < size_t(T) || lq < size_t(Q) || la < size_t(T) * m || lr < size_t(T) || lk < size_t(T) ||
      lo < size_t(Q) || le < size_t(Q))
    return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    return varmap::lsp_subsets(X, f, N, m, nbr, nd2, K, S, trainOff, train, queryOff, query, A, rw, rank, status, out, ierr);
  }));
}
VARMAP_EXPORT(lspSubsets, LspSubsets);
