#include "drivers/cuda/cuda-builtin-module.hpp"

#include <string>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-ptx-images.hpp"

namespace kreplay::cuda {

namespace {

const CudaPtxImage* imageFor(int computeCapability) {
  const CudaPtxImage* best = nullptr;
  for (std::size_t index = 0; index < kCudaPtxImageCount; ++index) {
    const CudaPtxImage& image = kCudaPtxImages[index];
    if (image.architecture <= computeCapability && (!best || image.architecture > best->architecture))
      best = &image;
  }
  return best;
}

}  // namespace

CUmodule loadModule(const CudaApi& api, const void* image, const char* what) {
  char log[8192] = {};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof log))};
  CUmodule module = nullptr;
  const CUresult result = api.cuModuleLoadDataEx(&module, image, 2, options, values);
  if (result != CUDA_SUCCESS) {
    std::string message = std::string("loading ") + what + " failed: " + api.errorText(result);
    if (log[0] != '\0') message += " (" + std::string(log) + ")";
    throw OperationFailure(api.errorName(result), message);
  }
  return module;
}

CudaBuiltinModule::CudaBuiltinModule(const CudaApi& api, int computeCapability) : api_(api) {
  const CudaPtxImage* image = imageFor(computeCapability);
  if (!image) {
    throw OperationFailure("unsupported-device",
                           "this addon's kernels need compute capability 7.5 or newer, and the device has " +
                               std::to_string(computeCapability / 10) + "." +
                               std::to_string(computeCapability % 10));
  }
  module_ = loadModule(api, image->text, "the built-in kernels");
  const auto get = [&](CUfunction& function, const char* name) {
    const CUresult result = api.cuModuleGetFunction(&function, module_, name);
    if (result != CUDA_SUCCESS) {
      api.cuModuleUnload(module_);
      throw OperationFailure(api.errorName(result),
                             std::string("the built-in kernel ") + name + " is missing");
    }
  };
  const auto getGrouped = [&](GroupedFunction& function, const std::string& name) {
    get(function.warp, (name + "_warp").c_str());
    get(function.block, (name + "_block").c_str());
  };
  getGrouped(functions_.hashPages, "kreplay_hash_pages");
  getGrouped(functions_.findChangedPages, "kreplay_find_changed_pages");
  get(functions_.checkPageList, "kreplay_check_page_list");
  getGrouped(functions_.copyPageList, "kreplay_copy_page_list");
  getGrouped(functions_.checkAndCopyPageList, "kreplay_check_and_copy_page_list");
  getGrouped(functions_.copyChunks, "kreplay_copy_chunks");
  get(functions_.fill, "kreplay_fill");
  get(functions_.xorWords, "kreplay_xor_words");
  getGrouped(functions_.scatterWrite, "kreplay_scatter_write");
  get(functions_.triad, "kreplay_triad");
  get(functions_.stencilSave, "kreplay_stencil_save");
  get(functions_.stencil, "kreplay_stencil");
  get(functions_.accumulate, "kreplay_accumulate");
  get(functions_.delay, "kreplay_delay");
  get(functions_.discardL2Lines, "kreplay_discard_l2_lines");
  get(functions_.takeState, "kreplay_take_state");
}

CudaBuiltinModule::~CudaBuiltinModule() {
  if (module_) api_.cuModuleUnload(module_);
}

}  // namespace kreplay::cuda
