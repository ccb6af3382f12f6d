#include "drivers/cuda/cuda-l2-flush.hpp"

#include <algorithm>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-launch.hpp"
#include "kernels-cuda/kernel-abi.h"

namespace kreplay::cuda {

namespace {

constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;

/**
 * Bytes of the buffer written after each flush and left dirty in the L2. Under `ncu --cache-control
 * all` kernels that stream more than the L2 holds wrote 64-78 thousand sectors (2.0-2.5 MB) more to
 * DRAM than after a clean flush, whatever they wrote themselves (an H100 and an H200); with these
 * lines the DRAM sectors captured kernels write read 0.99-1.00x ncu's, where a clean flush read
 * 0.07-0.09x (an H100).
 */
constexpr std::uint64_t kDirtyBytes = 2560u << 10;

}  // namespace

CudaL2Flush::CudaL2Flush(std::shared_ptr<CudaDevice> device, L2Flush mode) : device_(std::move(device)), mode_(mode) {
  if (mode_ == L2Flush::None) return;
  const CudaApi& cuda = device_->api();
  int l2Bytes = 0;
  cuda.cuDeviceGetAttribute(&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device_->context()->device());
  bytes_ = std::max<std::uint64_t>(8u << 20, 2 * static_cast<std::uint64_t>(l2Bytes));
  check(cuda, cuda.cuMemAlloc(&buffer_, bytes_), "cuMemAlloc");
  if (cuda.cuMemAlloc(&state_, sizeof(KreplayQueueState)) != CUDA_SUCCESS ||
      cuda.cuMemsetD8Async(buffer_, 0x5a, bytes_, nullptr) != CUDA_SUCCESS ||
      cuda.cuMemsetD8Async(state_, 0, sizeof(KreplayQueueState), nullptr) != CUDA_SUCCESS ||
      cuda.cuCtxSynchronize() != CUDA_SUCCESS) {
    release();
    throw OperationFailure("CUDA_ERROR_OUT_OF_MEMORY", "the profiler's L2 flush buffer could not be set up");
  }
}

void CudaL2Flush::enqueue(CUstream stream) {
  if (mode_ == L2Flush::None) return;
  const CudaApi& cuda = device_->api();
  const std::uint64_t threads = KREPLAY_BLOCK_THREADS;
  if (mode_ == L2Flush::WriteDiscard) {
    // Written, so every line the restore or the run before left dirty is written back; then dropped
    // (discard.global.L2), so the L2 holds no valid line.
    check(cuda, cuda.cuMemsetD8Async(buffer_, 0x5a, bytes_, stream), "cuMemsetD8Async");
    launchKernel(*device_, device_->functions().discardL2Lines, gridFor(*device_, bytes_ / 128, threads),
                 static_cast<unsigned>(threads), stream, static_cast<std::uint64_t>(buffer_), bytes_);
  } else {
    launchKernel(*device_, device_->functions().xorWords, gridFor(*device_, bytes_ / 8, threads),
                 static_cast<unsigned>(threads), stream, static_cast<std::uint64_t>(buffer_), bytes_,
                 static_cast<std::uint64_t>(state_));
  }
  dirtyValue_ = static_cast<unsigned char>(~dirtyValue_);
  check(cuda, cuda.cuMemsetD8Async(buffer_, dirtyValue_, kDirtyBytes, stream), "cuMemsetD8Async");
}

void CudaL2Flush::release() noexcept {
  const CudaApi& cuda = device_->api();
  if (state_) cuda.cuMemFree(state_);
  if (buffer_) cuda.cuMemFree(buffer_);
  state_ = buffer_ = 0;
}

}  // namespace kreplay::cuda
