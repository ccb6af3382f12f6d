// CUPTI's name of a device's chip (cuptiDeviceGetChipName), which its host API plans and lists
// metrics for.
#pragma once

#include <string>

#include "drivers/cuda/cuda-device.hpp"
#include "drivers/cuda/cupti-profiler-api.hpp"

namespace kreplay::cuda {

/** cuptiProfilerInitialize (again is harmless). @throws OperationFailure with CUPTI's error. */
void initializeCuptiProfiler(const CuptiProfilerApi& api);

/**
 * The chip name CUPTI gives `device` (e.g. "GH100"), after cuptiProfilerInitialize.
 * @throws OperationFailure with CUPTI's error.
 */
std::string cuptiDeviceChipName(const CuptiProfilerLibrary& library, const CudaDevice& device);

}  // namespace kreplay::cuda
