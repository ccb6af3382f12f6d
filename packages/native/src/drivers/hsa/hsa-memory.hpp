// Device memory (hsa_amd_memory_pool_allocate from a GPU agent's coarse-grained pool, accessible to
// every GPU agent for peer copies) and host buffers (page-aligned anonymous memory page-locked with
// hsa_amd_memory_lock for every GPU agent), and the map of both by address.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "core/queue.hpp"
#include "drivers/hsa/address-regions.hpp"
#include "drivers/hsa/hsa-system.hpp"

namespace kreplay::hsa {

class HsaMemory {
 public:
  HsaMemory(const HsaRuntime& runtime, const HsaSystem& system);
  ~HsaMemory() { freeAll(); }
  HsaMemory(const HsaMemory&) = delete;
  HsaMemory& operator=(const HsaMemory&) = delete;

  /** Device memory of GPU agent `agent` (address 0 when the pool is exhausted). */
  AllocationResult allocate(std::uint32_t agent, std::uint64_t bytes);
  void free(std::uint64_t address);
  /** Pool size, and what this runtime has not allocated of it (other processes are not seen). */
  MemoryInfo info(std::uint32_t agent);
  /** A zeroed, page-locked host buffer (both `pinned` kinds are locked: see README). 0 on failure. */
  std::uint64_t allocateHost(std::uint64_t bytes);
  void freeHost(std::uint64_t address);
  void freeAll();

  /** The address the GPU uses for `address` (host buffers may be mapped elsewhere). */
  std::uint64_t toDevice(std::uint64_t address) const;
  /** The agent an async copy names for `address`: the owning GPU, the CPU for host buffers, else `fallback`.
   */
  hsa_agent_t copyAgentOf(std::uint64_t address, hsa_agent_t fallback) const;
  /** Whether `address` lies in a host buffer (the CPU can read it directly). */
  bool isHost(std::uint64_t address) const;

 private:
  const HsaRuntime& runtime_;
  const HsaSystem& system_;
  mutable std::mutex mutex_;
  AddressRegions regions_;
  std::vector<std::uint64_t> allocatedBytes_;  // per GPU agent
  std::vector<hsa_agent_t> gpuAgents_;
};

}  // namespace kreplay::hsa
