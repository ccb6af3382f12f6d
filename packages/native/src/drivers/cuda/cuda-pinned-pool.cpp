#include "drivers/cuda/cuda-pinned-pool.hpp"

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

std::uint64_t CudaPinnedPool::sizeClass(std::uint64_t bytes) {
  std::uint64_t size = 4096;
  while (size < bytes) size <<= 1;
  return size;
}

std::uint8_t* CudaPinnedPool::acquire(std::uint64_t bytes) {
  const std::uint64_t size = sizeClass(bytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = free_.find(size);
    if (found != free_.end()) {
      std::uint8_t* buffer = found->second;
      free_.erase(found);
      return buffer;
    }
  }
  context_->makeCurrent();
  void* memory = nullptr;
  const CudaApi& api = context_->api();
  check(api, api.cuMemHostAlloc(&memory, size, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
        "cuMemHostAlloc");
  auto* buffer = static_cast<std::uint8_t*>(memory);
  std::lock_guard<std::mutex> lock(mutex_);
  sizes_[buffer] = size;
  return buffer;
}

void CudaPinnedPool::release(std::uint8_t* buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = sizes_.find(buffer);
  if (found != sizes_.end()) free_.emplace(found->second, buffer);
}

void CudaPinnedPool::releaseAll() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!sizes_.empty() && context_->tryMakeCurrent()) {
    for (const auto& entry : sizes_) context_->api().cuMemFreeHost(entry.first);
  }
  sizes_.clear();
  free_.clear();
}

}  // namespace kreplay::cuda
