// Glue shared by the binding files: a static registry of exported functions (so each kernel's binding
// registers itself and no shared file changes when a kernel is added), the argument check every export runs
// first, and typed argument access.
//
// The buffer contract (how long each buffer must be for the sizes passed) is stated once, in TypeScript: each
// KernelSpec's args and lengths() (ts/backend/kernel.ts). The TypeScript backend installs its check with
// setArgumentCheck(fn) when it loads the addon; every export here calls fn(name, this, ...args) before its binding
// runs (`this` is the KernelSpec: NativeBackend.run calls addon[name].apply(spec, args)) and returns BAD_ARGUMENT
// unless it answers true. Without an installed check, or when it throws, every call is refused: a direct call of the addon
// cannot reach a kernel with buffers shorter than it reads. The bindings therefore check no lengths themselves;
// they read typed arrays of the declared class and numbers (Args, refusing anything else) and call the kernel.
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

// The installed argument check of this Node environment (each worker thread loads the addon afresh).
struct Guard {
  Napi::FunctionReference check;
};

inline Napi::Value SetArgumentCheck(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsFunction()) {
    Napi::TypeError::New(env, "setArgumentCheck(fn): fn must be a function").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Guard* g = env.GetInstanceData<Guard>();
  if (g == nullptr) {
    g = new Guard();
    env.SetInstanceData(g);  // deleted with the environment
  }
  g->check = Napi::Persistent(info[0].As<Napi::Function>());
  return env.Undefined();
}

// True when the installed check accepts this call of `name`: one JavaScript call, O(number of arguments).
inline bool ArgumentsAccepted(const Napi::CallbackInfo& info, const char* name) {
  Napi::Env env = info.Env();
  Guard* g = env.GetInstanceData<Guard>();
  if (g == nullptr || g->check.IsEmpty()) return false;
  std::vector<napi_value> argv;
  argv.reserve(info.Length() + 2);
  argv.push_back(Napi::String::New(env, name));
  argv.push_back(info.This());
  for (size_t i = 0; i < info.Length(); ++i) argv.push_back(info[i]);
  Napi::Value answer = g->check.Call(argv);
  if (env.IsExceptionPending()) {
    env.GetAndClearPendingException();
    return false;
  }
  return !answer.IsEmpty() && answer.IsBoolean() && answer.As<Napi::Boolean>().Value();
}

// What the module exports for each registered binding: the check, then the binding (data: its Entry).
inline Napi::Value Checked(const Napi::CallbackInfo& info) {
  const Entry* e = static_cast<const Entry*>(info.Data());
  if (!ArgumentsAccepted(info, e->name)) return Napi::Number::New(info.Env(), varmap::BAD_ARGUMENT);
  return e->fn(info);
}

// Reads typed arrays and numbers from the call; a wrong type or arity turns into BAD_ARGUMENT (the check above
// has already refused those; this keeps a binding from misreading an argument). Lengths are not checked here.
class Args {
 public:
  explicit Args(const Napi::CallbackInfo& info) : info_(info) {}

  template <typename T, napi_typedarray_type Kind>
  T* array(size_t i) {
    if (i >= info_.Length() || !info_[i].IsTypedArray()) return fail<T>();
    // napi_get_typedarray_info gives the data pointer (byte offset applied) for ArrayBuffer and
    // SharedArrayBuffer backing alike; ArrayBuffer().Data() would be null for a SharedArrayBuffer.
    napi_typedarray_type type;
    size_t count = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(info_.Env(), info_[i], &type, &count, &data, nullptr, nullptr) != napi_ok || type != Kind)
      return fail<T>();
    if (data == nullptr) {
      // A zero-length array may have no storage; a non-null dummy keeps kernels' pointer checks simple.
      static T empty[1];
      return count == 0 ? empty : fail<T>();
    }
    return static_cast<T*>(data);
  }
  double* f64(size_t i) { return array<double, napi_float64_array>(i); }
  int32_t* i32(size_t i) { return array<int32_t, napi_int32_array>(i); }
  uint8_t* u8(size_t i) { return array<uint8_t, napi_uint8_array>(i); }

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
