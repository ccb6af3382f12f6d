#include "drivers/hsa/hsa-system.hpp"

#include <algorithm>

namespace kreplay::hsa {

namespace {

struct AgentList {
  const HsaRuntime* runtime;
  std::vector<hsa_agent_t> cpus;
  std::vector<hsa_agent_t> gpus;
};

hsa_status_t collectAgent(hsa_agent_t agent, void* data) {
  auto& list = *static_cast<AgentList*>(data);
  hsa_device_type_t type;
  const hsa_status_t status = list.runtime->api().hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (status != HSA_STATUS_SUCCESS) return status;
  if (type == HSA_DEVICE_TYPE_CPU) list.cpus.push_back(agent);
  if (type == HSA_DEVICE_TYPE_GPU) list.gpus.push_back(agent);
  return HSA_STATUS_SUCCESS;
}

AgentList listAgents(const HsaRuntime& runtime) {
  AgentList list{&runtime, {}, {}};
  check(runtime, runtime.api().hsa_iterate_agents(collectAgent, &list), "hsa_iterate_agents");
  return list;
}

std::string agentString(const HsaRuntime& runtime, hsa_agent_t agent, int attribute) {
  char text[64] = {};
  check(runtime, runtime.api().hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(attribute), text),
        "hsa_agent_get_info");
  text[63] = '\0';
  return text;
}

struct PoolSearch {
  const HsaRuntime* runtime;
  std::uint32_t wantedFlag;
  hsa_amd_memory_pool_t found{0};
  std::uint64_t bytes = 0;
};

/** Picks the first global pool the runtime may allocate from that has the wanted flag. */
hsa_status_t findPool(hsa_amd_memory_pool_t pool, void* data) {
  auto& search = *static_cast<PoolSearch*>(data);
  const EntryPoints& api = search.runtime->api();
  hsa_amd_segment_t segment;
  std::uint32_t flags = 0;
  bool allocatable = false;
  std::size_t bytes = 0;
  if (api.hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) !=
          HSA_STATUS_SUCCESS ||
      api.hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags) !=
          HSA_STATUS_SUCCESS ||
      api.hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &allocatable) !=
          HSA_STATUS_SUCCESS ||
      api.hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &bytes) != HSA_STATUS_SUCCESS) {
    return HSA_STATUS_SUCCESS;  // skip a pool that cannot be described
  }
  if (segment != HSA_AMD_SEGMENT_GLOBAL || !allocatable || (flags & search.wantedFlag) == 0)
    return HSA_STATUS_SUCCESS;
  search.found = pool;
  search.bytes = bytes;
  return HSA_STATUS_INFO_BREAK;
}

PoolSearch searchPool(const HsaRuntime& runtime, hsa_agent_t agent, std::uint32_t flag, const char* what) {
  PoolSearch search{&runtime, flag};
  check(runtime, runtime.api().hsa_amd_agent_iterate_memory_pools(agent, findPool, &search),
        "hsa_amd_agent_iterate_memory_pools");
  if (search.found.handle == 0)
    throw HsaError("HSA_STATUS_ERROR_INVALID_MEMORY_POOL", std::string("no ") + what + " was found");
  return search;
}

}  // namespace

std::vector<std::string> gpuProcessors(const HsaRuntime& runtime) {
  std::vector<std::string> processors;
  for (const auto agent : listAgents(runtime).gpus)
    processors.push_back(agentString(runtime, agent, HSA_AGENT_INFO_NAME));
  return processors;
}

HsaSystem discoverSystem(const HsaRuntime& runtime, const std::vector<std::string>& processors) {
  const AgentList agents = listAgents(runtime);
  if (agents.cpus.empty())
    throw HsaError("HSA_STATUS_ERROR_INVALID_AGENT", "the ROCm runtime lists no CPU agent");
  HsaSystem system{};
  system.cpu = agents.cpus.front();
  system.kernargPool = searchPool(runtime, system.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT,
                                  "kernarg memory pool on the CPU agent")
                           .found;
  check(runtime,
        runtime.api().hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &system.timestampFrequency),
        "hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY)");
  for (const auto agent : agents.gpus) {
    GpuAgent gpu{};
    gpu.agent = agent;
    gpu.processor = agentString(runtime, agent, HSA_AGENT_INFO_NAME);
    if (std::find(processors.begin(), processors.end(), gpu.processor) == processors.end()) continue;
    gpu.productName = agentString(runtime, agent, HSA_AMD_AGENT_INFO_PRODUCT_NAME);
    const PoolSearch pool = searchPool(runtime, agent, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED,
                                       "device memory pool on a GPU agent");
    gpu.devicePool = pool.found;
    gpu.deviceMemoryBytes = pool.bytes;
    check(runtime, runtime.api().hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &gpu.queueMaxSize),
          "hsa_agent_get_info(HSA_AGENT_INFO_QUEUE_MAX_SIZE)");
    system.gpus.push_back(gpu);
  }
  return system;
}

}  // namespace kreplay::hsa
