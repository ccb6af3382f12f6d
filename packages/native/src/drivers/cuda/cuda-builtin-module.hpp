// The module of built-in kernels loaded into one device's context, and its functions by role.
#pragma once

#include "drivers/cuda/cuda-api.hpp"

namespace kreplay::cuda {

/** Kernels that come in two group sizes: a warp per item (small pages or chunks) or a block per item. */
struct GroupedFunction {
  CUfunction warp = nullptr;
  CUfunction block = nullptr;
};

struct BuiltinFunctions {
  GroupedFunction hashPages;
  GroupedFunction findChangedPages;
  CUfunction checkPageList = nullptr;
  GroupedFunction copyPageList;
  GroupedFunction checkAndCopyPageList;
  GroupedFunction copyChunks;
  CUfunction fill = nullptr;
  CUfunction xorWords = nullptr;
  GroupedFunction scatterWrite;
  CUfunction triad = nullptr;
  CUfunction stencilSave = nullptr;
  CUfunction stencil = nullptr;
  CUfunction accumulate = nullptr;
  CUfunction delay = nullptr;
  CUfunction discardL2Lines = nullptr;
  CUfunction takeState = nullptr;
};

class CudaBuiltinModule {
 public:
  /**
   * JIT-loads the newest embedded PTX not newer than `computeCapability` (e.g. 90) into the
   * current context.
   * @throws OperationFailure when no image fits or the JIT fails (with the JIT's log).
   */
  CudaBuiltinModule(const CudaApi& api, int computeCapability);
  ~CudaBuiltinModule();
  CudaBuiltinModule(const CudaBuiltinModule&) = delete;
  CudaBuiltinModule& operator=(const CudaBuiltinModule&) = delete;

  const BuiltinFunctions& functions() const { return functions_; }

 private:
  const CudaApi& api_;
  CUmodule module_ = nullptr;
  BuiltinFunctions functions_;
};

/**
 * Loads a module image (PTX text, cubin or fatbin) into the current context.
 * @throws OperationFailure with the JIT's error log in its message.
 */
CUmodule loadModule(const CudaApi& api, const void* image, const char* what);

}  // namespace kreplay::cuda
