// What a cuda queue puts on its stream, one method per kind of operation. Called by the queue's
// submitting thread only, in queue order. Memory the GPU reaches (device memory, pinned host
// memory) is worked on by the built-in kernels; an operation that touches pageable host memory
// waits for the stream and runs the host driver's algorithm on the CPU instead (see
// cuda-host-path.cpp), so its results are the same bit for bit.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/conditional-copy.hpp"
#include "core/kernels/builtin-kernels.hpp"
#include "core/user-kernel.hpp"
#include "drivers/cuda/cuda-device-scratch.hpp"
#include "drivers/cuda/cuda-driver-context.hpp"
#include "kernels-cuda/kernel-abi.h"

namespace kreplay::cuda {

/** Hashes bound for host memory the GPU cannot write: staged in pinned memory, copied at the next marker. */
struct HashDelivery {
  std::uint8_t* staging;
  std::uint8_t* destination;
  std::uint64_t bytes;
};

class CudaStreamWork {
 public:
  /** @throws OperationFailure when the stream or the queue's device state cannot be created. */
  CudaStreamWork(std::shared_ptr<CudaDriverContext> driver, std::uint32_t agent);
  ~CudaStreamWork();
  CudaStreamWork(const CudaStreamWork&) = delete;
  CudaStreamWork& operator=(const CudaStreamWork&) = delete;

  CUstream stream() const { return stream_; }
  CudaDevice& device() const { return *device_; }
  CudaDriverContext& driver() const { return *driver_; }

  // Operations (cuda-copy-work.cpp, cuda-paged-work.cpp, cuda-kernel-work.cpp).
  void copy(const std::vector<Segment>& segments);
  /** `hostArray`: the hashes go to host memory the caller owns (a JavaScript array), not to driver memory. */
  void hash(const std::vector<Range>& ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress,
            bool hostArray);
  void copyChangedPages(const ConditionalCopy& options);
  void copyPageList(const PageListCopy& options, std::int64_t workIndex);
  void builtinKernel(BuiltinKernel kernel, const std::vector<std::uint64_t>& arguments);
  void userKernel(std::uint32_t kernel, const LaunchShape& shape, UserKernelArguments arguments);
  /** Holds the stream back for `milliseconds` (injected delays), on the device. */
  void delay(double milliseconds);

  // At a synchronize marker (cuda-queue.cpp).
  /** When a device-side failure may be pending, enqueues taking it into a pinned report (else nullptr). */
  KreplayStateReport* takeStateReport();
  /** The hashes to copy to host arrays once the stream reaches the marker. */
  std::vector<HashDelivery> takeDeliveries();
  /** Copies delivered hashes and recycles the staging (completion thread). */
  void deliver(const std::vector<HashDelivery>& deliveries) const;
  void releaseReport(KreplayStateReport* report) const;

 private:
  /** Waits for the stream; false when a failure found on the device means the operation is skipped. */
  bool drainForHost();
  std::uint64_t state() const { return state_; }
  std::uint64_t uploadSpans(const std::vector<KreplaySpan>& spans);
  /** The copy of the pages a page list names (at `pageListAddress`, count at `pageCountAddress`), unchecked. */
  void copyListedPages(std::uint64_t table, std::uint32_t spanCount, std::uint64_t pageBytes, std::uint64_t pages,
                       std::uint64_t pageListAddress, std::uint64_t pageCountAddress,
                       std::uint64_t storedHashesAddress, const CompactPages& compact = {});
  void copyOnHost(const std::vector<Segment>& segments);
  void copyWithKernel(const std::vector<Segment>& segments);
  void hashOnHost(const std::vector<Range>& ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress);
  void copyChangedPagesOnHost(const ConditionalCopy& options);
  void copyPageListOnHost(const PageListCopy& options);
  void builtinKernelOnHost(BuiltinKernel kernel, const std::vector<std::uint64_t>& arguments);

  std::shared_ptr<CudaDriverContext> driver_;
  std::shared_ptr<CudaDevice> device_;
  std::uint32_t agent_;
  CUstream stream_ = nullptr;
  CUdeviceptr state_ = 0;
  std::unique_ptr<CudaDeviceScratch> scratch_;
  /** A page list was copied since the last marker: a device-side failure may be pending. */
  bool armed_ = false;
  std::vector<HashDelivery> deliveries_;
  std::mt19937_64 random_;
};

}  // namespace kreplay::cuda
