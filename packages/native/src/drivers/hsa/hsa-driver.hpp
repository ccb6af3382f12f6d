// The hsa driver: AMD GPUs through the ROCm runtime (libhsa-runtime64.so.1, loaded with dlopen).
// Device memory comes from each GPU agent's coarse-grained pool, host buffers are page-locked for
// the GPUs, queues are HSA queues fed with AQL packets and async copies, and the kernels are the
// kreplay code objects (src/kernels-amdgpu) loaded through the HSA executable API.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "core/driver.hpp"
#include "core/queue-registry.hpp"
#include "drivers/driver-registry.hpp"
#include "drivers/hsa/hsa-context.hpp"
#include "drivers/hsa/hsa-queue.hpp"

namespace kreplay::hsa {

class HsaDriver : public Driver {
 public:
  /** Initializes HSA and loads the code objects. @throws HsaError, CodeObjectError. */
  explicit HsaDriver(const HsaRuntime& runtime);
  ~HsaDriver() override;

  const char* name() const override { return "hsa"; }
  std::string version() const override { return version_; }
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
  FaultInjector& faults() override { return context_->faults; }
  void shutdown() override;

 private:
  /** Copies between device memory and unregistered host memory, waiting for the copy. */
  void copyWithHost(std::uint32_t agent, std::uint64_t device, std::uint8_t* host, std::uint64_t bytes,
                    bool toHost);

  const HsaRuntime& runtime_;
  std::shared_ptr<HsaContext> context_;
  std::vector<AgentDescription> agents_;
  std::string version_;
  std::mutex mutex_;
  QueueRegistry<HsaQueue> queues_;
  std::atomic<bool> shutDown_{false};
  std::shared_mutex memoryGuard_;  // read/write hold it shared; shutdown takes it before freeing memory
};

/** The registry's opener of the hsa driver. */
std::shared_ptr<Driver> openHsa(const DriverOptions& options);

}  // namespace kreplay::hsa
