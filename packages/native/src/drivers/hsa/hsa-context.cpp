#include "drivers/hsa/hsa-context.hpp"

#include <chrono>

#include "drivers/hsa/msgpack-reader.hpp"

namespace kreplay::hsa {

namespace {

const EmbeddedCodeObject& codeObjectFor(const std::string& processor) {
  for (const auto& object : embeddedCodeObjects()) {
    if (processor == object.processor) return object;
  }
  throw CodeObjectError("no code object for " + processor);
}

}  // namespace

HsaContext::HsaContext(const HsaRuntime& runtime, HsaSystem discovered)
    : runtime(runtime), system(std::move(discovered)), signalAccess(runtime, system.timestampFrequency) {
  for (const auto& gpu : system.gpus)
    executables.push_back(std::make_unique<HsaExecutable>(runtime, gpu.agent, codeObjectFor(gpu.processor)));
  memory = std::make_unique<HsaMemory>(runtime, system);
  signals = std::make_shared<SignalPool>(signalAccess);
}

void HsaContext::release() {
  memory.reset();  // frees what is left
  executables.clear();
  signals.reset();  // destroys the idle signals once no reference is left
}

ChunkSource HsaContext::stagingSource() const {
  std::vector<hsa_agent_t> gpus;
  for (const auto& gpu : system.gpus) gpus.push_back(gpu.agent);
  const HsaRuntime* api = &runtime;
  const hsa_amd_memory_pool_t pool = system.kernargPool;
  ChunkSource source;
  source.allocate = [api, pool, gpus](std::uint64_t bytes) -> std::uint8_t* {
    void* chunk = nullptr;
    if (api->api().hsa_amd_memory_pool_allocate(pool, bytes, 0, &chunk) != HSA_STATUS_SUCCESS || !chunk)
      return nullptr;
    if (api->api().hsa_amd_agents_allow_access(static_cast<std::uint32_t>(gpus.size()), gpus.data(), nullptr,
                                               chunk) != HSA_STATUS_SUCCESS) {
      api->api().hsa_amd_memory_pool_free(chunk);
      return nullptr;
    }
    return static_cast<std::uint8_t*>(chunk);
  };
  source.release = [api](std::uint8_t* chunk) { api->api().hsa_amd_memory_pool_free(chunk); };
  return source;
}

std::int64_t HsaContext::dispatchEndNanoseconds(std::uint32_t agent, const SignalReference& signal) const {
  hsa_amd_profiling_dispatch_time_t time{};
  if (runtime.api().hsa_amd_profiling_get_dispatch_time(system.gpus.at(agent).agent, {signal->handle},
                                                        &time) != HSA_STATUS_SUCCESS ||
      system.timestampFrequency == 0) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  return static_cast<std::int64_t>(static_cast<long double>(time.end) * 1e9L /
                                   static_cast<long double>(system.timestampFrequency));
}

}  // namespace kreplay::hsa
