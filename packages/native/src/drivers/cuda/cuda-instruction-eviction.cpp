#include "drivers/cuda/cuda-instruction-eviction.hpp"

#include <string>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-instruction-eviction-ptx.hpp"
#include "drivers/cuda/cuda-launch.hpp"

namespace kreplay::cuda {

namespace {

/**
 * Bytes of code the eviction kernel runs. On an H200 (docs/measurement-conditions.md) 384 KiB
 * brought active cycles to 1.010x ncu's and 1 MiB to 0.998x; 64 KiB agreed with ncu on 2-4 of 26
 * kernels where 384 KiB agreed on 3-6.
 */
constexpr std::uint64_t kCodeBytes = 384u << 10;

}  // namespace

CudaInstructionEviction::CudaInstructionEviction(std::shared_ptr<CudaDevice> device, bool evict)
    : device_(std::move(device)) {
  if (!evict) return;
  const CudaApi& cuda = device_->api();
  const std::string ptx = instructionEvictionPtx(kCodeBytes);
  check(cuda, cuda.cuModuleLoadDataEx(&module_, ptx.c_str(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
  const CUresult found = cuda.cuModuleGetFunction(&function_, module_, kInstructionEvictionKernel);
  const CUresult allocated = found == CUDA_SUCCESS ? cuda.cuMemAlloc(&sink_, 4) : found;
  if (allocated != CUDA_SUCCESS) {
    cuda.cuModuleUnload(module_);
    module_ = nullptr;
    check(cuda, allocated, found == CUDA_SUCCESS ? "cuMemAlloc" : "cuModuleGetFunction");
  }
}

void CudaInstructionEviction::enqueue(CUstream stream) {
  if (function_ == nullptr) return;
  // Four warps of each block, a few blocks on every multiprocessor: each sub-partition fetches it.
  const unsigned blocks = static_cast<unsigned>(device_->multiprocessors()) * 4;
  launchKernel(*device_, function_, blocks, 128, stream, static_cast<std::uint64_t>(sink_));
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
