#pragma once

#include <cstdint>
#include <memory>

#include "drivers/cuda/cuda-device.hpp"

namespace kreplay::cuda {

/**
 * Leaves the multiprocessors' instruction caches cold before each profiled pass, as ncu's cache
 * control does: a kernel of 384 KiB of straight-line code, made from PTX when the profiler starts,
 * runs on every multiprocessor before the L2 flush. On an H200 ncu's passes read the same work
 * counts as kreplay's but 9% more active cycles (hence 8-13% lower l1tex throughput), as if each
 * pass fetched the kernel's code afresh; with this kernel before each pass the active cycles read
 * 1.010x ncu's and l1tex throughput 0.986x (docs/measurement-conditions.md).
 */
class CudaInstructionEviction {
 public:
  /**
   * Makes the kernel when `evict` (nothing otherwise); the device's context must be current.
   * @throws OperationFailure when the kernel cannot be made.
   */
  CudaInstructionEviction(std::shared_ptr<CudaDevice> device, bool evict);
  /** Frees nothing: release() does, while the context is current. */
  ~CudaInstructionEviction() = default;
  CudaInstructionEviction(const CudaInstructionEviction&) = delete;
  CudaInstructionEviction& operator=(const CudaInstructionEviction&) = delete;

  /** Enqueues the kernel on `stream` (nothing when it does not evict). */
  void enqueue(CUstream stream);
  /** Frees what it made; the context must be current. */
  void release() noexcept;

 private:
  std::shared_ptr<CudaDevice> device_;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUdeviceptr sink_ = 0;
};

}  // namespace kreplay::cuda
