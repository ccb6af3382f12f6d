#include "drivers/hsa/hsa-memory.hpp"

#include <sys/mman.h>

namespace kreplay::hsa {

HsaMemory::HsaMemory(const HsaRuntime& runtime, const HsaSystem& system)
    : runtime_(runtime), system_(system), allocatedBytes_(system.gpus.size(), 0) {
  for (const auto& gpu : system.gpus) gpuAgents_.push_back(gpu.agent);
}

AllocationResult HsaMemory::allocate(std::uint32_t agent, std::uint64_t bytes) {
  const GpuAgent& gpu = system_.gpus.at(agent);
  const std::uint64_t available = info(agent).freeBytes;
  if (bytes > available) return {0, false, available};  // more than the pool has left for this runtime
  void* pointer = nullptr;
  const EntryPoints& api = runtime_.api();
  if (api.hsa_amd_memory_pool_allocate(gpu.devicePool, bytes, 0, &pointer) != HSA_STATUS_SUCCESS || !pointer)
    return {0, false, info(agent).freeBytes};
  if (gpuAgents_.size() > 1 &&
      api.hsa_amd_agents_allow_access(static_cast<std::uint32_t>(gpuAgents_.size()), gpuAgents_.data(),
                                      nullptr, pointer) != HSA_STATUS_SUCCESS) {
    api.hsa_amd_memory_pool_free(pointer);
    return {0, false, info(agent).freeBytes};
  }
  const std::uint64_t address = addressOf(pointer);
  std::lock_guard<std::mutex> lock(mutex_);
  regions_.insert(address, {bytes, false, agent, address});
  allocatedBytes_[agent] += bytes;
  return {address, false, gpu.deviceMemoryBytes - std::min(gpu.deviceMemoryBytes, allocatedBytes_[agent])};
}

void HsaMemory::free(std::uint64_t address) {
  std::optional<Region> region;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    region = regions_.remove(address);
    if (region && !region->host) allocatedBytes_[region->agent] -= region->bytes;
  }
  if (region && !region->host) runtime_.api().hsa_amd_memory_pool_free(pointerOf(address));
}

MemoryInfo HsaMemory::info(std::uint32_t agent) {
  const std::uint64_t total = system_.gpus.at(agent).deviceMemoryBytes;
  std::lock_guard<std::mutex> lock(mutex_);
  return {total - std::min(total, allocatedBytes_[agent]), total};
}

std::uint64_t HsaMemory::allocateHost(std::uint64_t bytes) {
  void* host = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (host == MAP_FAILED) return 0;
  void* device = nullptr;
  if (runtime_.api().hsa_amd_memory_lock(host, bytes, gpuAgents_.data(), static_cast<int>(gpuAgents_.size()),
                                         &device) != HSA_STATUS_SUCCESS) {
    munmap(host, bytes);
    return 0;
  }
  const std::uint64_t address = addressOf(host);
  std::lock_guard<std::mutex> lock(mutex_);
  regions_.insert(address, {bytes, true, 0, addressOf(device)});
  return address;
}

void HsaMemory::freeHost(std::uint64_t address) {
  std::optional<Region> region;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    region = regions_.remove(address);
  }
  if (!region || !region->host) return;
  runtime_.api().hsa_amd_memory_unlock(pointerOf(address));
  munmap(pointerOf(address), region->bytes);
}

void HsaMemory::freeAll() {
  std::vector<std::pair<std::uint64_t, Region>> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    all.assign(regions_.all().begin(), regions_.all().end());
  }
  for (const auto& [address, region] : all) region.host ? freeHost(address) : free(address);
}

std::uint64_t HsaMemory::toDevice(std::uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return regions_.toDevice(address);
}

hsa_agent_t HsaMemory::copyAgentOf(std::uint64_t address, hsa_agent_t fallback) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = regions_.find(address);
  if (!found) return fallback;
  return found->second.host ? system_.cpu : system_.gpus.at(found->second.agent).agent;
}

bool HsaMemory::isHost(std::uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = regions_.find(address);
  return found && found->second.host;
}

}  // namespace kreplay::hsa
