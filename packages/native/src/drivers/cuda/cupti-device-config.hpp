// CUPTI's profiler set up for one device: initialized, the device checked for range profiling, and
// the metrics' config made for its chip and the counters it has free.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "drivers/cuda/cuda-context.hpp"
#include "drivers/cuda/cupti-metric-config.hpp"

namespace kreplay::cuda {

/**
 * The chip name CUPTI gives the device of `context` (e.g. "GH100"), after cuptiProfilerInitialize:
 * what its host API plans and lists metrics for.
 * @throws OperationFailure with CUPTI's code.
 */
std::string cuptiChipName(const CuptiProfilerLibrary& library, const CudaContext& context);

/**
 * The config of `metrics` on the device of `context` (which must be current).
 * @throws OperationFailure `CUPTI_ERROR_NOT_SUPPORTED` naming why CUPTI cannot profile the device,
 * or CUPTI's code for an unknown metric or a failed call.
 */
std::unique_ptr<CuptiMetricConfig> cuptiDeviceConfig(std::shared_ptr<const CuptiProfilerLibrary> library,
                                                     const CudaContext& context,
                                                     const std::vector<std::string>& metrics);

}  // namespace kreplay::cuda
