// Pinned, device-mapped host memory for the driver's own staging (hashes bound for a JavaScript
// array, failure reports), kept across operations: pinning is slow, so buffers are reused by size
// class and freed only when the driver shuts down. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "drivers/cuda/cuda-context.hpp"

namespace kreplay::cuda {

class CudaPinnedPool {
 public:
  explicit CudaPinnedPool(std::shared_ptr<const CudaContext> context) : context_(std::move(context)) {}
  ~CudaPinnedPool() { releaseAll(); }
  CudaPinnedPool(const CudaPinnedPool&) = delete;
  CudaPinnedPool& operator=(const CudaPinnedPool&) = delete;

  /**
   * A buffer of at least `bytes` bytes, host and device addressable at the same address.
   * @throws OperationFailure when the memory cannot be pinned.
   */
  std::uint8_t* acquire(std::uint64_t bytes);
  /** Returns a buffer from acquire() for reuse. */
  void release(std::uint8_t* buffer);
  /** Frees every buffer (none may be in use). */
  void releaseAll();

 private:
  static std::uint64_t sizeClass(std::uint64_t bytes);

  std::shared_ptr<const CudaContext> context_;
  std::mutex mutex_;
  std::multimap<std::uint64_t, std::uint8_t*> free_;  // by size class
  std::map<std::uint8_t*, std::uint64_t> sizes_;      // every buffer, by address
};

}  // namespace kreplay::cuda
