// A cuda queue: one non-blocking CUDA stream, fed in queue order by a submitting thread (so no
// enqueue waits on CUDA, and work on pageable memory may wait for the stream without blocking
// JavaScript), and a completion thread that waits for markers and events. The first failure is
// sticky: injected faults are decided when an operation is submitted, CUDA errors of a submission
// are recorded with the operation's index, a bad page list found on the device stops later
// built-in work through the queue's device state, and an asynchronous CUDA error found at a
// marker has no index (-1). The next synchronize reports the first of them and clears it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/queue.hpp"
#include "drivers/cuda/cuda-completions.hpp"
#include "drivers/cuda/cuda-stream-work.hpp"
#include "drivers/cuda/cuda-timing-event.hpp"

namespace kreplay::cuda {

class CudaQueue : public Queue {
 public:
  /** @throws OperationFailure when the stream cannot be created. */
  CudaQueue(std::shared_ptr<CudaDriverContext> driver, std::uint32_t agent);
  ~CudaQueue() override;

  void enqueueCopy(std::vector<Segment> segments) override;
  void enqueueHash(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress) override;
  void enqueueHashToHost(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint8_t* hashes) override;
  void enqueueConditionalCopy(ConditionalCopy options) override;
  void enqueuePageListCopy(PageListCopy options) override;
  void enqueueKernel(BuiltinKernel kernel, std::vector<std::uint64_t> arguments) override;
  void enqueueUserKernel(std::uint32_t kernel, const LaunchShape& shape, UserKernelArguments arguments) override;
  /** One work operation: cuGraphLaunch of a CudaKernelGraph of this queue's agent. */
  void enqueueGraph(std::shared_ptr<KernelGraph> graph) override;
  AllocationResult enqueueAllocate(std::uint64_t bytes) override;
  void enqueueFree(std::uint64_t address) override;
  std::shared_ptr<EventState> recordEvent() override;
  void enqueueWait(std::shared_ptr<EventState> event) override;
  void synchronize(SynchronizeCallback done) override;
  std::function<void()> fence() override;
  void shutdown() override;

  /**
   * Runs `task` on the submitting thread (the device's context current) once every operation
   * enqueued before it was submitted to the stream; later operations wait for it. It runs even after
   * a failure (it is no work operation) and must not throw. False when the queue was shut down.
   */
  bool enqueueControl(std::function<void()> task);
  /** The queue's stream, for tasks of enqueueControl. */
  CUstream stream() const { return work_->stream(); }
  const std::shared_ptr<CudaDevice>& device() const { return device_; }

 private:
  struct Operation {
    OperationKind kind;
    bool work;  // work is skipped after a failure and counted by faults; control always runs
    std::function<void()> run;
    std::int64_t workIndex = -1;
  };
  using After = std::function<void(CUresult)>;

  bool push(Operation operation);
  void pushWork(OperationKind kind, std::function<void()> run) { push({kind, true, std::move(run)}); }
  void submitLoop();
  void execute(Operation& operation);
  /** Runs `after` on the completion thread once the stream has run what was submitted so far. */
  void completeAfterStream(After after);
  std::optional<OperationError> firstError(std::optional<OperationError> submitted,
                                           const KreplayStateReport* report, CUresult result) const;

  std::shared_ptr<CudaDriverContext> driver_;
  std::shared_ptr<CudaDevice> device_;
  std::uint32_t agent_;
  std::unique_ptr<CudaStreamWork> work_;
  std::unique_ptr<CudaCompletions> completions_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Operation> operations_;
  /** operations_.size(), readable without the mutex: the submitting thread spins on it before sleeping. */
  std::atomic<std::size_t> pending_{0};
  std::int64_t submittedWork_ = 0;
  bool stopping_ = false;

  // The submitting thread's own.
  std::optional<OperationError> error_;
  std::int64_t currentWorkIndex_ = -1;
  /** Events of other queues this queue waited for since the last synchronize marker. */
  std::vector<std::shared_ptr<CudaTimingEvent>> waited_;

  std::mutex markersMutex_;
  std::vector<std::shared_ptr<CudaEventHandle>> spareMarkers_;
  std::mutex shutdownMutex_;
  std::thread submitter_;
};

}  // namespace kreplay::cuda
