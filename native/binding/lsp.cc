#include "varmap/lsp.h"

#include "registry.h"

using varmap_binding::Args;

// Lengths and offsets of every call here: LSP_FIT, LSP_EVAL, LSP_WEIGHTS, LSP_NEIGHBORS and LSP_SUBSETS's
// lengths() in ts/backend/kernels/lsp.ts, checked before a binding runs (registry.h).

// lspFit(X: f64[n*m], f: f64[n], n, m, A: f64[n*m], rw: f64[n], rank: i32[n]) -> status
static Napi::Value LspFit(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  double* f = a.f64(1);
  int32_t n = a.int32(2), m = a.int32(3);
  double* A = a.f64(4);
  double* rw = a.f64(5);
  int32_t* rank = a.i32(6);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_fit(X, f, n, m, A, rw, rank); }));
}
VARMAP_EXPORT(lspFit, LspFit);

// lspEval(X: f64[n*m], f: f64[n], A: f64[n*m], rw: f64[n], n, m, Q: f64[nq*m], nq, out: f64[nq], ierr: i32[nq])
static Napi::Value LspEval(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  double* f = a.f64(1);
  double* A = a.f64(2);
  double* rw = a.f64(3);
  int32_t n = a.int32(4), m = a.int32(5);
  double* Q = a.f64(6);
  int32_t nq = a.int32(7);
  double* out = a.f64(8);
  int32_t* ierr = a.i32(9);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_eval(X, f, A, rw, n, m, Q, nq, out, ierr); }));
}
VARMAP_EXPORT(lspEval, LspEval);

// lspWeights(X: f64[n*m], rw: f64[n], n, m, Q: f64[nq*m], nq, cap, count: i32[nq], code: i32[nq], idx: i32[nq*cap], w: f64[nq*cap])
static Napi::Value LspWeights(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  double* rw = a.f64(1);
  int32_t n = a.int32(2), m = a.int32(3);
  double* Q = a.f64(4);
  int32_t nq = a.int32(5), cap = a.int32(6);
  int32_t* count = a.i32(7);
  int32_t* code = a.i32(8);
  int32_t* idx = a.i32(9);
  double* w = a.f64(10);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_weights(X, rw, n, m, Q, nq, cap, count, code, idx, w); }));
}
VARMAP_EXPORT(lspWeights, LspWeights);

// lspNeighbors(X: f64[n*m], n, m, K, nbr: i32[n*K], nd2: f64[n*K]) -> status
static Napi::Value LspNeighbors(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  int32_t n = a.int32(1), m = a.int32(2), K = a.int32(3);
  int32_t* nbr = a.i32(4);
  double* nd2 = a.f64(5);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] { return varmap::lsp_neighbors(X, n, m, K, nbr, nd2); }));
}
VARMAP_EXPORT(lspNeighbors, LspNeighbors);

// lspSubsets(X: f64[N*m], f: f64[N], N, m, nbr: i32[N*K], nd2: f64[N*K], K, S, trainOff: i32[S+1], train,
//            queryOff: i32[S+1], query, A: f64[T*m], rw: f64[T], rank: i32[T], status: i32[S], out: f64[Q],
//            ierr: i32[Q]) -> status, with T = trainOff[S] and Q = queryOff[S]
static Napi::Value LspSubsets(const Napi::CallbackInfo& info) {
  Args a(info);
  double* X = a.f64(0);
  double* f = a.f64(1);
  int32_t N = a.int32(2), m = a.int32(3);
  int32_t* nbr = a.i32(4);
  double* nd2 = a.f64(5);
  int32_t K = a.int32(6), S = a.int32(7);
  int32_t* trainOff = a.i32(8);
  int32_t* train = a.i32(9);
  int32_t* queryOff = a.i32(10);
  int32_t* query = a.i32(11);
  double* A = a.f64(12);
  double* rw = a.f64(13);
  int32_t* rank = a.i32(14);
  int32_t* status = a.i32(15);
  double* out = a.f64(16);
  int32_t* ierr = a.i32(17);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    return varmap::lsp_subsets(X, f, N, m, nbr, nd2, K, S, trainOff, train, queryOff, query, A, rw, rank, status, out, ierr);
  }));
}
VARMAP_EXPORT(lspSubsets, LspSubsets);
