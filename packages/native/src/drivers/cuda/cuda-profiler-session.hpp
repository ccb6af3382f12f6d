// A CUPTI range-profiler session on one device in user replay with one user range per dispatch
// (or, with KREPLAY_PROFILER_REPLAY=kernel, an experiment, in CUPTI's kernel replay: one pass of the
// caller's, in which CUPTI runs the kernel once per pass of its own).
// Every step runs on the dispatch queue's submitting thread (enqueueControl), in queue order:
//   beginPass(1)   reset a profiler left mid-dispatch by an unfinished dispatch (disable it), wait
//                  for an idle context, enable the range profiler if it is not enabled yet,
//                  initialize the counter data, set the config (user range, user replay, one range),
//                  start, enqueue the L2 flush and a 0.2 ms wait, push the range
//   kernel         (enqueued by the caller)
//   endPass(i)     pop the range, stop (CUPTI counts the pass)
//   beginPass(i)   wait for an idle context, start, flush and wait, push (a pass run again: set the
//                  config at that pass index first)
//   endPass(last)  pop, stop, wait for the context, decode, evaluate the metrics
// A range (scope.dispatches = K > 1) runs K dispatches in each pass under one start and stop. With the
// kernel's automatic range each kernel is a range of its own; a flush between dispatches is a kernel
// too, so it is a range whose values are dropped (ranges 0, 2, 4, ... are the dispatches'). While the
// automatic range is on, every kernel on the device costs about 1.3-1.6 ms per pass on an H200, a
// flush as much as a dispatch: a flush from a second context, outside every range, measured the same
// (26.5 ms per 64 MiB fill for 9 passes at K = 1000, against 26.9 ms in the profiled context and
// 15.0 ms with no flush between dispatches). With a user
// range, beginDispatch flushes, waits and pushes, and endDispatch pops, so each dispatch is one range.
// The range profiler stays enabled from one dispatch to the next (enabling it costs far more than a
// pass) and is disabled when the session is released or a dispatch fails.
// The L2 flush reads a scratch buffer twice the L2's size (CUPTI 13.0 controls no cache across
// passes), so every pass starts with a cold L2 whose lines are clean (a write would leave dirty lines
// that the pass itself would write back). The push is ordered on the stream after the flush and the
// wait, so neither is inside the range, and the wait lets the kernel be launched before the device
// reaches the push: the range then lasts about as long as the kernel.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "core/profiler-session.hpp"
#include "drivers/cuda/cuda-queue.hpp"
#include "drivers/cuda/cuda-instruction-eviction.hpp"
#include "drivers/cuda/cuda-translation-eviction.hpp"
#include "drivers/cuda/cupti-metric-config.hpp"
#include "drivers/cuda/profiler-l2-flush.hpp"

namespace kreplay::cuda {

/** How the touch before a pass loads (KREPLAY_PROFILER_TOUCH). */
enum class TouchBy { Copy, Kernel, EveryMultiprocessor };

/** The device memory a profiled kernel can reach: address and bytes of each allocation. */
using ReachableMemory = std::function<std::vector<std::pair<std::uint64_t, std::uint64_t>>()>;

class CudaProfilerSession : public ProfilerSession, public std::enable_shared_from_this<CudaProfilerSession> {
 public:
  /** @throws OperationFailure when the device cannot be profiled or a metric is unknown. */
  CudaProfilerSession(std::shared_ptr<const CuptiProfilerLibrary> library, std::shared_ptr<CudaDevice> device,
                      const std::vector<std::string>& metrics, ProfilerRange range, ReachableMemory reachable);
  ~CudaProfilerSession() override;

