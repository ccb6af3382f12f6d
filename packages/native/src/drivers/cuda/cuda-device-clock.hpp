// Device timestamps of completed events, in nanoseconds on the steady clock's scale: each event is
// timed with cuEventElapsedTime from the event timed before it (of any queue of the device), so the
// float milliseconds CUDA returns always span a short interval and keep sub-microsecond precision.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "drivers/cuda/cuda-context.hpp"

namespace kreplay::cuda {

class CudaDeviceClock {
 public:
  /** Records and waits for a first event, taken as the steady clock's now. */
  explicit CudaDeviceClock(std::shared_ptr<const CudaContext> context);

  /** The timestamp of `event`, which has completed (the calling thread has the context current). */
  std::int64_t timestampOf(const std::shared_ptr<CudaEventHandle>& event);

 private:
  std::mutex mutex_;
  std::shared_ptr<CudaEventHandle> reference_;
  std::int64_t referenceNanoseconds_ = 0;
};

}  // namespace kreplay::cuda
