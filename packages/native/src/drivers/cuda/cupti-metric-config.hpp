// CUPTI's host side of counter collection for one chip: metric names -> a config image and the number
// of passes it needs, and counter data -> metric values. Needs no device: the chip is named.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/profiler-session.hpp"
#include "drivers/cuda/cupti-profiler-api.hpp"

namespace kreplay::cuda {

class CuptiMetricConfig {
 public:
  /**
   * `availability`: the device's counter availability image (may be empty: then every counter of
   * the chip is assumed available).
   * @throws OperationFailure for an unknown chip or metric (code CUPTI_ERROR_..., message naming it).
   */
  CuptiMetricConfig(std::shared_ptr<const CuptiProfilerLibrary> library, const std::string& chip,
                    std::vector<std::uint8_t> availability, const std::vector<std::string>& metrics);
  ~CuptiMetricConfig();
  CuptiMetricConfig(const CuptiMetricConfig&) = delete;
  CuptiMetricConfig& operator=(const CuptiMetricConfig&) = delete;

  const ProfilerPlan& plan() const { return plan_; }
  const std::vector<std::uint8_t>& image() const { return image_; }
  /** Metric names as C strings, for CUPTI calls (alive as long as this object). */
  const char** names() { return names_.data(); }
  std::size_t count() const { return metrics_.size(); }
  /** The metrics' values in range `range` of decoded counter data. @throws OperationFailure. */
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counterData, std::size_t range) const;

 private:
  std::shared_ptr<const CuptiProfilerLibrary> library_;
  std::vector<std::uint8_t> availability_;
  std::vector<std::string> metrics_;
  std::vector<const char*> names_;
  CuptiHostObject* host_ = nullptr;
  std::vector<std::uint8_t> image_;
  ProfilerPlan plan_;
};

}  // namespace kreplay::cuda
