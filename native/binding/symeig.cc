#include "varmap/symeig.h"

#include <vector>

#include "registry.h"

using varmap_binding::Args;

// Lengths: SYMEIG, SYMTRID and RBFGRAM's lengths() in ts/backend/kernels/symeig.ts, checked before a binding runs
// (registry.h); the scratch sizes below follow from the checked scalars.

// symeig(A: f64[m*m] in/out, m, w: f64[m]) -> status. On return row i of A is the eigenvector of w[i].
static Napi::Value Symeig(const Napi::CallbackInfo& info) {
  Args a(info);
  double* A = a.f64(0);
  int32_t m = a.int32(1);
  double* w = a.f64(2);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    std::vector<double> work(2 * size_t(m) + 1);
    return varmap::symeig(A, m, w, work.data());
  }));
}
VARMAP_EXPORT(symeig, Symeig);

// symtrid(A: f64[m*m] in/out, m, d: f64[m], e: f64[m]) -> status (see varmap/symeig.h).
static Napi::Value Symtrid(const Napi::CallbackInfo& info) {
  Args a(info);
  double* A = a.f64(0);
  int32_t m = a.int32(1);
  double* d = a.f64(2);
  double* e = a.f64(3);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    std::vector<double> work(4 * size_t(m) + 1);
    return varmap::symtrid(A, m, d, e, work.data());
  }));
}
VARMAP_EXPORT(symtrid, Symtrid);

// rbfgram(X: f64[n*d], n, d, cubic, V: f64[n*q], q, K: f64[n*n] out, B: f64[(n-q)^2] out) -> status.
static Napi::Value Rbfgram(const Napi::CallbackInfo& info) {
  Args a(info);
  const double* X = a.f64(0);
  int32_t n = a.int32(1), d = a.int32(2), cubic = a.int32(3);
  const double* V = a.f64(4);
  int32_t q = a.int32(5);
  double* K = a.f64(6);
  double* B = a.f64(7);
  if (!a.ok()) return a.status(varmap::BAD_ARGUMENT);
  const size_t N = size_t(n), Q = size_t(q);
  return a.status(varmap_binding::guarded([&] {
    std::vector<double> work(2 * N * Q + 3 * Q * Q + 1);
    return varmap::rbfgram(X, n, d, cubic, V, q, K, B, work.data());
  }));
}
VARMAP_EXPORT(rbfgram, Rbfgram);
