// Uploads of small host tables (spans, chunks) without ever waiting for the stream: the table is
// copied into a pinned ring buffer, and a cuMemcpyAsync from there is enqueued. A region of the
// ring is reused once the event recorded after its copy has completed (cuMemcpyAsync from
// pageable memory could synchronize with the stream instead). Used by one thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "drivers/cuda/cuda-context.hpp"

namespace kreplay::cuda {

class CudaUploadRing {
 public:
  CudaUploadRing(std::shared_ptr<const CudaContext> context, CUstream stream);
  ~CudaUploadRing();
  CudaUploadRing(const CudaUploadRing&) = delete;
  CudaUploadRing& operator=(const CudaUploadRing&) = delete;

  /**
   * Copies `bytes` from `source` now and enqueues their copy to device memory at `destination`.
   * @throws OperationFailure when pinning the ring or enqueueing fails.
   */
  void upload(const void* source, std::uint64_t bytes, CUdeviceptr destination);

 private:
  struct Region {
    std::uint64_t offset;
    std::uint64_t bytes;
    std::shared_ptr<CudaEventHandle> copied;
  };
  void grow(std::uint64_t bytes);
  std::uint64_t place(std::uint64_t bytes);
  std::shared_ptr<CudaEventHandle> takeEvent();

  std::shared_ptr<const CudaContext> context_;
  CUstream stream_;
  std::uint8_t* buffer_ = nullptr;
  std::uint64_t capacity_ = 0;
  std::uint64_t head_ = 0;
  std::deque<Region> regions_;
  std::vector<std::shared_ptr<CudaEventHandle>> spareEvents_;
};

}  // namespace kreplay::cuda
