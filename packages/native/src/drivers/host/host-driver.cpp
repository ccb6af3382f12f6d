#include "drivers/host/host-driver.hpp"

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "drivers/host/host-agent-description.hpp"

namespace kreplay {

HostDriver::HostDriver(std::uint32_t agents, std::uint64_t deviceMemoryBytes, std::uint32_t threads)
    : context_(std::make_shared<HostContext>(agents, deviceMemoryBytes, threads)) {
  for (std::uint32_t agent = 0; agent < agents; ++agent)
    agents_.push_back(describeHostAgent(agent, deviceMemoryBytes));
}

HostDriver::~HostDriver() {
  shutdown();
}

std::string HostDriver::version() const {
  return hostDriverVersion();
}

AllocationResult HostDriver::allocate(std::uint32_t agent, std::uint64_t bytes) {
  Arena& arena = *context_->arenas.at(agent);
  if (context_->faults.check(OperationKind::Allocate, agent).fail) return {0, true, arena.freeBytes()};
  return {arena.allocate(bytes), false, arena.freeBytes()};
}

MemoryInfo HostDriver::memoryInfo(std::uint32_t agent) {
  return {context_->arenas.at(agent)->freeBytes(), agents().at(agent).deviceMemoryBytes};
}

// Frees wait until the queues that could use the memory have passed this point (as cudaFree waits
// for the device), so queued work never touches memory that was reused or returned to the system.
void HostDriver::free(std::uint32_t agent, std::uint64_t address) {
  queues_.releaseAfter(agent, [context = context_, agent, address] {
    if (agent < context->arenas.size()) context->arenas[agent]->release(address);
  });
}

std::uint64_t HostDriver::allocateHost(std::uint64_t bytes, bool pinned) {
  return hostBuffers_.allocate(bytes, pinned);
}

void HostDriver::freeHost(std::uint64_t address) {
  queues_.releaseAfter(-1, [this, address] { hostBuffers_.free(address); });
}

void HostDriver::read(std::uint32_t, std::uint64_t address, std::uint64_t bytes, std::uint8_t* destination) {
  std::shared_lock<std::shared_mutex> guard(memoryGuard_);
  if (shutDown_) throw std::runtime_error("the runtime was disposed before the read ran");
  if (bytes > 0) std::memcpy(destination, pointerOf(address), bytes);
}

void HostDriver::write(std::uint32_t, std::uint64_t address, const std::uint8_t* source,
                       std::uint64_t bytes) {
  std::shared_lock<std::shared_mutex> guard(memoryGuard_);
  if (shutDown_) throw std::runtime_error("the runtime was disposed before the write ran");
  if (bytes > 0) std::memcpy(pointerOf(address), source, bytes);
}

std::function<void()> HostDriver::agentFence(std::uint32_t agent) {
  return queues_.fence(agent);
}

std::shared_ptr<Queue> HostDriver::createQueue(std::uint32_t agent) {
  auto queue = std::make_shared<HostQueue>(context_, agent);
  queues_.add(agent, queue);
  return queue;
}

std::shared_ptr<KernelGraph> HostDriver::createGraph(std::uint32_t agent, std::vector<GraphStep> steps) {
  for (const GraphStep& step : steps) {
    if (step.kind == GraphStep::Kind::UserKernel) {
      throw OperationFailure("unsupported", "the host driver runs no user kernels, in a graph or not");
    }
  }
  return std::make_shared<KernelGraph>(agent, std::move(steps));
}

void HostDriver::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shutDown_) return;
    shutDown_ = true;
  }
  for (const auto& queue : queues_.live(-1)) queue->shutdown();
  std::unique_lock<std::shared_mutex> guard(memoryGuard_);  // waits for reads and writes in flight
  hostBuffers_.freeAll();
  context_->release();
}

}  // namespace kreplay
