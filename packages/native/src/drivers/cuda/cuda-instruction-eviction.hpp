#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "drivers/cuda/cuda-device.hpp"
#include "drivers/cuda/cuda-queue.hpp"

namespace kreplay::cuda {

/**
 * Leaves the multiprocessors' instruction caches cold before each profiled pass, as ncu's cache
 * control does: on an H200 ncu's passes read the same work counts as kreplay's but about 2,400
 * more L2 sectors per launch and 9% more active cycles (hence 8-13% lower l1tex throughput), as
 * if each pass fetched the kernel's code afresh; with this, the active cycles and l1tex throughput
 * agree (bench/scripts/capture-acceptance/counter-experiment.sh). A kernel of
 * KREPLAY_PROFILER_ICACHE_KIB (default 384) KiB of straight-line code, made from PTX when the
 * profiler starts, runs on every multiprocessor before the L2 flush. KREPLAY_PROFILER_ICACHE=off
 * leaves it out, =evict puts it in without a flush. =reload (an experiment, not yet run on a GPU)
 * runs no kernel: it loads and unloads a small module before each pass, in case the driver
 * invalidates the instruction caches when it places new code, which would leave them empty rather
 * than full of other code, as a cache control's invalidation does.
 */
class CudaInstructionEviction {
 public:
  /**
   * `byDefault`: whether it runs when KREPLAY_PROFILER_ICACHE is not set (the profiler flushes the L2).
   * @throws OperationFailure when the setting is not understood or the kernel cannot be made.
   */
  CudaInstructionEviction(std::shared_ptr<CudaDevice> device, bool byDefault);
  ~CudaInstructionEviction();
  CudaInstructionEviction(const CudaInstructionEviction&) = delete;
  CudaInstructionEviction& operator=(const CudaInstructionEviction&) = delete;

  /** Enqueues the kernel on the queue's stream (nothing when off); with =reload, reloads the module once the stream is idle. */
  void enqueue(CudaQueue& queue);
  /** Frees what it made; the context must be current. */
  void release() noexcept;

 private:
  std::shared_ptr<CudaDevice> device_;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUdeviceptr sink_ = 0;
  std::string reloadedPtx_;  // with =reload: the module loaded and unloaded before each pass
};

}  // namespace kreplay::cuda
