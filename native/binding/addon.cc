// The module entry point: exports every function that a binding file registered, each behind the argument
// check (registry.h), and setArgumentCheck.
#include "registry.h"

static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  // The registry is complete (static initialization) and never changes: each Entry's address is stable.
  for (const auto& e : varmap_binding::registry())
    exports.Set(e.name, Napi::Function::New(env, varmap_binding::Checked, e.name, const_cast<varmap_binding::Entry*>(&e)));
  exports.Set("setArgumentCheck", Napi::Function::New(env, varmap_binding::SetArgumentCheck, "setArgumentCheck"));
  exports.Set("abiVersion", Napi::Number::New(env, 2));
  return exports;
}

NODE_API_MODULE(varmap, Init)
