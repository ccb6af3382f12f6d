// An hsa-driver queue. The calling thread only records operations; a submit thread turns them, in
// order, into AQL packets and async copies on the agent's HSA queue (HsaDispatcher) without waiting
// for the GPU, and a retire thread waits for each one's completion signal, in the same order, then
// completes events (with the packet processor's timestamps), runs frees and synchronize markers,
// and recycles the operation's staging memory and signals. The first failure is sticky: later work
// is skipped until the next synchronize, as on every driver.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "core/ordered-operations.hpp"
#include "core/queue.hpp"
#include "drivers/hsa/hsa-context.hpp"
#include "drivers/hsa/hsa-dispatcher.hpp"

namespace kreplay::hsa {

class HsaQueue : public Queue, public std::enable_shared_from_this<HsaQueue> {
 public:
  /** @throws HsaError when the HSA queue cannot be created. */
  HsaQueue(std::shared_ptr<HsaContext> context, std::uint32_t agent);
  ~HsaQueue() override;

  void enqueueCopy(std::vector<Segment> segments) override;
  void enqueueHash(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress) override;
  void enqueueHashToHost(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint8_t* hashes) override;
  void enqueueConditionalCopy(ConditionalCopy options) override;
  void enqueuePageListCopy(PageListCopy options) override;
  void enqueueKernel(BuiltinKernel kernel, std::vector<std::uint64_t> arguments) override;
  AllocationResult enqueueAllocate(std::uint64_t bytes) override;
  void enqueueFree(std::uint64_t address) override;
  std::shared_ptr<EventState> recordEvent() override;
  void enqueueWait(std::shared_ptr<EventState> event) override;
  void synchronize(SynchronizeCallback done) override;
  std::function<void()> fence() override;
  void shutdown() override;

  /** Runs `run` on the retire thread once the work before it completed; false when the queue is stopped. */
  bool enqueueControl(std::function<void()> run);

 private:
  /** What the retire thread does with one operation. */
  struct Retirement {
    OperationKind kind = OperationKind::Any;
    std::int64_t workIndex = -1;
    Submitted submitted;                    // the completion signal to wait for, if any
    std::unique_ptr<StagingMemory> memory;  // released once the GPU is done with it
    std::function<void(std::optional<OperationError>& asyncError)> complete;
    std::optional<OperationFailure> failure;  // found by the submit thread (a page list that did not check)
  };
  struct Operation {
    OperationKind kind;
    bool work;  // skipped after a failure and counted by faults; control operations always run
    std::function<Retirement()> submit;
    std::int64_t workIndex = -1;  // numbered by operations_ for work
  };

  bool push(Operation operation) { return operations_.push(std::move(operation)); }
  void pushWork(OperationKind kind, std::function<Retirement()> submit);
  void submitLoop();
  void retireLoop();
  Retirement submitOne(Operation& operation);
  void retire(Retirement& retirement);
  std::unique_ptr<StagingMemory> newMemory() { return std::make_unique<StagingMemory>(staging_); }
  /** A work operation that runs `plan` (built in `memory`) and keeps `memory` until it completes. */
  Retirement runPlan(const OperationPlan& plan, std::unique_ptr<StagingMemory> memory);
  AddressTranslation translation() const;

  std::shared_ptr<HsaContext> context_;
  std::uint32_t agent_;
  std::shared_ptr<ChunkCache> staging_;
  std::unique_ptr<HsaDispatcher> dispatcher_;

  OrderedOperations<Operation> operations_;  // counted complete by the retire thread
  std::optional<OperationError> error_;      // the submit thread's
  std::mt19937_64 random_;                   // the submit thread's: accumulate's rotations

  std::mutex retireMutex_;
  std::condition_variable retireWake_;
  std::deque<Retirement> retirements_;
  bool submitDone_ = false;
  std::optional<OperationError> asyncError_;  // the retire thread's: a queue that broke while work ran
  std::vector<SignalReference> abandoned_;    // the retire thread's: signals a stopped queue left pending

  std::mutex shutdownMutex_;
  std::thread submitter_;
  std::thread retirer_;
};

}  // namespace kreplay::hsa
