// The agents and memory pools the hsa driver uses, found after hsa_init: the CPU agent and its
// kernarg pool (fine-grained system memory the host writes and the GPU reads: kernargs, page tables,
// status words), and per GPU agent its coarse-grained device memory pool.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "drivers/hsa/hsa-runtime.hpp"

namespace kreplay::hsa {

struct GpuAgent {
  hsa_agent_t agent;
  std::string processor;    // HSA_AGENT_INFO_NAME, e.g. gfx90a
  std::string productName;  // e.g. AMD Instinct MI210
  hsa_amd_memory_pool_t devicePool;
  std::uint64_t deviceMemoryBytes;
  std::uint32_t queueMaxSize;
};

struct HsaSystem {
  hsa_agent_t cpu;
  hsa_amd_memory_pool_t kernargPool;
  /** The GPU agents this build has code objects for, in the runtime's order. */
  std::vector<GpuAgent> gpus;
  /** Ticks per second of the HSA system clock (profiling timestamps). */
  std::uint64_t timestampFrequency;
};

/** The processors of every GPU agent (hsa_init must have succeeded). */
std::vector<std::string> gpuProcessors(const HsaRuntime& runtime);

/**
 * Finds the CPU agent, its kernarg pool and the GPU agents whose processor is in `processors`,
 * each with a device pool. @throws HsaError when a query fails or a pool is missing.
 */
HsaSystem discoverSystem(const HsaRuntime& runtime, const std::vector<std::string>& processors);

}  // namespace kreplay::hsa