  const ProfilerPlan& plan() const override { return plan_; }
  void beginPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass, PassScope scope) override;
  void beginDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t pass, std::uint32_t index) override;
  void endDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t pass, std::uint32_t index) override;
  void endPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass) override;
  void afterRun(const std::shared_ptr<Queue>& queue) override;
  ProfilerResult result() override;
  void release() override;

 private:
  static std::shared_ptr<CudaQueue> cudaQueue(const std::shared_ptr<Queue>& queue);
  void begin(CudaQueue& queue, std::uint32_t pass, PassScope scope);
  void beginInRange(CudaQueue& queue, std::uint32_t index);
  void endInRange();
  void end(std::uint32_t pass);
  void flushAfterRun(CudaQueue& queue);
  void startDispatch();
  /** Whether the flushes between a range's dispatches run in the profiled context (each a range). */
  bool flushesInRanges() const;
  /** The ranges CUPTI records per pass for the window's scope. */
  std::uint32_t rangesPerPass() const;
  /** The range holding dispatch `index` of the window. */
  std::uint32_t rangeOf(std::uint32_t index) const;
  void pushRange(CudaQueue& queue, std::uint32_t index);
  void popRange();
  void enable();
  void setConfig(std::size_t passIndex);
  /** Empties the L2 of the kernel's lines (flushMode_), then leaves dirtyBytes_ of the flush buffer dirty in it. */
  void flushL2(CudaQueue& queue);
  void evictL2(CudaQueue& queue);
  /** One load every touchStride_ bytes of the reachable memory (nothing when touchStride_ is 0). */
  void touchReachable(CudaQueue& queue);
  /** The loads the touch makes in `bytes`: one every touchStride_ bytes. */
  std::uint64_t touchLoads(std::uint64_t bytes) const { return (bytes + touchStride_ - 1) / touchStride_; }
  void finish(std::optional<OperationError> error, std::vector<std::vector<double>> values);
  /** Disables the range profiler if enabled; errors are ignored (cleanup). */
  void disable() noexcept;
  void fail(const char* step, const OperationFailure& failure);

  std::shared_ptr<const CuptiProfilerLibrary> library_;
  std::shared_ptr<CudaDevice> device_;
  std::unique_ptr<CuptiMetricConfig> config_;
  /**
   * The metrics' plan: CUPTI's passes, or one when CUPTI replays the kernel itself
   * (KREPLAY_PROFILER_REPLAY=kernel, an experiment: CUPTI's kernel replay, its own save and restore
   * of memory between its passes, inside kreplay's one pass).
   */
  ProfilerPlan plan_;
  CUdeviceptr flush_ = 0;
  std::uint64_t flushBytes_ = 0;
  CUdeviceptr flushState_ = 0;

  std::mutex mutex_;  // guards everything below (queue threads, result(), release())
  bool released_ = false;
  CuptiRangeProfilerObject* profiler_ = nullptr;
  std::vector<std::uint8_t> counterData_;
  /** The ranges counterData_ was sized for. */
  std::uint32_t counterDataRanges_ = 0;
  /** The window's scope, set on pass 1. */
  PassScope scope_;
  /** The user ranges' names by dispatch index (CUPTI keeps the pointers until the decode). */
  std::vector<std::string> rangeNames_;
  std::uint64_t dispatch_ = 0;
  std::uint32_t passesStopped_ = 0;
  bool dispatchOpen_ = false;  // between beginPass(1) and the last endPass
  bool pushed_ = false;
  /** CUPTI's automatic range around the kernel (as ncu measures it), or a user range pushed around the dispatch. */
  const bool kernelRange_;
  /** None with KREPLAY_PROFILER_L2_FLUSH=off: no flush before a pass (between a range's dispatches, --cache-control still decides). */
  const L2Flush flushMode_;
  const std::uint64_t flushRounds_;  // reads of the flush buffer per flush (KREPLAY_PROFILER_L2_FLUSH_ROUNDS)
  /** Whether the flush goes after a run, before the restore that follows (KREPLAY_PROFILER_L2_FLUSH_AT=restore). */
  const bool flushBeforeRestore_;
  /** Bytes of the flush buffer written after each flush, left dirty in the L2 (KREPLAY_PROFILER_L2_DIRTY_KIB). */
  const std::uint64_t dirtyBytes_;
  unsigned char dirtyValue_ = 0x5a;  // what the flush buffer's first dirtyBytes_ hold
  /** Set by afterRun's flush, taken by the next begin: that pass is not flushed again. */
  bool flushedAfterRun_ = false;
  /** The memory touched before each pass, and the bytes between two loads (0: none; KREPLAY_PROFILER_TOUCH_STRIDE, KREPLAY_PROFILER_TOUCH). */
  ReachableMemory reachable_;
  const std::uint64_t touchStride_;
  const TouchBy touchBy_;
  /** A wait kernel's nanoseconds ahead of each pass's kernel in the kernel range (KREPLAY_PROFILER_RUNWAY_NS; 0: none). */
  const std::uint64_t kernelRunwayNanoseconds_;
  /** Whether CUPTI replays the kernel for its passes (KREPLAY_PROFILER_REPLAY=kernel; see plan_). */
  const bool cuptiReplaysKernel_;
  void* touchHost_ = nullptr;
  std::uint64_t touchHostBytes_ = 0;
  /** The translations left cold before each pass, an experiment (KREPLAY_PROFILER_TLB; off by default). */
  std::unique_ptr<CudaTranslationEviction> eviction_;
  /** The instruction caches left cold before each pass of the kernel range, when the L2 is flushed (KREPLAY_PROFILER_ICACHE). */
  std::unique_ptr<CudaInstructionEviction> instructions_;
  /** Where the copy engine's flush (KREPLAY_PROFILER_L2_FLUSH=copy) writes the flush buffer: pinned, made at its first use. */
  void* flushHost_ = nullptr;
  bool started_ = false;
  bool allSubmitted_ = false;
  std::optional<OperationError> error_;
  ProfilerResult result_;
};

}  // namespace kreplay::cuda
