// What the cuda driver allocated, by address: to free it (device allocations are aligned to 4096
// bytes inside a larger CUDA allocation), to free everything at shutdown, and to tell device memory
// from host memory and pageable host memory (which the GPU cannot reach) for each operation.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace kreplay::cuda {

/**
 * FixedDevice and FixedHost: memory at a chosen address (cuda-fixed-memory.hpp; `base` is its token);
 * ModuleGlobal: a module's global variable, freed with its module.
 */
enum class CudaMemoryKind { Device, StreamOrdered, HostPinned, HostPageable, FixedDevice, FixedHost, ModuleGlobal };

struct CudaMemoryBlock {
  std::uint64_t bytes;
  CudaMemoryKind kind;
  std::uint32_t agent;  // device memory only
  std::uint64_t base;   // what to pass to the free call
  std::uint64_t mappedBytes = 0;  // pinned host memory mapped and registered (cuda-host-pinning.hpp)
};

class CudaMemoryRegistry {
 public:
  void add(std::uint64_t address, const CudaMemoryBlock& block);
  /** Removes and returns the block at `address` (its start), if any. */
  std::optional<CudaMemoryBlock> remove(std::uint64_t address);
  /** Removes and returns every block. */
  std::vector<CudaMemoryBlock> removeAll();

  /** Whether [address, address + bytes) touches pageable host memory of this driver. Cheap when there is
   * none. */
  bool touchesPageable(std::uint64_t address, std::uint64_t bytes) const;
  /** Whether `address` is device memory (not addressable by the CPU). */
  bool isDevice(std::uint64_t address) const;
  /** Whether a block starts at `address`. */
  bool contains(std::uint64_t address) const;

 private:
  const CudaMemoryBlock* holding(std::uint64_t address, std::uint64_t& start) const;

  mutable std::shared_mutex mutex_;
  std::map<std::uint64_t, CudaMemoryBlock> blocks_;
  std::atomic<std::size_t> pageableCount_{0};
};

}  // namespace kreplay::cuda
