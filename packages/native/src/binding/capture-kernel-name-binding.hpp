// kernelNamePatternProblem(pattern): the capture library's own check of a kernel-name pattern, for
// TypeScript (kreplay capture refuses before the program runs what the library could not use).
#pragma once

#include <napi.h>

namespace kreplay::binding {

/** The text of why std::regex (as the capture library compiles it) rejects the string, or null. */
Napi::Value kernelNamePatternProblem(const Napi::CallbackInfo& info);

/** kernelNames(mangled) -> { demangled, function }: a kernel's names as ncu's --kernel-name-base names them. */
Napi::Value kernelNames(const Napi::CallbackInfo& info);

/**
 * kernelNameFilterMatches(name, base, symbols: string[]) -> boolean[]: which kernels the capture
 * library's filter selects (`name` matched whole, or `regex:` searched, in the name `base` names).
 */
Napi::Value kernelNameFilterMatches(const Napi::CallbackInfo& info);

}  // namespace kreplay::binding
