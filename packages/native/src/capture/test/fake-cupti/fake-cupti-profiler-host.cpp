// CUPTI's profiler host API in the fake libcupti.so: a chip "FK100" that knows six metrics, so that
// listing metrics (cuptiProfilerHostGetBaseMetrics, GetMetricProperties, GetSubMetrics) runs end to
// end without CUPTI (cupti-metric-catalog.test.ts, the CLI's --query-metrics). The range profiler's
// entry points are here so that the library loads, and fail: nothing is profiled through the fake.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "drivers/cuda/cupti-profiler-api.hpp"

namespace k = kreplay::cuda;

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidParameter = 1;
constexpr int kNotSupported = 27;
constexpr int kInvalidMetricName = 17;
constexpr int kInvalidChipName = 46;
const char* const kChip = "FK100";

struct FakeMetric {
  const char* name;
  int type;
  const char* unit;
  const char* hardwareUnit;
  const char* description;
};

const FakeMetric kMetrics[] = {
    {"gpu__time_duration", k::CUPTI_METRIC_TYPE_COUNTER, "nanosecond", "gpu", "total duration in nanoseconds"},
    {"gpc__cycles_elapsed", k::CUPTI_METRIC_TYPE_COUNTER, "gpc_cycle", "gpc", "number of cycles elapsed on GPC"},
    {"dram__bytes", k::CUPTI_METRIC_TYPE_COUNTER, "byte", "dram", "number of bytes accessed in DRAM"},
    {"l1tex__t_sector_hit_rate", k::CUPTI_METRIC_TYPE_RATIO, "", "l1tex", "proportion of L1 sector lookups that hit"},
    {"lts__t_sector_hit_rate", k::CUPTI_METRIC_TYPE_RATIO, "", "lts", "proportion of L2 sector lookups that hit"},
    {"sm__throughput", k::CUPTI_METRIC_TYPE_THROUGHPUT, "", "sm", "SM throughput assuming ideal load balancing"},
};

const std::vector<const char*> kCounterSuffixes = {".sum", ".avg", ".max", ".min", ".sum.per_second", ".avg.per_second"};
const std::vector<const char*> kRatioSuffixes = {".pct", ".ratio", ".max_rate"};
const std::vector<const char*> kThroughputSuffixes = {".avg.pct_of_peak_sustained_elapsed", ".avg.pct_of_peak_sustained_active",
                                                      ".max.pct_of_peak_sustained_elapsed"};

struct FakeHost {
  std::vector<const char*> names;
  std::string unit;
};

/** The metric a name is of (its base name, or the name with a suffix), or null. */
const FakeMetric* findMetric(const char* name) {
  if (name == nullptr) return nullptr;
  const std::string text(name);
  const std::string base = text.substr(0, text.find('.'));
  for (const auto& metric : kMetrics) {
    if (base == metric.name) return &metric;
  }
  return nullptr;
}

}  // namespace

#define FAKE extern "C" __attribute__((visibility("default")))

FAKE int cuptiProfilerHostInitialize(k::CuptiHostInitializeParams* params) {
  if (params == nullptr || params->pChipName == nullptr) return kInvalidParameter;
  if (std::strcmp(params->pChipName, kChip) != 0) return kInvalidChipName;
  params->pHostObject = reinterpret_cast<k::CuptiHostObject*>(new FakeHost());
  return kSuccess;
}
FAKE int cuptiProfilerHostDeinitialize(k::CuptiHostDeinitializeParams* params) {
  delete reinterpret_cast<FakeHost*>(params->pHostObject);
  return kSuccess;
}
FAKE int cuptiProfilerHostGetBaseMetrics(k::CuptiHostGetBaseMetricsParams* params) {
  auto* host = reinterpret_cast<FakeHost*>(params->pHostObject);
  if (host == nullptr) return kInvalidParameter;
  host->names.clear();
  for (const auto& metric : kMetrics) {
    if (metric.type == params->metricType) host->names.push_back(metric.name);
  }
  params->ppMetricNames = host->names.data();
  params->numMetrics = host->names.size();
  return kSuccess;
}
FAKE int cuptiProfilerHostGetMetricProperties(k::CuptiHostGetMetricPropertiesParams* params) {
  auto* host = reinterpret_cast<FakeHost*>(params->pHostObject);
  const FakeMetric* metric = findMetric(params->pMetricName);
  if (host == nullptr) return kInvalidParameter;
  if (metric == nullptr) return kInvalidMetricName;
  const std::string name(params->pMetricName);
  host->unit = name.find("pct") != std::string::npos ? "percent" : metric->unit;
  if (name.find(".per_second") != std::string::npos) host->unit += "/second";
  params->pDescription = metric->description;
  params->pHwUnit = metric->hardwareUnit;
  params->pDimUnit = host->unit.c_str();
  params->metricType = metric->type;
  return kSuccess;
}
FAKE int cuptiProfilerHostGetSubMetrics(k::CuptiHostGetSubMetricsParams* params) {
  const FakeMetric* metric = findMetric(params->pMetricName);
  if (metric == nullptr) return kInvalidMetricName;
  const std::vector<const char*>& suffixes = metric->type == k::CUPTI_METRIC_TYPE_COUNTER ? kCounterSuffixes
                                             : metric->type == k::CUPTI_METRIC_TYPE_RATIO ? kRatioSuffixes
                                                                                          : kThroughputSuffixes;
  params->numOfSubmetrics = suffixes.size();
  params->ppSubMetrics = const_cast<const char**>(suffixes.data());
  return kSuccess;
}

// The rest of the profiler API, present so that libcupti.so loads; nothing is collected.
FAKE int cuptiProfilerInitialize(void*) { return kNotSupported; }
FAKE int cuptiDeviceGetChipName(void*) { return kNotSupported; }
FAKE int cuptiProfilerGetCounterAvailability(void*) { return kNotSupported; }
FAKE int cuptiProfilerDeviceSupported(void*) { return kNotSupported; }
FAKE int cuptiProfilerHostConfigAddMetrics(void*) { return kNotSupported; }
FAKE int cuptiProfilerHostGetConfigImageSize(void*) { return kNotSupported; }
FAKE int cuptiProfilerHostGetConfigImage(void*) { return kNotSupported; }
FAKE int cuptiProfilerHostGetNumOfPasses(void*) { return kNotSupported; }
FAKE int cuptiProfilerHostEvaluateToGpuValues(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerEnable(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerDisable(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerSetConfig(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerStart(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerStop(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerPushRange(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerPopRange(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerDecodeData(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerGetCounterDataSize(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerCounterDataImageInitialize(void*) { return kNotSupported; }
FAKE int cuptiRangeProfilerGetCounterDataInfo(void*) { return kNotSupported; }
