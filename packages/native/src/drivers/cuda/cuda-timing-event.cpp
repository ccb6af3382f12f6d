#include "drivers/cuda/cuda-timing-event.hpp"

namespace kreplay::cuda {

CudaTimingEvent::CudaTimingEvent(std::shared_ptr<CudaDevice> device)
    : device_(std::move(device)),
      handle_(std::make_shared<CudaEventHandle>(device_->context(), CU_EVENT_BLOCKING_SYNC)) {}

void CudaTimingEvent::completeOnDevice() {
  std::lock_guard<std::mutex> lock(timingMutex_);
  if (completed()) return;
  device_->context()->tryMakeCurrent();
  complete(device_->clock().timestampOf(handle_));
}

void CudaTimingEvent::markRecorded(bool recorded) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    decided_ = true;
    recorded_ = recorded;
  }
  changed_.notify_all();
}

bool CudaTimingEvent::waitRecorded() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return decided_; });
  return recorded_;
}

}  // namespace kreplay::cuda
