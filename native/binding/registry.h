// Glue shared by the binding files: a static registry of exported functions (so each kernel's binding
// registers itself and no shared file changes when a kernel is added) and checked argument access.
#pragma once
#include <napi.h>

#include <cstdint>
#include <exception>
#include <new>
#include <vector>

#include "varmap/status.h"

namespace varmap_binding {

using Fn = Napi::Value (*)(const Napi::CallbackInfo&);
struct Entry {
  const char* name;
  Fn fn;
};

inline std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

struct Register {
  Register(const char* name, Fn fn) { registry().push_back({name, fn}); }
};

// Reads typed arrays and numbers from the call; a wrong type or arity turns into BAD_ARGUMENT.
class Args {
 public:
  explicit Args(const Napi::CallbackInfo& info) : info_(info) {}

  template <typename T, napi_typedarray_type Kind>
  T* array(size_t i, size_t* length = nullptr) {
    if (i >= info_.Length() || !info_[i].IsTypedArray()) return fail<T>();
    // napi_get_typedarray_info gives the data pointer (byte offset applied) for ArrayBuffer and
    // SharedArrayBuffer backing alike; ArrayBuffer().Data() would be null for a SharedArrayBuffer.
    napi_typedarray_type type;
    size_t count = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(info_.Env(), info_[i], &type, &count, &data, nullptr, nullptr) != napi_ok || type != Kind)
      return fail<T>();
    if (length) *length = count;
    if (data == nullptr) {
      // A zero-length array may have no storage; a non-null dummy keeps kernels' pointer checks simple.
      static T empty[1];
      return count == 0 ? empty : fail<T>();
    }
    return static_cast<T*>(data);
  }
  double* f64(size_t i, size_t* length = nullptr) { return array<double, napi_float64_array>(i, length); }
  int32_t* i32(size_t i, size_t* length = nullptr) { return array<int32_t, napi_int32_array>(i, length); }
  uint8_t* u8(size_t i, size_t* length = nullptr) { return array<uint8_t, napi_uint8_array>(i, length); }

  int32_t int32(size_t i) {
    if (i >= info_.Length() || !info_[i].IsNumber()) return fail<int32_t>(), 0;
    return info_[i].As<Napi::Number>().Int32Value();
  }
  double number(size_t i) {
    if (i >= info_.Length() || !info_[i].IsNumber()) return fail<double>(), 0.0;
    return info_[i].As<Napi::Number>().DoubleValue();
  }

  bool ok() const { return ok_; }
  Napi::Value status(int code) const { return Napi::Number::New(info_.Env(), code); }

 private:
  template <typename T>
  T* fail() {
    ok_ = false;
    return nullptr;
  }
  const Napi::CallbackInfo& info_;
  bool ok_ = true;
};

// Runs a kernel call, turning any C++ exception into a status code: nothing escapes to JavaScript.
template <typename F>
int guarded(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return varmap::NO_MEMORY;
  } catch (...) {
    return varmap::INTERNAL;
  }
}

}  // namespace varmap_binding

#define VARMAP_EXPORT(name, fn) static varmap_binding::Register varmap_register_##name(#name, fn)
