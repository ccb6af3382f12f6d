// kernelNamePatternProblem(pattern): the capture library's own check of a kernel-name pattern, for
// TypeScript (kreplay capture refuses before the program runs what the library could not use).
#pragma once

#include <napi.h>

namespace kreplay::binding {

/** The text of why std::regex (as the capture library compiles it) rejects the string, or null. */
Napi::Value kernelNamePatternProblem(const Napi::CallbackInfo& info);

}  // namespace kreplay::binding
