// Per-environment data of the addon (it may be loaded by several worker threads at once).
#pragma once

#include <napi.h>

namespace kreplay::binding {

struct AddonData {
  Napi::FunctionReference runtimeConstructor;
  Napi::FunctionReference queueConstructor;
  Napi::FunctionReference eventConstructor;
  Napi::FunctionReference graphConstructor;
  Napi::FunctionReference checkpointConstructor;
  Napi::FunctionReference profilerConstructor;
};

inline AddonData& addonData(Napi::Env env) {
  return *env.GetInstanceData<AddonData>();
}

}  // namespace kreplay::binding
