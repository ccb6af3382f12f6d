#include "drivers/cuda/cuda-host-pinning.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace kreplay::cuda {

namespace {

constexpr std::uint64_t kHugePage = std::uint64_t{2} << 20;
/** Each touching thread takes at least this much, so small blocks are not split among many. */
constexpr std::uint64_t kTouchGrain = std::uint64_t{256} << 20;

/** Faults every page of [memory, memory + bytes) in, from several threads (the kernel zeroes them). */
void touchInParallel(std::uint8_t* memory, std::uint64_t bytes) {
  const std::uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t threads = std::clamp<std::uint64_t>(bytes / kTouchGrain, 1, std::min<std::uint64_t>(cores, 16));
  const std::uint64_t chunk = (bytes / threads + kHugePage - 1) / kHugePage * kHugePage;
  std::vector<std::thread> workers;
  for (std::uint64_t start = chunk; start < bytes; start += chunk) {
    workers.emplace_back([=] { std::memset(memory + start, 0, std::min(chunk, bytes - start)); });
  }
  std::memset(memory, 0, std::min(chunk, bytes));
  for (std::thread& worker : workers) worker.join();
}

/** Mapped, touched and registered; empty when any step is refused (nothing is left behind). */
std::optional<PinnedHostBlock> registeredBlock(const CudaApi& api, std::uint64_t bytes) {
  if (!canRegisterHostMemory(api)) return std::nullopt;
  const std::uint64_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* memory = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) return std::nullopt;
  madvise(memory, mapped, MADV_HUGEPAGE);  // advice only: without huge pages it is slower, not wrong
  touchInParallel(static_cast<std::uint8_t*>(memory), mapped);
  // Kernels reach host memory at its own address (as with cuMemHostAlloc on UVA systems); a device
  // that maps it elsewhere gets cuMemHostAlloc's memory instead.
  if (!registerHostAtSameAddress(api, memory, mapped).atSameAddress(memory)) {
    munmap(memory, mapped);
    return std::nullopt;
  }
  return PinnedHostBlock{memory, mapped};
}

}  // namespace

bool canRegisterHostMemory(const CudaApi& api) {
  return api.cuMemHostRegister && api.cuMemHostUnregister && api.cuMemHostGetDevicePointer;
}

HostRegistration registerHostAtSameAddress(const CudaApi& api, void* pointer, std::uint64_t bytes) {
  HostRegistration outcome;
  outcome.registered = api.cuMemHostRegister(pointer, bytes, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
  if (outcome.registered != CUDA_SUCCESS) return outcome;
  outcome.found = api.cuMemHostGetDevicePointer(&outcome.devicePointer, pointer, 0);
  if (!outcome.atSameAddress(pointer)) api.cuMemHostUnregister(pointer);
  return outcome;
}

std::optional<PinnedHostBlock> allocatePinnedHost(const CudaApi& api, std::uint64_t bytes) {
  if (bytes >= kRegisteredPinningThreshold) {
    if (auto block = registeredBlock(api, bytes)) return block;
  }
  void* memory = nullptr;
  if (api.cuMemHostAlloc(&memory, bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP) != CUDA_SUCCESS)
    return std::nullopt;
  std::memset(memory, 0, bytes);
  return PinnedHostBlock{memory, 0};
}

void freePinnedHost(const CudaApi& api, const PinnedHostBlock& block) {
  if (block.mappedBytes == 0) {
    api.cuMemFreeHost(block.pointer);
    return;
  }
  api.cuMemHostUnregister(block.pointer);
  munmap(block.pointer, block.mappedBytes);
}

}  // namespace kreplay::cuda
