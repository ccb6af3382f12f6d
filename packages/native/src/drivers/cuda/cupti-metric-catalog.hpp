// The metrics CUPTI's host API knows for a chip (cuptiProfilerHostGetBaseMetrics, its metric
// properties and sub-metrics), computed without a device: what `ncu --query-metrics` lists.
#pragma once

#include <string>
#include <vector>

namespace kreplay {

/** One metric as CUPTI's host API describes it. */
struct CuptiMetricInfo {
  std::string name;
  /** `counter`, `ratio` or `throughput`. */
  std::string type;
  /** Its unit as CUPTI names it (`nanosecond`, `gpc_cycle/second`), empty for a ratio. */
  std::string unit;
  /** The hardware unit that counts it (`gpu`, `sm`, `dram`). */
  std::string hardwareUnit;
  std::string description;
  /** The suffixes it may be named with (`.sum`, `.avg.pct_of_peak_sustained_elapsed`); filled when asked for. */
  std::vector<std::string> subMetrics;
};

/**
 * Every base metric of `chip` (e.g. "GH100"): counters, ratios, then throughputs, each with its
 * properties, without sub-metrics.
 * @throws OperationFailure with code `cupti-unavailable` when libcupti.so cannot be loaded or lacks the
 * metric enumeration, or the CUPTI error of an unknown chip.
 */
std::vector<CuptiMetricInfo> listCuptiMetrics(const std::string& chip);

/**
 * The metrics `names` (base names, or names with a rollup or sub-metric) of `chip`, each with its
 * properties and its sub-metrics.
 * @throws OperationFailure as listCuptiMetrics, and CUPTI_ERROR_INVALID_METRIC_NAME naming an unknown metric.
 */
std::vector<CuptiMetricInfo> describeCuptiMetrics(const std::string& chip, const std::vector<std::string>& names);

}  // namespace kreplay
