// queryCuptiMetrics: the metrics CUPTI's host API knows for a chip, off the JavaScript thread.
#pragma once

#include <napi.h>

namespace kreplay::binding {

/**
 * queryCuptiMetrics(chip, names: string[] | null) -> Promise<{ name, type, unit, hardwareUnit,
 * description, subMetrics }[] | { code, message }>: every base metric of the chip (names null, no
 * sub-metrics), or the named ones with their sub-metrics.
 */
Napi::Value queryCuptiMetrics(const Napi::CallbackInfo& info);

}  // namespace kreplay::binding
