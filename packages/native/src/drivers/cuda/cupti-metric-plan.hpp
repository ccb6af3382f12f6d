// What a list of metrics needs on a chip (passes, config image size, units), computed by CUPTI's
// host API without a device: for tools and tests.
#pragma once

#include <string>
#include <vector>

#include "core/profiler-session.hpp"

namespace kreplay {

/**
 * The plan of `metrics` on `chip` (e.g. "GH100"), every counter assumed available.
 * @throws OperationFailure with code `cupti-unavailable` when libcupti.so cannot be loaded, or the
 * CUPTI error of an unknown chip or metric.
 */
ProfilerPlan planCuptiMetrics(const std::string& chip, const std::vector<std::string>& metrics);

}  // namespace kreplay
