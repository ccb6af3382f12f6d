// The fake ROCr's system, agents, memory pools, memory and executables (see fake-hsa.hpp).
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "core/types.hpp"
#include "drivers/hsa/test/fake-hsa-state.hpp"

namespace kreplay::hsa::test {

namespace fake {

State& state() {
  static State instance;
  return instance;
}

bool isGpu(std::uint64_t agent) {
  return agent >= kFirstGpuAgent && agent < kFirstGpuAgent + state().gpus;
}

void addToSignal(Signal* signal, std::int64_t delta) {
  std::lock_guard<std::mutex> lock(state().mutex);
  signal->value += delta;
  state().changed.notify_all();
}

void waitForZero(const std::vector<Signal*>& dependencies) {
  std::unique_lock<std::mutex> lock(state().mutex);
  state().changed.wait(lock, [&] {
    for (const auto* dependency : dependencies) {
      if (dependency && dependency->value.load() != 0) return false;
    }
    return true;
  });
}

std::uint64_t nowTicks() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

void problem(const std::string& what) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().counters.problems.push_back(what);
}

namespace {

hsa_status_t init() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().initCount += 1;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t shutDown() {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().initCount == 0) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  state().initCount -= 1;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t statusString(hsa_status_t, const char** text) {
  *text = "a fake ROCr status";
  return HSA_STATUS_SUCCESS;
}

hsa_status_t systemInfo(hsa_system_info_t attribute, void* value) {
  switch (attribute) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR:
    case HSA_SYSTEM_INFO_VERSION_MINOR:
      *static_cast<std::uint16_t*>(value) = 1;
      return HSA_STATUS_SUCCESS;
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      *static_cast<std::uint64_t*>(value) = 1'000'000'000;  // ticks are nanoseconds
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t iterateAgents(AgentCallback callback, void* data) {
  for (std::uint64_t agent = kCpuAgent; agent < kFirstGpuAgent + state().gpus; ++agent) {
    const hsa_status_t status = callback({agent}, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

void copyName(void* value, const std::string& name) {
  std::memset(value, 0, 64);
  std::memcpy(value, name.data(), std::min<std::size_t>(name.size(), 63));
}

hsa_status_t agentInfo(hsa_agent_t agent, hsa_agent_info_t attribute, void* value) {
  const bool gpu = isGpu(agent.handle);
  switch (static_cast<int>(attribute)) {
    case HSA_AGENT_INFO_NAME:
      copyName(value, gpu ? state().processor : "Fake CPU");
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      copyName(value, gpu ? "Fake AMD GPU" : "Fake CPU");
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_DEVICE:
      *static_cast<hsa_device_type_t*>(value) = gpu ? HSA_DEVICE_TYPE_GPU : HSA_DEVICE_TYPE_CPU;
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      *static_cast<std::uint32_t*>(value) = state().queuePackets;
      return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t iteratePools(hsa_agent_t agent, PoolCallback callback, void* data) {
  return callback({isGpu(agent.handle) ? agent.handle + 10 : kKernargPool}, data);
}

hsa_status_t poolInfo(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute, void* value) {
  const bool device = pool.handle >= kFirstDevicePool;
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      *static_cast<hsa_amd_segment_t*>(value) = HSA_AMD_SEGMENT_GLOBAL;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
      *static_cast<std::uint32_t*>(value) = device ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
                                                   : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                                         HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
      *static_cast<std::size_t*>(value) = device ? kDeviceBytes : std::size_t{1} << 36;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      *static_cast<bool*>(value) = true;
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t poolAllocate(hsa_amd_memory_pool_t pool, std::size_t bytes, std::uint32_t, void** pointer) {
  if (bytes == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  void* memory = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!memory) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::memset(memory, 0xcd, bytes);  // device memory is not zeroed
  std::lock_guard<std::mutex> lock(state().mutex);
  state().poolAllocations[memory] = bytes;
  if (pool.handle >= kFirstDevicePool) state().deviceAllocations[memory] = pool.handle - 10;
  *pointer = memory;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t poolFree(void* pointer) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().poolAllocations.erase(pointer) == 0) {
    state().counters.problems.push_back("hsa_amd_memory_pool_free of memory the pools did not give");
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  state().deviceAllocations.erase(pointer);
  std::free(pointer);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t allowAccess(std::uint32_t count, const hsa_agent_t* agents, const std::uint32_t*,
                         const void* pointer) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (count == 0 || !agents || state().poolAllocations.count(const_cast<void*>(pointer)) == 0) {
    state().counters.problems.push_back("hsa_amd_agents_allow_access on memory the pools did not give");
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t lock(void* host, std::size_t bytes, hsa_agent_t* agents, int count, void** agentPointer) {
  if (!host || bytes == 0 || !agentPointer || (agents == nullptr) != (count == 0))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> guard(state().mutex);
  state().locked[host] = bytes;
  *agentPointer = host;  // the GPU sees locked memory at its host address here
  return HSA_STATUS_SUCCESS;
}

hsa_status_t unlock(void* host) {
  std::lock_guard<std::mutex> guard(state().mutex);
  if (state().locked.erase(host) == 0) {
    state().counters.problems.push_back("hsa_amd_memory_unlock of memory that is not locked");
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

Executable* executableOf(hsa_executable_t executable) {
  return reinterpret_cast<Executable*>(static_cast<std::uintptr_t>(executable.handle));
}

hsa_status_t readerCreate(const void* bytes, std::size_t size, hsa_code_object_reader_t* reader) {
  try {
    auto* parsed =
        new CodeObjectMetadata(readCodeObjectMetadata(static_cast<const std::uint8_t*>(bytes), size));
    std::lock_guard<std::mutex> guard(state().mutex);
    state().readers.insert(parsed);
    reader->handle = addressOf(parsed);
    return HSA_STATUS_SUCCESS;
  } catch (const std::exception&) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
}

hsa_status_t readerDestroy(hsa_code_object_reader_t reader) {
  auto* parsed = reinterpret_cast<CodeObjectMetadata*>(static_cast<std::uintptr_t>(reader.handle));
  std::lock_guard<std::mutex> guard(state().mutex);
  if (state().readers.erase(parsed) == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  delete parsed;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t executableCreate(hsa_profile_t profile, hsa_default_float_rounding_mode_t, const char*,
                              hsa_executable_t* executable) {
  if (profile != HSA_PROFILE_FULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto* created = new Executable();
  std::lock_guard<std::mutex> guard(state().mutex);
  state().executables.insert(created);
  executable->handle = addressOf(created);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t loadCodeObject(hsa_executable_t executable, hsa_agent_t agent, hsa_code_object_reader_t reader,
                            const char*, hsa_loaded_code_object_t*) {
  Executable* object = executableOf(executable);
  const auto* parsed =
      reinterpret_cast<const CodeObjectMetadata*>(static_cast<std::uintptr_t>(reader.handle));
  if (object->loaded || object->frozen || !isGpu(agent.handle)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  object->agent = agent.handle;
  if (parsed->processor != state().processor) return HSA_STATUS_ERROR_INVALID_ISA;
  object->metadata = *parsed;  // the loader keeps what it needs; the reader may go
  for (const auto& spec : deviceKernels()) {
    object->kernels.push_back(
        std::make_unique<Kernel>(Kernel{spec.kernel, object->metadata.findKernel(spec.name)}));
  }
  object->loaded = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t freeze(hsa_executable_t executable, const char*) {
  Executable* object = executableOf(executable);
  if (!object->loaded) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  object->frozen = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t symbolByName(hsa_executable_t executable, const char* name, const hsa_agent_t* agent,
                          hsa_executable_symbol_t* symbol) {
  Executable* object = executableOf(executable);
  if (!object->frozen || !agent || agent->handle != object->agent) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (const auto& kernel : object->kernels) {
    if (kernel->metadata && kernel->metadata->symbol == name) {
      symbol->handle = addressOf(kernel.get());
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
}

hsa_status_t symbolInfo(hsa_executable_symbol_t symbol, hsa_executable_symbol_info_t attribute, void* value) {
  const auto* kernel = reinterpret_cast<const Kernel*>(static_cast<std::uintptr_t>(symbol.handle));
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      *static_cast<std::uint64_t*>(value) = symbol.handle;  // the "descriptor" is the fake's Kernel
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      *static_cast<std::uint32_t*>(value) = static_cast<std::uint32_t>(kernel->metadata->kernargSegmentSize);
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      *static_cast<std::uint32_t*>(value) =
          static_cast<std::uint32_t>(kernel->metadata->groupSegmentFixedSize);
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      *static_cast<std::uint32_t*>(value) =
          static_cast<std::uint32_t>(kernel->metadata->privateSegmentFixedSize);
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t executableDestroy(hsa_executable_t executable) {
  Executable* object = executableOf(executable);
  std::lock_guard<std::mutex> guard(state().mutex);
  if (state().executables.erase(object) == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  delete object;
  return HSA_STATUS_SUCCESS;
}

}  // namespace

void installSystemEntryPoints(EntryPoints& api) {
  api.hsa_init = init;
  api.hsa_shut_down = shutDown;
  api.hsa_status_string = statusString;
  api.hsa_system_get_info = systemInfo;
  api.hsa_iterate_agents = iterateAgents;
  api.hsa_agent_get_info = agentInfo;
  api.hsa_amd_agent_iterate_memory_pools = iteratePools;
  api.hsa_amd_memory_pool_get_info = poolInfo;
  api.hsa_amd_memory_pool_allocate = poolAllocate;
  api.hsa_amd_memory_pool_free = poolFree;
  api.hsa_amd_agents_allow_access = allowAccess;
  api.hsa_amd_memory_lock = lock;
  api.hsa_amd_memory_unlock = unlock;
  api.hsa_code_object_reader_create_from_memory = readerCreate;
  api.hsa_code_object_reader_destroy = readerDestroy;
  api.hsa_executable_create_alt = executableCreate;
  api.hsa_executable_load_agent_code_object = loadCodeObject;
  api.hsa_executable_freeze = freeze;
  api.hsa_executable_get_symbol_by_name = symbolByName;
  api.hsa_executable_symbol_get_info = symbolInfo;
  api.hsa_executable_destroy = executableDestroy;
}

}  // namespace fake

void FakeHsa::reset(const std::string& processor, std::uint32_t queuePackets, std::uint32_t gpus) {
  fake::State& state = fake::state();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.processor = processor;
  state.gpus = gpus;
  state.queuePackets = queuePackets;
  state.breakStatus = HSA_STATUS_SUCCESS;
  state.counters = FakeHsaReport{};
}

std::unique_ptr<HsaRuntime> FakeHsa::runtime() {
  EntryPoints api{};
  fake::installSystemEntryPoints(api);
  fake::installQueueEntryPoints(api);
  return HsaRuntime::fromEntryPoints(api, "fake ROCr");
}

void FakeHsa::breakQueues(hsa_status_t status) {
  std::lock_guard<std::mutex> lock(fake::state().mutex);
  fake::state().breakStatus = status;
  fake::state().changed.notify_all();
}

FakeHsaReport FakeHsa::report() {
  fake::State& state = fake::state();
  std::lock_guard<std::mutex> lock(state.mutex);
  FakeHsaReport report = state.counters;
  report.liveSignals = static_cast<std::int64_t>(state.signals.size());
  report.liveQueues = state.queues.size();
  report.liveAllocations = state.poolAllocations.size() + state.locked.size();
  report.liveExecutables = state.executables.size() + state.readers.size();
  report.initCount = state.initCount;
  return report;
}

}  // namespace kreplay::hsa::test
