// CUPTI's result codes (cupti_result.h), declared here: CUPTI is loaded at run time.
#pragma once

#include <string>

#include "core/types.hpp"

namespace kreplay::cuda {

using CUptiResult = int;
constexpr CUptiResult CUPTI_SUCCESS = 0;

/** "CUPTI_ERROR_OUT_OF_MEMORY" for 8, or "CUPTI error 1234" for a code this build does not know. */
std::string cuptiResultName(CUptiResult result);

/** The failure of `call` with `result`, its code the result's name. */
inline OperationFailure cuptiFailure(CUptiResult result, const std::string& call) {
  return OperationFailure(cuptiResultName(result), call + " failed with " + cuptiResultName(result));
}

/** @throws OperationFailure when `result` is not CUPTI_SUCCESS. */
inline void checkCupti(CUptiResult result, const char* call) {
  if (result != CUPTI_SUCCESS) throw cuptiFailure(result, call);
}

}  // namespace kreplay::cuda
