// A host-driver queue: one worker thread running operations in order; big operations fan out to
// the shared thread pool. The first failure is sticky: later work is skipped until a synchronize.
#pragma once

#include <mutex>
#include <optional>
#include <thread>

#include "core/ordered-operations.hpp"
#include "core/queue.hpp"
#include "drivers/host/host-context.hpp"

namespace kreplay {

class HostQueue : public Queue, public std::enable_shared_from_this<HostQueue> {
 public:
  HostQueue(std::shared_ptr<HostContext> context, std::uint32_t agent);
  ~HostQueue() override;

  void enqueueCopy(std::vector<Segment> segments) override;
  void enqueueHash(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress) override;
  void enqueueHashToHost(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint8_t* hashes) override;
  void enqueueConditionalCopy(ConditionalCopy options) override;
  void enqueuePageListCopy(PageListCopy options) override;
  void enqueueKernel(BuiltinKernel kernel, std::vector<std::uint64_t> arguments) override;
  /** One work operation (kind `kernel`) running the graph's steps in order on the worker thread. */
  void enqueueGraph(std::shared_ptr<KernelGraph> graph) override;
  AllocationResult enqueueAllocate(std::uint64_t bytes) override;
  void enqueueFree(std::uint64_t address) override;
  std::shared_ptr<EventState> recordEvent() override;
  void enqueueWait(std::shared_ptr<EventState> event) override;
  void synchronize(SynchronizeCallback done) override;
  std::function<void()> fence() override;
  void shutdown() override;

  /** Runs `run` when the queue reaches this point, even after a failure; false when the queue is stopped. */
  bool enqueueControl(std::function<void()> run) { return operations_.push({OperationKind::Any, false, std::move(run)}); }

 private:
  struct Operation {
    OperationKind kind;
    bool work;  // work is skipped after a failure and counted by faults; control (events, frees, markers)
                // always runs
    std::function<void()> run;
    std::int64_t workIndex = -1;  // numbered by operations_ for work
  };

  void pushWork(OperationKind kind, std::function<void()> run) { operations_.push({kind, true, std::move(run)}); }
  void workerLoop();
  void execute(Operation& operation);

  std::shared_ptr<HostContext> context_;
  std::uint32_t agent_;
  OrderedOperations<Operation> operations_;
  std::optional<OperationError> error_;  // the worker thread's, or a synchronize's while operations_ is idle
  std::mutex shutdownMutex_;
  std::thread worker_;
};

}  // namespace kreplay
