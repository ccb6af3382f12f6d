#include "drivers/cuda/cuda-upload-ring.hpp"

#include <algorithm>
#include <cstring>

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

namespace {

constexpr std::uint64_t kFirstCapacity = 256 * 1024;
constexpr std::uint64_t kAlignment = 256;

}  // namespace

CudaUploadRing::CudaUploadRing(std::shared_ptr<const CudaContext> context, CUstream stream)
    : context_(std::move(context)), stream_(stream) {}

CudaUploadRing::~CudaUploadRing() {
  regions_.clear();
  spareEvents_.clear();
  if (buffer_ && context_->tryMakeCurrent()) context_->api().cuMemFreeHost(buffer_);
}

void CudaUploadRing::grow(std::uint64_t bytes) {
  const CudaApi& api = context_->api();
  check(api, api.cuStreamSynchronize(stream_), "cuStreamSynchronize");  // every region's copy is done
  for (auto& region : regions_) spareEvents_.push_back(std::move(region.copied));
  regions_.clear();
  if (buffer_) api.cuMemFreeHost(buffer_);
  buffer_ = nullptr;
  const std::uint64_t capacity = std::max({kFirstCapacity, 2 * capacity_, bytes});
  void* memory = nullptr;
  check(api, api.cuMemHostAlloc(&memory, capacity, CU_MEMHOSTALLOC_PORTABLE), "cuMemHostAlloc");
  buffer_ = static_cast<std::uint8_t*>(memory);
  capacity_ = capacity;
  head_ = 0;
}

std::uint64_t CudaUploadRing::place(std::uint64_t bytes) {
  const CudaApi& api = context_->api();
  while (!regions_.empty() && api.cuEventQuery(regions_.front().copied->get()) == CUDA_SUCCESS) {
    spareEvents_.push_back(std::move(regions_.front().copied));
    regions_.pop_front();
  }
  const std::uint64_t offset = head_ + bytes <= capacity_ ? head_ : 0;
  const auto overlaps = [&](const Region& region) {
    return region.offset < offset + bytes && offset < region.offset + region.bytes;
  };
  // The regions in the way are the oldest ones: wait for them in order.
  while (std::any_of(regions_.begin(), regions_.end(), overlaps)) {
    check(api, api.cuEventSynchronize(regions_.front().copied->get()), "cuEventSynchronize");
    spareEvents_.push_back(std::move(regions_.front().copied));
    regions_.pop_front();
  }
  head_ = (offset + bytes + kAlignment - 1) / kAlignment * kAlignment;
  return offset;
}

std::shared_ptr<CudaEventHandle> CudaUploadRing::takeEvent() {
  if (spareEvents_.empty()) return std::make_shared<CudaEventHandle>(context_, CU_EVENT_DISABLE_TIMING);
  auto event = std::move(spareEvents_.back());
  spareEvents_.pop_back();
  return event;
}

void CudaUploadRing::upload(const void* source, std::uint64_t bytes, CUdeviceptr destination) {
  if (bytes == 0) return;
  if (bytes > capacity_) grow(bytes);
  const std::uint64_t offset = place(bytes);
  std::memcpy(buffer_ + offset, source, bytes);
  const CudaApi& api = context_->api();
  check(api,
        api.cuMemcpyAsync(destination, reinterpret_cast<std::uintptr_t>(buffer_ + offset), bytes, stream_),
        "cuMemcpyAsync");
  auto copied = takeEvent();
  check(api, api.cuEventRecord(copied->get(), stream_), "cuEventRecord");
  regions_.push_back({offset, bytes, std::move(copied)});
}

}  // namespace kreplay::cuda
