// A CUPTI range-profiler session on one device in user replay, one range per dispatch.
// Every step runs on the dispatch queue's submitting thread (enqueueControl), in queue order:
//   beginPass(1)   reset a profiler left mid-dispatch by an unfinished dispatch (disable it), wait
//                  for an idle context, ready the range profiler for the window's ranges
//                  (CuptiRangeProfiler::prepare), enqueue the pass prologue (the instruction-cache
//                  eviction and the L2 flush, as the session's conditions say), start
//   kernel         (enqueued by the caller)
//   endPass(i)     pop the range, stop (CUPTI counts the pass)
//   beginPass(i)   wait for an idle context, the prologue, start (a pass run again: set the config
//                  at that pass index first)
//   endPass(last)  pop, stop, wait for the context, decode, evaluate the metrics
// With the kernel range (CUPTI's automatic range, as ncu measures a kernel) the prologue runs and
// ends before the start, so the next kernel, the dispatch's, is the range. With the dispatch range a
// user range is pushed after the prologue and a 0.2 ms wait, so that it begins with the kernel.
// A range of K > 1 dispatches (scope.dispatches) runs all K in each pass under one start and stop,
// each its own CUPTI range (PassRanges). The range profiler stays enabled from one dispatch to the
// next (enabling it costs far more than a pass) and is disabled when the session is released or a
// dispatch fails.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/profiler-session.hpp"
#include "drivers/cuda/cuda-instruction-eviction.hpp"
#include "drivers/cuda/cuda-l2-flush.hpp"
#include "drivers/cuda/cuda-queue.hpp"
#include "drivers/cuda/cupti-metric-config.hpp"
#include "drivers/cuda/cupti-pass-ranges.hpp"
#include "drivers/cuda/cupti-range-profiler.hpp"

namespace kreplay::cuda {

class CudaProfilerSession : public ProfilerSession, public std::enable_shared_from_this<CudaProfilerSession> {
 public:
  /** @throws OperationFailure when the device cannot be profiled, a metric is unknown or the L2 flush buffer cannot be made. */
  CudaProfilerSession(std::shared_ptr<const CuptiProfilerLibrary> library, std::shared_ptr<CudaDevice> device,
                      const std::vector<std::string>& metrics, ProfilerRange range, ProfilerConditions conditions);
  ~CudaProfilerSession() override;

  const ProfilerPlan& plan() const override { return plan_; }
  void beginPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass, PassScope scope) override;
  void beginDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t pass, std::uint32_t index) override;
  void endDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t pass, std::uint32_t index) override;
  void endPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass) override;
  ProfilerResult result() override;
  void release() override;

 private:
  static std::shared_ptr<CudaQueue> cudaQueue(const std::shared_ptr<Queue>& queue);
  void begin(CudaQueue& queue, std::uint32_t pass, PassScope scope);
  void beginInRange(CudaQueue& queue, std::uint32_t index);
  void endInRange();
  void end(std::uint32_t pass);
  /** Opens a window on pass 1: its scope, a fresh result, the range profiler readied for its ranges. */
  void openWindow(PassScope scope);
  /** The values of each dispatch of the window, decoded after its last pass. @throws OperationFailure. */
  std::vector<std::vector<double>> decode();
  /** Enqueues what goes before a dispatch range's push: the prologue (before dispatch 0), a flush, a 0.2 ms wait. */
  void pushRange(CudaQueue& queue, std::uint32_t index);
  void finish(std::optional<OperationError> error, std::vector<std::vector<double>> values);
  void fail(const char* step, const OperationFailure& failure);

  std::shared_ptr<const CuptiProfilerLibrary> library_;
  std::shared_ptr<CudaDevice> device_;
  std::unique_ptr<CuptiMetricConfig> config_;
  ProfilerPlan plan_;
  /** CUPTI's automatic range around the kernel (as ncu measures it), or a user range pushed around the dispatch. */
  const bool kernelRange_;
  std::unique_ptr<CuptiRangeProfiler> profiler_;
  /** The L2 flush before each pass (and each dispatch of a range with cache control `all`). */
  std::unique_ptr<CudaL2Flush> flush_;
  /** The instruction caches left cold before each pass. */
  std::unique_ptr<CudaInstructionEviction> instructions_;

  std::mutex mutex_;  // guards everything below (queue threads, result(), release())
  bool released_ = false;
  /** The window's dispatches and their CUPTI ranges, set on pass 1. */
  PassRanges ranges_;
  /** Whether the L2 is flushed before every dispatch of the window (cache control `all`), set on pass 1. */
  bool flushBetweenDispatches_ = true;
  std::uint64_t dispatch_ = 0;
  std::uint32_t passesStopped_ = 0;
  bool dispatchOpen_ = false;  // between beginPass(1) and the last endPass
  bool allSubmitted_ = false;
  std::optional<OperationError> error_;
  ProfilerResult result_;
};

}  // namespace kreplay::cuda
