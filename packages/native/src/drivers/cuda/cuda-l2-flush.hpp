// The profiler's L2 flush before a pass: a device buffer twice the L2's size (at least 8 MiB)
// written and its lines dropped (L2Flush::WriteDiscard) or read (L2Flush::Read), then the first
// 2560 KiB of it written again, so the pass starts with dirty lines that are not the kernel's, as
// under ncu. docs/measurement-conditions.md gives the figures behind each step.
#pragma once

#include <cstdint>
#include <memory>

#include "core/profiler-session.hpp"
#include "drivers/cuda/cuda-device.hpp"

namespace kreplay::cuda {

class CudaL2Flush {
 public:
  /**
   * Makes the buffer (nothing with L2Flush::None); the device's context must be current.
   * @throws OperationFailure when the device has no memory for it.
   */
  CudaL2Flush(std::shared_ptr<CudaDevice> device, L2Flush mode);
  /** Frees nothing: release() does, while the context is current (it may be gone by now). */
  ~CudaL2Flush() = default;
  CudaL2Flush(const CudaL2Flush&) = delete;
  CudaL2Flush& operator=(const CudaL2Flush&) = delete;

  /** Whether enqueue() flushes anything. */
  bool flushes() const { return mode_ != L2Flush::None; }
  /** Enqueues the flush and the dirty lines after it on `stream` (nothing with L2Flush::None). */
  void enqueue(CUstream stream);
  /** Frees the buffer; the context must be current. */
  void release() noexcept;

 private:
  std::shared_ptr<CudaDevice> device_;
  const L2Flush mode_;
  CUdeviceptr buffer_ = 0;
  std::uint64_t bytes_ = 0;
  /** The queue-state word the read's XOR of the buffer goes to (it keeps the reads from being dropped). */
  CUdeviceptr state_ = 0;
  /** What the dirty lines hold: it alternates, so each flush changes every byte it writes. */
  unsigned char dirtyValue_ = 0x5a;
};

}  // namespace kreplay::cuda
