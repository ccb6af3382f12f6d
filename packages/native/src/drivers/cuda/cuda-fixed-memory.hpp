// Memory at exact addresses (a capture replayed at its own addresses): device memory mapped with
// the virtual memory calls (cuMemAddressReserve at the address, cuMemCreate, cuMemMap,
// cuMemSetAccess) and host memory mapped with mmap and registered (cuMemHostRegister). Ranges are
// widened to whole granules (device: the allocation granularity; host: pages); ranges that share a
// granule share its mapping, which lives while one of them does. Placeholders of
// core/address-reservations.hpp are taken out for a mapping and put back when it goes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "drivers/cuda/cuda-device.hpp"

namespace kreplay::cuda {

class CudaFixedMemory {
 public:
  explicit CudaFixedMemory(std::vector<std::shared_ptr<CudaDevice>> devices);
  ~CudaFixedMemory();
  CudaFixedMemory(const CudaFixedMemory&) = delete;
  CudaFixedMemory& operator=(const CudaFixedMemory&) = delete;

  /**
   * Device memory of `agent` over [address, address + bytes).
   * @returns the allocation's token, for release.
   * @throws OperationFailure `unsupported` without the calls, `address-taken` when CUDA cannot
   * reserve the exact range, `overlap` when it meets another agent's or host mapping, or the CUDA error.
   */
  std::uint64_t mapDevice(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes);
  /** Host memory over [address, address + bytes), pinned and mapped for every device at the same address. */
  std::uint64_t mapHost(std::uint64_t address, std::uint64_t bytes);
  /** Lets go of an allocation (its token): mappings no other allocation shares are unmapped. */
  void release(std::uint64_t token);
  /** Unmaps everything (at shutdown). */
  void releaseAll();

 private:
  struct Mapping {
    std::uint64_t end;
    bool host;
    std::uint32_t agent;
    CUmemGenericAllocationHandle handle;
    std::uint32_t references;
  };

  /** The mappings covering [start, end) with `host` and `agent`, new ones made for the gaps; each referenced once more. */
  std::vector<std::uint64_t> acquire(std::uint64_t start, std::uint64_t end, bool host, std::uint32_t agent);
  Mapping makeDevice(std::uint32_t agent, std::uint64_t start, std::uint64_t end);
  Mapping makeHost(std::uint64_t start, std::uint64_t end);
  void unmap(std::uint64_t start, const Mapping& mapping);
  const CudaApi& api() const { return devices_.front()->api(); }
  std::uint64_t granularity(std::uint32_t agent);

  std::vector<std::shared_ptr<CudaDevice>> devices_;
  std::mutex mutex_;
  std::map<std::uint64_t, Mapping> mappings_;                        // by start; disjoint
  std::map<std::uint64_t, std::vector<std::uint64_t>> allocations_;  // token -> its mappings' starts
  std::uint64_t nextToken_ = 1;
  std::map<std::uint32_t, std::uint64_t> granularities_;
};

}  // namespace kreplay::cuda
