// The module entry point: exports every function that a binding file registered.
#include "registry.h"

static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  for (const auto& e : varmap_binding::registry()) exports.Set(e.name, Napi::Function::New(env, e.fn, e.name));
  exports.Set("abiVersion", Napi::Number::New(env, 1));
  return exports;
}

NODE_API_MODULE(varmap, Init)
