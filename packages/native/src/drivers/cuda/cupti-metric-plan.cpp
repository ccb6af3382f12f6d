#include "drivers/cuda/cupti-metric-plan.hpp"

#include "drivers/cuda/cupti-metric-config.hpp"

namespace kreplay {

ProfilerPlan planCuptiMetrics(const std::string& chip, const std::vector<std::string>& metrics) {
  const cuda::CuptiProfilerLoad& loaded = cuda::loadCuptiProfiler();
  if (!loaded.library) throw OperationFailure("cupti-unavailable", loaded.failure);
  return cuda::CuptiMetricConfig(loaded.library, chip, {}, metrics).plan();
}

}  // namespace kreplay
