// openRuntime(driverChoice, agents, deviceMemoryBytes, threads): the addon's entry point.
#pragma once

#include <napi.h>

namespace kreplay::binding {

/**
 * Returns a Promise of a NativeRuntime, or of `{ unavailable: { driver, reason, fix } }` when the
 * chosen driver cannot be used here. Probing and opening run off the JS thread.
 */
Napi::Value openRuntime(const Napi::CallbackInfo& info);

}  // namespace kreplay::binding
