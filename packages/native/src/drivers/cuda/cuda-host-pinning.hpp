// Pinned, device-mapped host memory for host allocations (runtime.allocateHost with pinned: true),
// made fast for the large mirrors of snapshots that span tiers. On an H200 host (16 cores, CUDA 13.0,
// experiments/native-probes/pin-speed.cpp, 8 GiB): cuMemHostAlloc pinned 1.7 GiB/s, and 2.0 GiB/s from 16
// threads at once; anonymous memory with transparent huge pages, touched by 16 threads
// (33 GiB/s) and then registered whole with cuMemHostRegister (46 GiB/s), took 0.42 s in all, 11x
// less. So large blocks are made that way; small ones, and every case the driver refuses, come
// from cuMemHostAlloc.
#pragma once

#include <cstdint>
#include <optional>

#include "drivers/cuda/cuda-api.hpp"

namespace kreplay::cuda {

/** A pinned host block: where it is, and how it was made (so that it is freed the same way). */
struct PinnedHostBlock {
  void* pointer = nullptr;
  /** The bytes mapped with mmap and registered; 0 when the block came from cuMemHostAlloc. */
  std::uint64_t mappedBytes = 0;
};

/** Whether the library can register host memory it did not allocate (the entry points are optional). */
bool canRegisterHostMemory(const CudaApi& api);

/** What registering host memory came to: each step's result, and where the device reaches the memory. */
struct HostRegistration {
  CUresult registered = CUDA_SUCCESS;  ///< cuMemHostRegister
  CUresult found = CUDA_SUCCESS;       ///< cuMemHostGetDevicePointer
  CUdeviceptr devicePointer = 0;
  /** Registered, and the device reaches it at its own address. */
  bool atSameAddress(const void* pointer) const {
    return registered == CUDA_SUCCESS && found == CUDA_SUCCESS && devicePointer == reinterpret_cast<CUdeviceptr>(pointer);
  }
};

/**
 * Registers `bytes` at `pointer` as portable, device-mapped memory, so that kernels reach it at its
 * own address. When they would not, it is unregistered again: nothing stays registered unless
 * `atSameAddress` holds (canRegisterHostMemory must).
 */
HostRegistration registerHostAtSameAddress(const CudaApi& api, void* pointer, std::uint64_t bytes);

/** Blocks from this size up are mapped and registered rather than allocated by the driver. */
constexpr std::uint64_t kRegisteredPinningThreshold = std::uint64_t{64} << 20;

/**
 * `bytes` of zeroed host memory, pinned and mapped for every device at the same address (the
 * context must be current). Empty when the memory cannot be had.
 */
std::optional<PinnedHostBlock> allocatePinnedHost(const CudaApi& api, std::uint64_t bytes);

/** Frees a block from allocatePinnedHost (the context must be current). */
void freePinnedHost(const CudaApi& api, const PinnedHostBlock& block);

}  // namespace kreplay::cuda
