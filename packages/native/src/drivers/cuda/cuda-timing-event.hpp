// A TimingEvent of the cuda driver: a CUDA event recorded on the queue's stream. It completes,
// with its device timestamp, when the recording queue's completion thread sees the event complete,
// or earlier when a queue that waited for it (cuStreamWaitEvent, on the device) reaches a marker.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>

#include "core/event-state.hpp"
#include "drivers/cuda/cuda-device.hpp"

namespace kreplay::cuda {

class CudaTimingEvent : public EventState {
 public:
  /** @throws OperationFailure when the CUDA event cannot be created. */
  explicit CudaTimingEvent(std::shared_ptr<CudaDevice> device);

  const std::shared_ptr<CudaEventHandle>& handle() const { return handle_; }
  /** Marks it completed with its device timestamp, once (the CUDA event has completed). Any thread. */
  void completeOnDevice();
  /** Called by the recording queue: whether cuEventRecord succeeded (false: nothing will complete it on the
   * device). */
  void markRecorded(bool recorded);
  /** Blocks until the recording queue has tried to record it; whether it was recorded. */
  bool waitRecorded();

 private:
  std::shared_ptr<CudaDevice> device_;
  std::shared_ptr<CudaEventHandle> handle_;
  std::mutex timingMutex_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool decided_ = false;
  bool recorded_ = false;
};

}  // namespace kreplay::cuda
