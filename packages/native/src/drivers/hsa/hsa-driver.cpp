#include "drivers/hsa/hsa-driver.hpp"

#include <cstring>

#include "drivers/hsa/embedded-code-objects.hpp"

namespace kreplay::hsa {

namespace {

std::vector<std::string> supportedProcessors() {
  std::vector<std::string> processors;
  for (const auto& object : embeddedCodeObjects()) processors.push_back(object.processor);
  return processors;
}

/** hsa_init, undone by hsa_shut_down if anything after it fails. */
std::shared_ptr<HsaContext> startContext(const HsaRuntime& runtime) {
  check(runtime, runtime.api().hsa_init(), "hsa_init");
  try {
    HsaSystem system = discoverSystem(runtime, supportedProcessors());
    if (system.gpus.empty())
      throw HsaError("HSA_STATUS_ERROR_INVALID_AGENT", "no GPU agent has a code object in this build");
    return std::make_shared<HsaContext>(runtime, std::move(system));
  } catch (...) {
    runtime.api().hsa_shut_down();
    throw;
  }
}

}  // namespace

HsaDriver::HsaDriver(const HsaRuntime& runtime) : runtime_(runtime), context_(startContext(runtime)) {
  for (const auto& gpu : context_->system.gpus) {
    AgentDescription description;
    description.name = gpu.productName.empty() ? gpu.processor : gpu.productName;
    description.architecture = gpu.processor;
    description.deviceMemoryBytes = gpu.deviceMemoryBytes;
    agents_.push_back(description);
  }
  std::uint16_t major = 0;
  std::uint16_t minor = 0;
  runtime.api().hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  runtime.api().hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor);
  version_ = "hsa " + std::to_string(major) + "." + std::to_string(minor) + " (" + runtime.path() + ")";
}

HsaDriver::~HsaDriver() {
  shutdown();
}

AllocationResult HsaDriver::allocate(std::uint32_t agent, std::uint64_t bytes) {
  if (!context_->memory) return {};
  if (context_->faults.check(OperationKind::Allocate, agent).fail)
    return {0, true, memoryInfo(agent).freeBytes};
  return context_->memory->allocate(agent, bytes);
}

MemoryInfo HsaDriver::memoryInfo(std::uint32_t agent) {
  if (!context_->memory) return {0, agents_.at(agent).deviceMemoryBytes};
  return context_->memory->info(agent);
}

// Like the host driver, a free waits until the queues that could use the memory passed this point.
void HsaDriver::free(std::uint32_t agent, std::uint64_t address) {
  queues_.releaseAfter(agent, [context = context_, address] {
    if (context->memory) context->memory->free(address);
  });
}

std::uint64_t HsaDriver::allocateHost(std::uint64_t bytes, bool) {
  if (!context_->memory) return 0;
  return context_->memory->allocateHost(bytes);
}

void HsaDriver::freeHost(std::uint64_t address) {
  queues_.releaseAfter(-1, [context = context_, address] {
    if (context->memory) context->memory->freeHost(address);
  });
}

void HsaDriver::copyWithHost(std::uint32_t agent, std::uint64_t device, std::uint8_t* host,
                             std::uint64_t bytes, bool toHost) {
  const EntryPoints& api = runtime_.api();
  const GpuAgent& gpu = context_->system.gpus.at(agent);
  hsa_agent_t gpuAgent = gpu.agent;
  void* locked = nullptr;
  check(runtime_, api.hsa_amd_memory_lock(host, bytes, &gpuAgent, 1, &locked), "hsa_amd_memory_lock");
  try {
    const SignalReference signal = context_->signals->acquire(1);
    const hsa_agent_t owner = context_->memory->copyAgentOf(device, gpuAgent);
    void* deviceAddress = pointerOf(context_->memory->toDevice(device));
    check(runtime_,
          toHost ? api.hsa_amd_memory_async_copy(locked, context_->system.cpu, deviceAddress, owner, bytes, 0,
                                                 nullptr, {signal->handle})
                 : api.hsa_amd_memory_async_copy(deviceAddress, owner, locked, context_->system.cpu, bytes, 0,
                                                 nullptr, {signal->handle}),
          "hsa_amd_memory_async_copy");
    waitForCompletion(context_->signalAccess, signal->handle, 50'000'000, {});
  } catch (...) {
    api.hsa_amd_memory_unlock(host);
    throw;
  }
  api.hsa_amd_memory_unlock(host);
}

void HsaDriver::read(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes,
                     std::uint8_t* destination) {
  std::shared_lock<std::shared_mutex> guard(memoryGuard_);
  if (shutDown_) throw std::runtime_error("the runtime was disposed before the read ran");
  if (bytes == 0) return;
  if (context_->memory->isHost(address)) {
    std::memcpy(destination, pointerOf(address), bytes);
    return;
  }
  copyWithHost(agent, address, destination, bytes, true);
}

void HsaDriver::write(std::uint32_t agent, std::uint64_t address, const std::uint8_t* source,
                      std::uint64_t bytes) {
  std::shared_lock<std::shared_mutex> guard(memoryGuard_);
  if (shutDown_) throw std::runtime_error("the runtime was disposed before the write ran");
  if (bytes == 0) return;
  if (context_->memory->isHost(address)) {
    std::memcpy(pointerOf(address), source, bytes);
    return;
  }
  copyWithHost(agent, address, const_cast<std::uint8_t*>(source), bytes, false);
}

std::function<void()> HsaDriver::agentFence(std::uint32_t agent) {
  return queues_.fence(agent);
}

std::shared_ptr<Queue> HsaDriver::createQueue(std::uint32_t agent) {
  auto queue = std::make_shared<HsaQueue>(context_, agent);
  queues_.add(agent, queue);
  return queue;
}

void HsaDriver::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shutDown_) return;
    shutDown_ = true;
  }
  for (const auto& queue : queues_.live(-1)) queue->shutdown();
  std::unique_lock<std::shared_mutex> guard(memoryGuard_);  // waits for reads and writes in flight
  context_->release();
  runtime_.api().hsa_shut_down();
}

std::shared_ptr<Driver> openHsa(const DriverOptions&) {
  std::string error;
  const HsaRuntime* runtime = HsaRuntime::load(error);
  if (!runtime) throw std::runtime_error("libhsa-runtime64.so.1 could not be loaded: " + error);
  return std::make_shared<HsaDriver>(*runtime);
}

}  // namespace kreplay::hsa
