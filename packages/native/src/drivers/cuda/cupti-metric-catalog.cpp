#include "drivers/cuda/cupti-metric-catalog.hpp"

#include <memory>

#include "core/types.hpp"
#include "drivers/cuda/cupti-profiler-api.hpp"

namespace kreplay {

namespace {

using cuda::CuptiHostObject;
using cuda::CuptiProfilerApi;
using cuda::cuptiParams;

const char* metricTypeName(int type) {
  switch (type) {
    case cuda::CUPTI_METRIC_TYPE_COUNTER:
      return "counter";
    case cuda::CUPTI_METRIC_TYPE_RATIO:
      return "ratio";
    case cuda::CUPTI_METRIC_TYPE_THROUGHPUT:
      return "throughput";
    default:
      return "unknown";
  }
}

/** CUPTI's host object for a chip, deinitialized when it goes. */
class HostObject {
 public:
  HostObject(std::shared_ptr<const cuda::CuptiProfilerLibrary> library, const std::string& chip)
      : library_(std::move(library)) {
    const CuptiProfilerApi& api = library_->api;
    if (!api.cuptiProfilerHostGetBaseMetrics || !api.cuptiProfilerHostGetSubMetrics) {
      throw OperationFailure("cupti-unavailable", library_->path +
                                                      " does not export cuptiProfilerHostGetBaseMetrics and "
                                                      "cuptiProfilerHostGetSubMetrics (CUPTI older than CUDA 13.0)");
    }
    auto initialize = cuptiParams<cuda::CuptiHostInitializeParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(cuda::CuptiHostInitializeParams, pHostObject));
    initialize.profilerType = cuda::CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    initialize.pChipName = chip.c_str();
    api.check(api.cuptiProfilerHostInitialize(&initialize), "cuptiProfilerHostInitialize");
    host_ = initialize.pHostObject;
  }
  ~HostObject() {
    auto deinitialize = cuptiParams<cuda::CuptiHostDeinitializeParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(cuda::CuptiHostDeinitializeParams, pHostObject));
    deinitialize.pHostObject = host_;
    library_->api.cuptiProfilerHostDeinitialize(&deinitialize);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;

  const CuptiProfilerApi& api() const { return library_->api; }

  std::vector<std::string> baseMetrics(int type) const {
    auto params = cuptiParams<cuda::CuptiHostGetBaseMetricsParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(cuda::CuptiHostGetBaseMetricsParams, numMetrics));
    params.pHostObject = host_;
    params.metricType = type;
    api().check(api().cuptiProfilerHostGetBaseMetrics(&params), "cuptiProfilerHostGetBaseMetrics");
    std::vector<std::string> names;
    for (std::size_t index = 0; index < params.numMetrics; ++index) {
      if (params.ppMetricNames[index]) names.emplace_back(params.ppMetricNames[index]);
    }
    return names;
  }

  CuptiMetricInfo properties(const std::string& name, const std::string& chip) const {
    auto params = cuptiParams<cuda::CuptiHostGetMetricPropertiesParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(cuda::CuptiHostGetMetricPropertiesParams, metricType));
    params.pHostObject = host_;
    params.pMetricName = name.c_str();
    const cuda::CUptiResult result = api().cuptiProfilerHostGetMetricProperties(&params);
    if (result != cuda::CUPTI_SUCCESS) {
      throw OperationFailure(cuda::cuptiResultName(result), "the metric \"" + name + "\" is not known for " + chip +
                                                                " (cuptiProfilerHostGetMetricProperties failed with " +
                                                                cuda::cuptiResultName(result) + ")");
    }
    CuptiMetricInfo info;
    info.name = name;
    info.type = metricTypeName(params.metricType);
    info.unit = params.pDimUnit ? params.pDimUnit : "";
    info.hardwareUnit = params.pHwUnit ? params.pHwUnit : "";
    info.description = params.pDescription ? params.pDescription : "";
    metricType_ = params.metricType;
    return info;
  }

  /** The sub-metrics of the metric `properties` described last. */
  std::vector<std::string> subMetrics(const std::string& name) const {
    auto params = cuptiParams<cuda::CuptiHostGetSubMetricsParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(cuda::CuptiHostGetSubMetricsParams, ppSubMetrics));
    params.pHostObject = host_;
    params.metricType = metricType_;
    params.pMetricName = name.c_str();
    api().check(api().cuptiProfilerHostGetSubMetrics(&params), "cuptiProfilerHostGetSubMetrics");
    std::vector<std::string> suffixes;
    for (std::size_t index = 0; index < params.numOfSubmetrics; ++index) {
      if (params.ppSubMetrics[index]) suffixes.emplace_back(params.ppSubMetrics[index]);
    }
    return suffixes;
  }

 private:
  std::shared_ptr<const cuda::CuptiProfilerLibrary> library_;
  CuptiHostObject* host_ = nullptr;
  mutable int metricType_ = cuda::CUPTI_METRIC_TYPE_COUNTER;
};

std::shared_ptr<const cuda::CuptiProfilerLibrary> profilerLibrary() {
  const cuda::CuptiProfilerLoad& loaded = cuda::loadCuptiProfiler();
  if (!loaded.library) throw OperationFailure("cupti-unavailable", loaded.failure);
  return loaded.library;
}

}  // namespace

std::vector<CuptiMetricInfo> listCuptiMetrics(const std::string& chip) {
  HostObject host(profilerLibrary(), chip);
  std::vector<CuptiMetricInfo> metrics;
  for (int type : {cuda::CUPTI_METRIC_TYPE_COUNTER, cuda::CUPTI_METRIC_TYPE_RATIO, cuda::CUPTI_METRIC_TYPE_THROUGHPUT}) {
    for (const auto& name : host.baseMetrics(type)) metrics.push_back(host.properties(name, chip));
  }
  return metrics;
}

std::vector<CuptiMetricInfo> describeCuptiMetrics(const std::string& chip, const std::vector<std::string>& names) {
  HostObject host(profilerLibrary(), chip);
  std::vector<CuptiMetricInfo> metrics;
  for (const auto& name : names) {
    CuptiMetricInfo info = host.properties(name, chip);
    info.subMetrics = host.subMetrics(name);
    metrics.push_back(std::move(info));
  }
  return metrics;
}

}  // namespace kreplay
