// A hardware-counter profiler for one agent (CUPTI's range profiler on the cuda driver) in user
// replay: the caller runs the dispatch once per pass, restoring memory between passes, and brackets
// each pass with beginPass and endPass on the dispatch's queue. After the last pass the values of the
// dispatch are decoded on the queue thread; result() reads them once the queue has run that far.
// A window may run a sequence of dispatches in each pass (range replay): beginPass(1) names how many,
// each dispatch of a pass is bracketed by beginDispatch and endDispatch, and the result holds one set
// of values per dispatch.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/queue.hpp"
#include "core/types.hpp"

namespace kreplay {

/** What a profiled pass measures. */
enum class ProfilerRange {
  /** The dispatch's kernel itself, as Nsight Compute measures it (CUPTI's automatic range). */
  Kernel,
  /** A user range pushed around the dispatch, from just before its launch to just after it. */
  Dispatch,
};

/** How the L2 is flushed before a pass (and, with PassScope::flushBetweenDispatches, before each dispatch of a range). */
enum class L2Flush {
  /** A buffer twice the L2's size written and its lines dropped: no valid line left, as ncu's invalidation leaves it. */
  WriteDiscard,
  /** That buffer read: the L2 left full of its clean lines. */
  Read,
  /** No flush: the L2 as the restore and the run before left it. */
  None,
};

/** What the profiler does around each pass, fixed when the session is created (validated by the caller). */
struct ProfilerConditions {
  L2Flush l2Flush = L2Flush::WriteDiscard;
  /** Whether a kernel of other code runs on every multiprocessor before each pass, leaving the instruction caches cold. */
  bool evictInstructionCaches = true;
};

/** What the profiler found for the last dispatch it finished (or failed). */
struct ProfilerResult {
  /** Which dispatch, counting from 1 (0: none yet). */
  std::uint64_t dispatch = 0;
  /** One value per metric, in the session's order; empty when the dispatch failed. */
  std::vector<double> values;
  /** One set of values per dispatch of the window (a sequence replayed as a range); `values` is the first. */
  std::vector<std::vector<double>> dispatchValues;
  std::optional<OperationError> error;
};

/** What one window runs in each pass. */
struct PassScope {
  /** Dispatches run one after another in each pass (1: a single dispatch). */
  std::uint32_t dispatches = 1;
  /** Flush the L2 (as ProfilerConditions::l2Flush says) before every dispatch of a pass (true) or only before the first (false, as the program's own sequence runs). */
  bool flushBetweenDispatches = true;
};

/** What the metrics need, decided when the session is created. */
struct ProfilerPlan {
  std::string chip;
  std::uint32_t passCount = 1;
  std::uint64_t configImageBytes = 0;
  /** Each metric's unit as CUPTI names it (`nanosecond`, `percent`, ...). */
  std::vector<std::string> units;
};

class ProfilerSession {
 public:
  virtual ~ProfilerSession() = default;
  virtual const ProfilerPlan& plan() const = 0;
  /**
   * Enqueues the start of pass `pass` (1-based) on `queue`: right before the dispatch's kernel (the
   * first dispatch's, in a range). `scope` is read on pass 1 and holds for the window's later passes.
   */
  virtual void beginPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass, PassScope scope) = 0;
  /** In a range (scope.dispatches > 1): enqueues what goes right before dispatch `index` (0-based) of pass `pass`. */
  virtual void beginDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t pass, std::uint32_t index) = 0;
  /** In a range: enqueues what goes right after dispatch `index` of pass `pass`. */
  virtual void endDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t pass, std::uint32_t index) = 0;
  /** Enqueues the end of pass `pass` right after the kernel; after the last pass, the decode. */
  virtual void endPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass) = 0;
  /** The last finished dispatch (read it after synchronizing the queue). */
  virtual ProfilerResult result() = 0;
  /** Stops profiling the context and frees what the session holds (any thread). Idempotent. */
  virtual void release() = 0;
};

}  // namespace kreplay
