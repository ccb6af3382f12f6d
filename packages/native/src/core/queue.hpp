// The queue every driver implements: an ordered stream of work with a sticky first error.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/conditional-copy.hpp"
#include "core/event-state.hpp"
#include "core/kernel-graph.hpp"
#include "core/kernels/builtin-kernels.hpp"
#include "core/types.hpp"
#include "core/user-kernel.hpp"

namespace kreplay {

/** Free and total device memory of an agent. */
struct MemoryInfo {
  std::uint64_t freeBytes = 0;
  std::uint64_t totalBytes = 0;
};

/** The outcome of an allocation: address 0 means it failed. */
struct AllocationResult {
  std::uint64_t address = 0;
  bool injectedFault = false;
  std::uint64_t availableBytes = 0;
};

class Queue {
 public:
  virtual ~Queue() = default;

  virtual void enqueueCopy(std::vector<Segment> segments) = 0;
  virtual void enqueueHash(std::vector<Range> ranges, std::uint64_t pageBytes,
                           std::uint64_t hashesAddress) = 0;
  /** Like enqueueHash, into host memory the caller keeps alive until the next synchronize completes. */
  virtual void enqueueHashToHost(std::vector<Range> ranges, std::uint64_t pageBytes,
                                 std::uint8_t* hashes) = 0;
  virtual void enqueueConditionalCopy(ConditionalCopy options) = 0;
  virtual void enqueuePageListCopy(PageListCopy options) = 0;
  virtual void enqueueKernel(BuiltinKernel kernel, std::vector<std::uint64_t> arguments) = 0;
  /** Launches a kernel from Driver::loadUserKernel. */
  virtual void enqueueUserKernel(std::uint32_t kernel, const LaunchShape& shape, UserKernelArguments arguments) {
    throw std::logic_error("this driver runs no user kernels");
  }
  /** Launches a graph from Driver::createGraph (of this queue's agent) as one work operation. */
  virtual void enqueueGraph(std::shared_ptr<KernelGraph> graph) {
    throw OperationFailure("unsupported", "this driver runs no graphs");
  }
  /** Reserves device memory now (later work may use it) for work enqueued from here on. */
  virtual AllocationResult enqueueAllocate(std::uint64_t bytes) = 0;
  /** Frees a stream-ordered allocation when the queue reaches this point. */
  virtual void enqueueFree(std::uint64_t address) = 0;
  /** An event completed when the queue reaches this point. */
  virtual std::shared_ptr<EventState> recordEvent() = 0;
  /** Later work waits until `event` completes. */
  virtual void enqueueWait(std::shared_ptr<EventState> event) = 0;
  /** Called on a queue thread with the first error since the previous synchronize marker (or none). */
  using SynchronizeCallback = std::function<void(std::optional<OperationError>)>;
  /**
   * A marker: when the queue reaches it, `done` gets the first error since the previous marker, which
   * is cleared. `done` may run before synchronize returns (an idle queue), on the calling thread.
   */
  virtual void synchronize(SynchronizeCallback done) = 0;
  /** A function that blocks until the work enqueued so far has run (call it off the JS thread). */
  virtual std::function<void()> fence() = 0;
  /** Runs the remaining work, then stops the queue. Idempotent. */
  virtual void shutdown() = 0;
};

}  // namespace kreplay
