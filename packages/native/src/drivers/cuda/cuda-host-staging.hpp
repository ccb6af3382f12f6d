// Memory made addressable by the CPU for one operation on the host path: device ranges are copied
// into host buffers (overlapping ranges merged, so each byte has one copy), used through
// translate(), and the written ones copied back. Host memory (pinned or pageable) is used in place.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "drivers/cuda/cuda-api.hpp"
#include "drivers/cuda/cuda-memory-registry.hpp"

namespace kreplay::cuda {

class CudaHostStaging {
 public:
  CudaHostStaging(const CudaApi& api, const CudaMemoryRegistry& memory) : api_(api), memory_(memory) {}

  /** A range the operation reads (`read`) and/or writes (`write`). Call before stage(). */
  void add(std::uint64_t address, std::uint64_t bytes, bool read, bool write);
  /**
   * Copies the device ranges to host buffers (after the stream is drained).
   * @throws OperationFailure when a copy fails.
   */
  void stage();
  /** Where the CPU finds `address` (itself for host memory). */
  std::uint64_t translate(std::uint64_t address) const;
  /** Copies the written device ranges back. @throws OperationFailure when a copy fails. */
  void writeBack();

 private:
  struct Interval {
    std::uint64_t address;
    std::uint64_t bytes;
    bool read;
    bool write;
    std::unique_ptr<std::uint8_t[]> copy;
  };
  const CudaApi& api_;
  const CudaMemoryRegistry& memory_;
  std::vector<Interval> intervals_;  // device ranges; merged and sorted by stage()
};

}  // namespace kreplay::cuda
