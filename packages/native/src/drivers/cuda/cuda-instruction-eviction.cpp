#include "drivers/cuda/cuda-instruction-eviction.hpp"

#include <string>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-instruction-eviction-ptx.hpp"
#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/profiler-setting.hpp"

namespace kreplay::cuda {

namespace {

/**
 * KiB of code to run before each pass, or 0 for none: KREPLAY_PROFILER_ICACHE=evict|off (default:
 * evict when the L2 is flushed), KREPLAY_PROFILER_ICACHE_KIB (default 384).
 */
std::uint64_t codeKibFromEnvironment(bool byDefault) {
  if (!profilerChoice("KREPLAY_PROFILER_ICACHE", byDefault, {{"off", false}, {"evict", true}})) return 0;
  return profilerSetting("KREPLAY_PROFILER_ICACHE_KIB", 384, [](std::uint64_t kib) { return kib >= 1 && kib <= 4096; },
                         "not a whole number of KiB from 1 to 4096");
}

}  // namespace

CudaInstructionEviction::CudaInstructionEviction(std::shared_ptr<CudaDevice> device, bool byDefault)
    : device_(std::move(device)) {
  const std::uint64_t kib = codeKibFromEnvironment(byDefault);
  if (kib == 0) return;
  const CudaApi& cuda = device_->api();
  const std::string ptx = instructionEvictionPtx(kib << 10);
  check(cuda, cuda.cuModuleLoadDataEx(&module_, ptx.c_str(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
  const CUresult found = cuda.cuModuleGetFunction(&function_, module_, kInstructionEvictionKernel);
  const CUresult allocated = found == CUDA_SUCCESS ? cuda.cuMemAlloc(&sink_, 4) : found;
  if (allocated != CUDA_SUCCESS) {
    cuda.cuModuleUnload(module_);
    module_ = nullptr;
    check(cuda, allocated, found == CUDA_SUCCESS ? "cuMemAlloc" : "cuModuleGetFunction");
  }
}

CudaInstructionEviction::~CudaInstructionEviction() {
  release();
}

void CudaInstructionEviction::enqueue(CudaQueue& queue) {
  if (function_ == nullptr) return;
  // Four warps of each block, a few blocks on every multiprocessor: each sub-partition fetches it.
  const unsigned blocks = static_cast<unsigned>(device_->multiprocessors()) * 4;
  launchKernel(*device_, function_, blocks, 128, queue.stream(), static_cast<std::uint64_t>(sink_));
}

void CudaInstructionEviction::release() noexcept {
  const CudaApi& cuda = device_->api();
  if (sink_) cuda.cuMemFree(sink_);
  if (module_) cuda.cuModuleUnload(module_);
  sink_ = 0;
  module_ = nullptr;
  function_ = nullptr;
}

}  // namespace kreplay::cuda
