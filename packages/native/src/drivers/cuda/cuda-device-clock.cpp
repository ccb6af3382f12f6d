#include "drivers/cuda/cuda-device-clock.hpp"

#include <chrono>
#include <cmath>

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

CudaDeviceClock::CudaDeviceClock(std::shared_ptr<const CudaContext> context) {
  reference_ = std::make_shared<CudaEventHandle>(context, CU_EVENT_DEFAULT);
  const CudaApi& api = context->api();
  check(api, api.cuEventRecord(reference_->get(), nullptr), "cuEventRecord");
  check(api, api.cuEventSynchronize(reference_->get()), "cuEventSynchronize");
  referenceNanoseconds_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::steady_clock::now().time_since_epoch())
                              .count();
}

std::int64_t CudaDeviceClock::timestampOf(const std::shared_ptr<CudaEventHandle>& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  float milliseconds = 0;
  const CudaApi& api = event->context().api();
  if (api.cuEventElapsedTime(&milliseconds, reference_->get(), event->get()) != CUDA_SUCCESS) {
    return referenceNanoseconds_;  // not timed (e.g. the context failed): keep the order, not the time
  }
  referenceNanoseconds_ += std::llround(static_cast<double>(milliseconds) * 1e6);
  reference_ = event;
  return referenceNanoseconds_;
}

}  // namespace kreplay::cuda
