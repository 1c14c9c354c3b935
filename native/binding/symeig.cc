#include "varmap/symeig.h"

#include <vector>

#include "registry.h"

using varmap_binding::Args;

// symeig(A: f64[m*m] in/out, m, w: f64[m]) -> status. On return row i of A is the eigenvector of w[i].
static Napi::Value Symeig(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lA = 0, lw = 0;
  double* A = a.f64(0, &lA);
  int32_t m = a.int32(1);
  double* w = a.f64(2, &lw);
  if (!a.ok() || m < 0 || lA < size_t(m) * size_t(m) || lw < size_t(m)) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    std::vector<double> work(2 * size_t(m) + 1);
    return varmap::symeig(A, m, w, work.data());
  }));
}
VARMAP_EXPORT(symeig, Symeig);

// symtrid(A: f64[m*m] in/out, m, d: f64[m], e: f64[m]) -> status (see varmap/symeig.h).
static Napi::Value Symtrid(const Napi::CallbackInfo& info) {
  Args a(info);
  size_t lA = 0, ld = 0, le = 0;
  double* A = a.f64(0, &lA);
  int32_t m = a.int32(1);
  double* d = a.f64(2, &ld);
  double* e = a.f64(3, &le);
  if (!a.ok() || m < 0 || lA < size_t(m) * size_t(m) || ld < size_t(m) || le < size_t(m)) return a.status(varmap::BAD_ARGUMENT);
  return a.status(varmap_binding::guarded([&] {
    std::vector<double> work(4 * size_t(m) + 1);
    return varmap::symtrid(A, m, d, e, work.data());
  }));
}
VARMAP_EXPORT(symtrid, Symtrid);
