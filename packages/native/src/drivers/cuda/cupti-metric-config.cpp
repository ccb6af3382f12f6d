#include "drivers/cuda/cupti-metric-config.hpp"

namespace kreplay::cuda {

CuptiMetricConfig::CuptiMetricConfig(std::shared_ptr<const CuptiProfilerLibrary> library,
                                     const std::string& chip, std::vector<std::uint8_t> availability,
                                     const std::vector<std::string>& metrics)
    : library_(std::move(library)), availability_(std::move(availability)), metrics_(metrics) {
  const CuptiProfilerApi& api = library_->api;
  for (const auto& metric : metrics_) names_.push_back(metric.c_str());
  plan_.chip = chip;
  auto initialize = cuptiParams<CuptiHostInitializeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostInitializeParams, pHostObject));
  initialize.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  initialize.pChipName = plan_.chip.c_str();
  initialize.pCounterAvailabilityImage = availability_.empty() ? nullptr : availability_.data();
  api.check(api.cuptiProfilerHostInitialize(&initialize), "cuptiProfilerHostInitialize");
  host_ = initialize.pHostObject;
  try {
    // Each metric alone first, so that an unknown one is named; then all together.
    for (std::size_t index = 0; index < metrics_.size(); ++index) {
      auto properties = cuptiParams<CuptiHostGetMetricPropertiesParams>(
          KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostGetMetricPropertiesParams, metricType));
      properties.pHostObject = host_;
      properties.pMetricName = names_[index];
      const CUptiResult result = api.cuptiProfilerHostGetMetricProperties(&properties);
      if (result != CUPTI_SUCCESS) {
        throw OperationFailure(cuptiResultName(result),
                               "the metric \"" + metrics_[index] + "\" is not known for " + chip +
                                   " (cuptiProfilerHostGetMetricProperties failed with " +
                                   cuptiResultName(result) + ")");
      }
      plan_.units.emplace_back(properties.pDimUnit ? properties.pDimUnit : "");
    }
    auto add = cuptiParams<CuptiHostConfigAddMetricsParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostConfigAddMetricsParams, numMetrics));
    add.pHostObject = host_;
    add.ppMetricNames = names_.data();
    add.numMetrics = names_.size();
    api.check(api.cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
    auto size = cuptiParams<CuptiHostGetConfigImageSizeParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostGetConfigImageSizeParams, configImageSize));
    size.pHostObject = host_;
    api.check(api.cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    image_.resize(size.configImageSize);
    auto get = cuptiParams<CuptiHostGetConfigImageParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostGetConfigImageParams, pConfigImage));
    get.pHostObject = host_;
    get.configImageSize = image_.size();
    get.pConfigImage = image_.data();
    api.check(api.cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
    auto passes = cuptiParams<CuptiHostGetNumOfPassesParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostGetNumOfPassesParams, numOfPasses));
    passes.configImageSize = image_.size();
    passes.pConfigImage = image_.data();
    api.check(api.cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses");
    plan_.passCount = static_cast<std::uint32_t>(passes.numOfPasses);
    plan_.configImageBytes = image_.size();
  } catch (...) {
    auto deinitialize = cuptiParams<CuptiHostDeinitializeParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostDeinitializeParams, pHostObject));
    deinitialize.pHostObject = host_;
    api.cuptiProfilerHostDeinitialize(&deinitialize);
    throw;
  }
}

CuptiMetricConfig::~CuptiMetricConfig() {
  auto deinitialize = cuptiParams<CuptiHostDeinitializeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostDeinitializeParams, pHostObject));
  deinitialize.pHostObject = host_;
  library_->api.cuptiProfilerHostDeinitialize(&deinitialize);
}

std::vector<double> CuptiMetricConfig::evaluate(const std::vector<std::uint8_t>& counterData,
                                                std::size_t range) const {
  const CuptiProfilerApi& api = library_->api;
  std::vector<double> values(metrics_.size(), 0.0);
  std::vector<const char*> names = names_;
  auto evaluate = cuptiParams<CuptiHostEvaluateToGpuValuesParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiHostEvaluateToGpuValuesParams, pMetricValues));
  evaluate.pHostObject = host_;
  evaluate.pCounterDataImage = counterData.data();
  evaluate.counterDataImageSize = counterData.size();
  evaluate.rangeIndex = range;
  evaluate.ppMetricNames = names.data();
  evaluate.numMetrics = names.size();
  evaluate.pMetricValues = values.data();
  api.check(api.cuptiProfilerHostEvaluateToGpuValues(&evaluate), "cuptiProfilerHostEvaluateToGpuValues");
  return values;
}

}  // namespace kreplay::cuda
