#include "drivers/cuda/cuda-stream-work.hpp"

#include <cstring>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-launch.hpp"

namespace kreplay::cuda {

CudaStreamWork::CudaStreamWork(std::shared_ptr<CudaDriverContext> driver, std::uint32_t agent)
    : driver_(std::move(driver)),
      device_(driver_->devices.at(agent)),
      agent_(agent),
      random_(std::random_device{}()) {
  device_->context()->makeCurrent();
  const CudaApi& api = device_->api();
  check(api, api.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  try {
    check(api, api.cuMemAlloc(&state_, sizeof(KreplayQueueState)), "cuMemAlloc");
    check(api, api.cuMemsetD8Async(state_, 0, sizeof(KreplayQueueState), stream_), "cuMemsetD8Async");
    scratch_ = std::make_unique<CudaDeviceScratch>(device_, stream_);
  } catch (...) {
    if (state_ != 0) api.cuMemFree(state_);
    api.cuStreamDestroy(stream_);
    throw;
  }
}

CudaStreamWork::~CudaStreamWork() {
  if (!device_->context()->tryMakeCurrent()) return;
  const CudaApi& api = device_->api();
  api.cuStreamSynchronize(stream_);
  for (const auto& delivery : deliveries_) driver_->pinned->release(delivery.staging);
  scratch_.reset();
  api.cuMemFree(state_);
  api.cuStreamDestroy(stream_);
}

std::uint64_t CudaStreamWork::uploadSpans(const std::vector<KreplaySpan>& spans) {
  return scratch_->uploadTable(spans.data(), spans.size() * sizeof(KreplaySpan));
}

void CudaStreamWork::delay(double milliseconds) {
  launchKernel(*device_, device_->functions().delay, 1, 32, stream_,
               static_cast<std::uint64_t>(milliseconds * 1e6));
}

KreplayStateReport* CudaStreamWork::takeStateReport() {
  if (!armed_) return nullptr;
  armed_ = false;
  auto* report = reinterpret_cast<KreplayStateReport*>(driver_->pinned->acquire(sizeof(KreplayStateReport)));
  std::memset(report, 0, sizeof *report);
  try {
    launchKernel(*device_, device_->functions().takeState, 1, 32, stream_, state_, addressOf(report));
  } catch (...) {
    releaseReport(report);
    throw;
  }
  return report;
}

void CudaStreamWork::releaseReport(KreplayStateReport* report) const {
  if (report) driver_->pinned->release(reinterpret_cast<std::uint8_t*>(report));
}

std::vector<HashDelivery> CudaStreamWork::takeDeliveries() {
  return std::move(deliveries_);
}

void CudaStreamWork::deliver(const std::vector<HashDelivery>& deliveries) const {
  for (const auto& delivery : deliveries) {
    std::memcpy(delivery.destination, delivery.staging, delivery.bytes);
    driver_->pinned->release(delivery.staging);
  }
}

}  // namespace kreplay::cuda
