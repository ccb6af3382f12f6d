#include "drivers/cuda/cuda-device-scratch.hpp"

#include <algorithm>

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

CudaDeviceScratch::~CudaDeviceScratch() {
  if ((pointer_ == 0 && tables_ == 0) || !device_->context()->tryMakeCurrent()) return;
  if (pointer_ != 0) device_->api().cuMemFree(pointer_);
  if (tables_ != 0) device_->api().cuMemFree(tables_);
}

void CudaDeviceScratch::release() {
  if (pointer_ == 0) return;
  const CudaApi& api = device_->api();
  if (device_->memoryPools()) {
    check(api, api.cuMemFreeAsync(pointer_, stream_), "cuMemFreeAsync");
  } else {
    check(api, api.cuStreamSynchronize(stream_), "cuStreamSynchronize");
    check(api, api.cuMemFree(pointer_), "cuMemFree");
  }
  pointer_ = 0;
  bytes_ = 0;
}

std::uint64_t CudaDeviceScratch::reserve(std::uint64_t bytes) {
  if (bytes <= bytes_) return pointer_;
  release();
  const std::uint64_t size = std::max<std::uint64_t>({bytes, 2 * bytes_, 64 * 1024});
  const CudaApi& api = device_->api();
  CUdeviceptr pointer = 0;
  check(
      api,
      device_->memoryPools() ? api.cuMemAllocAsync(&pointer, size, stream_) : api.cuMemAlloc(&pointer, size),
      "cuMemAllocAsync");
  pointer_ = pointer;
  bytes_ = size;
  return pointer_;
}

std::uint64_t CudaDeviceScratch::upload(const void* source, std::uint64_t bytes) {
  const std::uint64_t pointer = reserve(bytes);
  ring_.upload(source, bytes, pointer);
  return pointer;
}

std::uint64_t CudaDeviceScratch::uploadTable(const void* source, std::uint64_t bytes) {
  if (bytes > kLargestKeptTable) return upload(source, bytes);
  std::string key(static_cast<const char*>(source), bytes);
  const auto found = tableAddresses_.find(key);
  if (found != tableAddresses_.end()) return found->second;
  if (tables_ == 0) {
    const CudaApi& api = device_->api();
    CUdeviceptr pointer = 0;
    check(api, api.cuMemAlloc(&pointer, kTableMemoryBytes), "cuMemAlloc");
    tables_ = pointer;
  }
  const std::uint64_t aligned = (bytes + 255) / 256 * 256;
  if (tablesUsed_ + aligned > kTableMemoryBytes) {
    tableAddresses_.clear();
    tablesUsed_ = 0;
  }
  const std::uint64_t address = tables_ + tablesUsed_;
  ring_.upload(source, bytes, address);
  tablesUsed_ += aligned;
  tableAddresses_.emplace(std::move(key), address);
  return address;
}

}  // namespace kreplay::cuda
