#pragma once

#include <cstdint>
#include <memory>

#include "drivers/cuda/cuda-device.hpp"
#include "drivers/cuda/cuda-queue.hpp"

namespace kreplay::cuda {

/**
 * An experiment of the profiler: leaving the device's address translations cold before each pass
 * (KREPLAY_PROFILER_TLB). ncu's passes read the same work counts as kreplay's on an H200 but with
 * more cycles active on the multiprocessors, as if every page's first access missed its
 * translation (bench/scripts/capture-acceptance/counter-experiment.sh).
 *   off (the default): nothing;
 *   unmap:  a 2 MiB page is mapped and unmapped, which makes the driver invalidate translations;
 *   thrash: a kernel loads one word of each 2 MiB page of KREPLAY_PROFILER_TLB_GIB (default 32)
 *           GiB of its own, to push every other translation out.
 */
class CudaTranslationEviction {
 public:
  enum class Mode { Off, Unmap, Thrash };

  /** @throws OperationFailure when KREPLAY_PROFILER_TLB or KREPLAY_PROFILER_TLB_GIB is not understood. */
  explicit CudaTranslationEviction(std::shared_ptr<CudaDevice> device);
  ~CudaTranslationEviction();
  CudaTranslationEviction(const CudaTranslationEviction&) = delete;
  CudaTranslationEviction& operator=(const CudaTranslationEviction&) = delete;

  /**
   * Thrash: enqueues the loads on the queue's stream (before the L2 flush, which then evicts their
   * lines). `state` is the queue state word the touch kernel checks.
   */
  void enqueue(CudaQueue& queue, std::uint64_t state);
  /** Unmap: maps and unmaps the page, on the host, once the stream is idle (after the flush). */
  void afterIdle();
  /** Frees what it made; the context must be current. */
  void release() noexcept;

 private:
  std::shared_ptr<CudaDevice> device_;
  const Mode mode_;
  const std::uint64_t thrashBytes_;
  CUdeviceptr thrash_ = 0;
  CUdeviceptr page_ = 0;
  CUmemGenericAllocationHandle handle_ = 0;
};

}  // namespace kreplay::cuda
