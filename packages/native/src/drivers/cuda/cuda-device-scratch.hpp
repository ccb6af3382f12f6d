// A queue's reusable device memory for the tables its operations upload (spans, chunks) and their
// temporaries (stencil halos). Operations of one stream run in order, so each one may overwrite
// what the previous one used: an upload is enqueued after the previous kernel on the same stream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "drivers/cuda/cuda-device.hpp"
#include "drivers/cuda/cuda-upload-ring.hpp"

namespace kreplay::cuda {

class CudaDeviceScratch {
 public:
  CudaDeviceScratch(std::shared_ptr<CudaDevice> device, CUstream stream)
      : device_(std::move(device)), stream_(stream), ring_(device_->context(), stream) {}
  ~CudaDeviceScratch();
  CudaDeviceScratch(const CudaDeviceScratch&) = delete;
  CudaDeviceScratch& operator=(const CudaDeviceScratch&) = delete;

  /**
   * At least `bytes` bytes of device memory for work enqueued from now on (stream-ordered growth).
   * @throws OperationFailure when the device has no memory for it.
   */
  std::uint64_t reserve(std::uint64_t bytes);
  /** Uploads `bytes` of host memory (copied before this returns) to the start of the scratch; returns it. */
  std::uint64_t upload(const void* source, std::uint64_t bytes);
  /**
   * A device copy of a small table that operations read but never write (spans, chunks): the same
   * bytes uploaded before by this queue are found again without a copy (a mirror's spans are the
   * same every dispatch); larger tables go to the scratch like `upload`. When the kept tables fill
   * their memory it starts over: a later upload over a table runs after every earlier reader of it.
   */
  std::uint64_t uploadTable(const void* source, std::uint64_t bytes);

 private:
  void release();
  static constexpr std::uint64_t kTableMemoryBytes = 256 * 1024;
  static constexpr std::uint64_t kLargestKeptTable = 16 * 1024;

  std::shared_ptr<CudaDevice> device_;
  CUstream stream_;
  CudaUploadRing ring_;
  CUdeviceptr pointer_ = 0;
  std::uint64_t bytes_ = 0;
  CUdeviceptr tables_ = 0;
  std::uint64_t tablesUsed_ = 0;
  std::unordered_map<std::string, std::uint64_t> tableAddresses_;
};

}  // namespace kreplay::cuda
