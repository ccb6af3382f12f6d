// CUPTI's range profiler on one context (cupti_range_profiler.h) in user replay: enabled at a
// window's first pass and kept from one window to the next (enabling costs far more than a pass),
// its counter data sized for the window's ranges per pass, its config set for each pass, started and
// stopped around each pass, user ranges pushed and popped, and the counter data decoded after the
// last pass. One thread at a time calls it (the profiler session's, under its lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "drivers/cuda/cupti-metric-config.hpp"

namespace kreplay::cuda {

class CuptiRangeProfiler {
 public:
  /** What a decode found: the ranges CUPTI recorded and those it dropped. */
  struct Ranges {
    std::size_t recorded = 0;
    std::size_t dropped = 0;
  };

  /** `kernelRange`: CUPTI's automatic range (each kernel a range) rather than user ranges. Calls no CUPTI yet. */
  CuptiRangeProfiler(std::shared_ptr<const CuptiProfilerLibrary> library, CUcontext context,
                     CuptiMetricConfig& config, bool kernelRange);
  CuptiRangeProfiler(const CuptiRangeProfiler&) = delete;
  CuptiRangeProfiler& operator=(const CuptiRangeProfiler&) = delete;

  /**
   * Readies a window of `ranges` ranges per pass: enables the profiler (afresh when it was set up for
   * another number), sizes and initializes the counter data, and sets the config of the first pass.
   * @throws OperationFailure with CUPTI's code.
   */
  void prepare(std::uint32_t ranges);
  /** Sets the config of pass `passIndex` (0-based), for a pass run again. @throws OperationFailure. */
  void setConfig(std::size_t passIndex);
  /** @throws OperationFailure. */
  void start();
  /** Stops a started pass; returns whether CUPTI has every pass it needs. @throws OperationFailure. */
  bool stop();
  bool started() const { return started_; }
  /** Pushes a user range named `name` (CUPTI keeps the pointer until the decode). @throws OperationFailure. */
  void push(const char* name);
  /** Pops the user range pushed last, if any. @throws OperationFailure. */
  void pop();
  /** Decodes what the passes counted. @throws OperationFailure. */
  Ranges decode();
  /** The counter data, decoded. */
  const std::vector<std::uint8_t>& counterData() const { return counterData_; }
  /** Pops, stops and disables whatever is on; errors are ignored (cleanup). */
  void disable() noexcept;

 private:
  void enable();
  /** Calls one of CUPTI's functions that take the profiler object alone (Start, PopRange, Disable). */
  CUptiResult call(CUptiResult (*function)(CuptiRangeObjectParams*)) const;
  /** Calls cuptiRangeProfilerStop, which ends the started pass whatever it returns. */
  CUptiResult callStop(bool& allPassesSubmitted);

  std::shared_ptr<const CuptiProfilerLibrary> library_;
  CUcontext context_;
  CuptiMetricConfig& config_;
  const bool kernelRange_;
  CuptiRangeProfilerObject* object_ = nullptr;
  std::vector<std::uint8_t> counterData_;
  /** The ranges per pass counterData_ was sized for (0: none yet). */
  std::uint32_t ranges_ = 0;
  bool started_ = false;
  bool pushed_ = false;
};

}  // namespace kreplay::cuda
