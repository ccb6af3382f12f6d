// The driver every backend (host, cuda, hsa) implements: agents, memory and queues.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/checkpoint-session.hpp"
#include "core/fault-injector.hpp"
#include "core/kernel-graph.hpp"
#include "core/profiler-session.hpp"
#include "core/queue.hpp"

namespace kreplay {

struct HostLinkDescription {
  std::string name;
  double bytesPerSecond;  // < 0: unknown
};

struct AgentDescription {
  std::string name;
  std::string architecture;
  std::uint64_t deviceMemoryBytes;
  bool hasHostLink = false;
  HostLinkDescription hostLink;
};

class Driver {
 public:
  virtual ~Driver() = default;

  virtual const char* name() const = 0;
  virtual std::string version() const = 0;
  virtual const std::vector<AgentDescription>& agents() const = 0;

  virtual AllocationResult allocate(std::uint32_t agent, std::uint64_t bytes) = 0;
  /** Free and total device memory of the agent, in bytes. */
  virtual MemoryInfo memoryInfo(std::uint32_t agent) = 0;
  virtual void free(std::uint32_t agent, std::uint64_t address) = 0;
  /** A host buffer's address, or 0 when the memory is not available. */
  virtual std::uint64_t allocateHost(std::uint64_t bytes, bool pinned) = 0;
  virtual void freeHost(std::uint64_t address) = 0;

  /** Copies device (or host) memory to `destination`; call after agentFence(agent)() off the JS thread. */
  virtual void read(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes,
                    std::uint8_t* destination) = 0;
  virtual void write(std::uint32_t agent, std::uint64_t address, const std::uint8_t* source,
                     std::uint64_t bytes) = 0;
  /** Blocks until the work enqueued so far on every queue of the agent has run. */
  virtual std::function<void()> agentFence(std::uint32_t agent) = 0;

  virtual std::shared_ptr<Queue> createQueue(std::uint32_t agent) = 0;
  virtual FaultInjector& faults() = 0;

  /** Whether loadUserKernel works (GPU drivers). */
  virtual bool runsUserKernels() const { return false; }
  /**
   * Loads kernel `name` from a module image (e.g. PTX text or a cubin) on every agent and returns
   * its id for Queue::enqueueUserKernel. `parameterBytes` holds each parameter's size (4 or 8).
   * @throws OperationFailure when the image does not load or has no such kernel.
   */
  virtual std::uint32_t loadUserKernel(const std::vector<std::uint8_t>& image, const std::string& name,
                                       const std::vector<std::uint8_t>& parameterBytes) {
    throw std::logic_error(std::string("the ") + this->name() + " driver runs no user kernels");
  }
  /**
   * Registers per thread of user kernel `kernel` as loaded on `agent`, as the driver counts them (what
   * profilers report as launch__registers_per_thread), or -1 when the driver does not say.
   * @throws OperationFailure `unknown-kernel` for an id loadUserKernel never returned.
   */
  virtual int userKernelRegisters(std::uint32_t kernel, std::uint32_t agent) const { return -1; }
  /** Whether createGraph works (host, cuda). */
  virtual bool runsGraphs() const { return false; }
  /**
   * A graph of `steps` for `agent`, in order, made ready to launch (cuda: a CUgraph instantiated),
   * for Queue::enqueueGraph on a queue of that agent.
   * @throws OperationFailure when the driver cannot make it (code `unsupported` or the driver's error).
   */
  virtual std::shared_ptr<KernelGraph> createGraph(std::uint32_t agent, std::vector<GraphStep> steps) {
    throw OperationFailure("unsupported", std::string("the ") + name() + " driver runs no graphs");
  }
  /** Whether allocateAt, allocateHostAt and kernelGlobal work (cuda). */
  virtual bool offersFixedAddresses() const { return false; }
  /**
   * Device memory of `agent` at exactly [address, address + bytes), freed by free(agent, address).
   * @throws OperationFailure when the range cannot be had there (code `address-taken`, `overlap`,
   * `unsupported` or the driver's error).
   */
  virtual void allocateAt(std::uint32_t agent, std::uint64_t address, std::uint64_t bytes) {
    throw std::logic_error(std::string("the ") + name() + " driver has no memory at chosen addresses");
  }
  /** Host memory at exactly [address, address + bytes), pinned and reached by every agent at that address; freed by freeHost. */
  virtual void allocateHostAt(std::uint64_t address, std::uint64_t bytes) {
    throw std::logic_error(std::string("the ") + name() + " driver has no memory at chosen addresses");
  }
  /**
   * The global variable `name` of user kernel `kernel`'s module on `agent`: its address and size.
   * Reads, writes, copies and hashes reach it while the kernel is loaded.
   * @throws OperationFailure when the module has no such global.
   */
  virtual Range kernelGlobal(std::uint32_t kernel, std::uint32_t agent, const std::string& name) {
    throw std::logic_error(std::string("the ") + this->name() + " driver runs no user kernels");
  }
  /** Whether the driver has a checkpoint facility at all (cuda: the CUPTI Checkpoint API). */
  virtual bool offersCheckpoints() const { return false; }
  /** Why checkpoints cannot be taken in this process ("" when they can); may load libraries. */
  virtual std::string checkpointUnavailableReason() {
    return std::string("the ") + name() + " driver has no checkpoints";
  }
  /**
   * A checkpoint session on `queue` (a queue of this driver).
   * @throws OperationFailure when the facility is not available (see checkpointUnavailableReason).
   */
  virtual std::shared_ptr<CheckpointSession> openCheckpoint(const std::shared_ptr<Queue>& queue) {
    throw std::logic_error(std::string("the ") + name() + " driver has no checkpoints");
  }
  /** Whether the driver has a counter profiler at all (cuda: CUPTI's range profiler). */
  virtual bool offersProfiler() const { return false; }
  /** Why counters cannot be collected in this process ("" when they can); may load libraries. */
  virtual std::string profilerUnavailableReason() {
    return std::string("the ") + name() + " driver has no counter profiler";
  }
  /**
   * The chip name the counter profiler knows `agent` by (cuda: CUPTI's, e.g. "GH100"), for planning
   * and listing metrics without a session.
   * @throws OperationFailure when the profiler is not available.
   */
  virtual std::string profilerChipName(std::uint32_t agent) {
    throw std::logic_error(std::string("the ") + name() + " driver has no counter profiler");
  }
  /**
   * A counter profiler session on `agent` for `metrics` (off the JS thread: it computes the plan),
   * measuring each dispatch over `range`, under `conditions`.
   * @throws OperationFailure when the profiler is not available or a metric is unknown.
   */
  virtual std::shared_ptr<ProfilerSession> createProfilerSession(std::uint32_t agent,
                                                                 const std::vector<std::string>& metrics,
                                                                 ProfilerRange range, ProfilerConditions conditions) {
    throw std::logic_error(std::string("the ") + name() + " driver has no counter profiler");
  }
  /** Drains and stops every queue and frees all memory. Idempotent. */
  virtual void shutdown() = 0;
};

}  // namespace kreplay
