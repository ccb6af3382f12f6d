// CUDA results as exceptions: every CUresult other than CUDA_SUCCESS becomes an OperationFailure
// whose code is the CUDA error name (e.g. CUDA_ERROR_ILLEGAL_ADDRESS), which queues record.
#pragma once

#include <string>

#include "core/types.hpp"
#include "drivers/cuda/cuda-api.hpp"

namespace kreplay::cuda {

/** The failure of `call` (an entry point's name) with `result`. */
inline OperationFailure cudaFailure(const CudaApi& api, CUresult result, const char* call) {
  return OperationFailure(api.errorName(result), std::string(call) + " failed: " + api.errorText(result));
}

/** @throws OperationFailure when `result` is not CUDA_SUCCESS. */
inline void check(const CudaApi& api, CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) throw cudaFailure(api, result, call);
}

}  // namespace kreplay::cuda
