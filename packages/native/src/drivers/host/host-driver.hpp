// The host driver: emulated agents whose device memory is an mmap arena each, queues that are
// worker threads, and kernels that are C++ functions on a shared thread pool.
#pragma once

#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "core/driver.hpp"
#include "core/queue-registry.hpp"
#include "drivers/host/host-buffers.hpp"
#include "drivers/host/host-context.hpp"
#include "drivers/host/host-queue.hpp"

namespace kreplay {

class HostDriver : public Driver {
 public:
  HostDriver(std::uint32_t agents, std::uint64_t deviceMemoryBytes, std::uint32_t threads);
  ~HostDriver() override;

  const char* name() const override { return "host"; }
  std::string version() const override;
  const std::vector<AgentDescription>& agents() const override { return agents_; }

  AllocationResult allocate(std::uint32_t agent, std::uint64_t bytes) override;
  MemoryInfo memoryInfo(std::uint32_t agent) override;
  void free(std::uint32_t agent, std::uint64_t address) override;
  std::uint64_t allocateHost(std::uint64_t bytes, bool pinned) override;
  void freeHost(std::uint64_t address) override;

  void read(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes,
            std::uint8_t* destination) override;
  void write(std::uint32_t agent, std::uint64_t address, const std::uint8_t* source,
             std::uint64_t bytes) override;
  std::function<void()> agentFence(std::uint32_t agent) override;

  std::shared_ptr<Queue> createQueue(std::uint32_t agent) override;
  bool runsGraphs() const override { return true; }
  /** The steps as they are: a host queue runs them one after another. */
  std::shared_ptr<KernelGraph> createGraph(std::uint32_t agent, std::vector<GraphStep> steps) override;
  FaultInjector& faults() override { return context_->faults; }
  void shutdown() override;

 private:

  std::shared_ptr<HostContext> context_;
  std::vector<AgentDescription> agents_;
  HostBuffers hostBuffers_;
  std::mutex mutex_;
  QueueRegistry<HostQueue> queues_;
  std::atomic<bool> shutDown_{false};
  std::shared_mutex memoryGuard_;  // read/write hold it shared; shutdown takes it before freeing memory
};

}  // namespace kreplay
