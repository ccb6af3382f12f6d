// Compares the CUPTI declarations of cupti-profiler-api.hpp and cupti-checkpoint-api.hpp with
// CUDA's own headers: struct sizes (as CUPTI checks them), field offsets and enumerator values.
// Built and run by src/drivers/cuda/cupti-api-check.test.ts when the CUPTI headers are installed.
// Ours first: cuda.h defines macros named like some of our constants.
#include "drivers/cuda/cupti-checkpoint-api.hpp"
#include "drivers/cuda/cupti-profiler-api.hpp"

#include <cupti_checkpoint.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

using NV::Cupti::Checkpoint::CUpti_Checkpoint;

namespace k = kreplay::cuda;

#define SAME_SIZE(ours, theirs, last)                                                             \
  static_assert(KREPLAY_CUPTI_STRUCT_SIZE(k::ours, last) == theirs##_STRUCT_SIZE, #ours " size"); \
  static_assert(sizeof(k::ours) == sizeof(theirs), #ours " sizeof")
#define SAME_OFFSET(ours, theirs, field) \
  static_assert(offsetof(k::ours, field) == offsetof(theirs, field), #ours "." #field)

SAME_SIZE(CuptiHostInitializeParams, CUpti_Profiler_Host_Initialize_Params, pHostObject);
SAME_OFFSET(CuptiHostInitializeParams, CUpti_Profiler_Host_Initialize_Params, pChipName);
SAME_SIZE(CuptiHostDeinitializeParams, CUpti_Profiler_Host_Deinitialize_Params, pHostObject);
SAME_SIZE(CuptiHostGetMetricPropertiesParams, CUpti_Profiler_Host_GetMetricProperties_Params, metricType);
SAME_OFFSET(CuptiHostGetMetricPropertiesParams, CUpti_Profiler_Host_GetMetricProperties_Params, pDimUnit);
SAME_SIZE(CuptiHostGetBaseMetricsParams, CUpti_Profiler_Host_GetBaseMetrics_Params, numMetrics);
SAME_OFFSET(CuptiHostGetBaseMetricsParams, CUpti_Profiler_Host_GetBaseMetrics_Params, metricType);
SAME_OFFSET(CuptiHostGetBaseMetricsParams, CUpti_Profiler_Host_GetBaseMetrics_Params, ppMetricNames);
SAME_SIZE(CuptiHostGetSubMetricsParams, CUpti_Profiler_Host_GetSubMetrics_Params, ppSubMetrics);
SAME_OFFSET(CuptiHostGetSubMetricsParams, CUpti_Profiler_Host_GetSubMetrics_Params, pMetricName);
SAME_OFFSET(CuptiHostGetSubMetricsParams, CUpti_Profiler_Host_GetSubMetrics_Params, numOfSubmetrics);
SAME_SIZE(CuptiHostEvaluateToGpuValuesParams, CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues);
SAME_OFFSET(CuptiHostEvaluateToGpuValuesParams, CUpti_Profiler_Host_EvaluateToGpuValues_Params, rangeIndex);
SAME_SIZE(CuptiHostConfigAddMetricsParams, CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics);
SAME_SIZE(CuptiHostGetConfigImageSizeParams, CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize);
SAME_SIZE(CuptiHostGetConfigImageParams, CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage);
SAME_SIZE(CuptiHostGetNumOfPassesParams, CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses);
SAME_SIZE(CuptiProfilerInitializeParams, CUpti_Profiler_Initialize_Params, pPriv);
SAME_SIZE(CuptiDeviceGetChipNameParams, CUpti_Device_GetChipName_Params, pChipName);
SAME_SIZE(CuptiGetCounterAvailabilityParams, CUpti_Profiler_GetCounterAvailability_Params,
          pCounterAvailabilityImage);
SAME_SIZE(CuptiDeviceSupportedParams, CUpti_Profiler_DeviceSupported_Params, api);
SAME_OFFSET(CuptiDeviceSupportedParams, CUpti_Profiler_DeviceSupported_Params, isSupported);
SAME_SIZE(CuptiRangeSetConfigParams, CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel);
SAME_OFFSET(CuptiRangeSetConfigParams, CUpti_RangeProfiler_SetConfig_Params, range);
SAME_OFFSET(CuptiRangeSetConfigParams, CUpti_RangeProfiler_SetConfig_Params, replayMode);
SAME_OFFSET(CuptiRangeSetConfigParams, CUpti_RangeProfiler_SetConfig_Params, maxRangesPerPass);
SAME_OFFSET(CuptiRangeSetConfigParams, CUpti_RangeProfiler_SetConfig_Params, minNestingLevel);
SAME_OFFSET(CuptiRangeSetConfigParams, CUpti_RangeProfiler_SetConfig_Params, passIndex);
SAME_SIZE(CuptiRangeEnableParams, CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject);
SAME_SIZE(CuptiRangeObjectParams, CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject);
SAME_SIZE(CuptiRangeObjectParams, CUpti_RangeProfiler_Start_Params, pRangeProfilerObject);
SAME_SIZE(CuptiRangeObjectParams, CUpti_RangeProfiler_PopRange_Params, pRangeProfilerObject);
SAME_SIZE(CuptiRangeStopParams, CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted);
SAME_OFFSET(CuptiRangeStopParams, CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted);
SAME_SIZE(CuptiRangePushRangeParams, CUpti_RangeProfiler_PushRange_Params, pRangeName);
SAME_SIZE(CuptiRangeDecodeDataParams, CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped);
SAME_SIZE(CuptiRangeGetCounterDataSizeParams, CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize);
SAME_OFFSET(CuptiRangeGetCounterDataSizeParams, CUpti_RangeProfiler_GetCounterDataSize_Params,
            maxNumRangeTreeNodes);
SAME_SIZE(CuptiRangeCounterDataImageInitializeParams, CUpti_RangeProfiler_CounterDataImage_Initialize_Params,
          pCounterData);
SAME_SIZE(CuptiRangeGetCounterDataInfoParams, CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges);

static_assert(sizeof(k::CuptiCheckpoint) == CUpti_Checkpoint_STRUCT_SIZE, "CUpti_Checkpoint size");
static_assert(offsetof(k::CuptiCheckpoint, allowOverwrite) == offsetof(CUpti_Checkpoint, allowOverwrite),
              "allowOverwrite");
static_assert(offsetof(k::CuptiCheckpoint, optimizations) == offsetof(CUpti_Checkpoint, optimizations),
              "optimizations");

static_assert(k::CUPTI_PROFILER_TYPE_RANGE_PROFILER == CUPTI_PROFILER_TYPE_RANGE_PROFILER, "profiler type");
static_assert(k::CUPTI_UserRange == CUPTI_UserRange, "CUPTI_UserRange");
static_assert(k::CUPTI_UserReplay == CUPTI_UserReplay, "CUPTI_UserReplay");
static_assert(k::CUPTI_PROFILER_CONFIGURATION_SUPPORTED == CUPTI_PROFILER_CONFIGURATION_SUPPORTED,
              "supported");
static_assert(k::CUPTI_PROFILER_RANGE_PROFILING == CUPTI_PROFILER_RANGE_PROFILING, "range profiling api");
static_assert(k::CUPTI_METRIC_TYPE_COUNTER == CUPTI_METRIC_TYPE_COUNTER, "counter metric type");
static_assert(k::CUPTI_METRIC_TYPE_RATIO == CUPTI_METRIC_TYPE_RATIO, "ratio metric type");
static_assert(k::CUPTI_METRIC_TYPE_THROUGHPUT == CUPTI_METRIC_TYPE_THROUGHPUT, "throughput metric type");
static_assert(k::CUPTI_CHECKPOINT_OPT_TRANSFER == NV::Cupti::Checkpoint::CUPTI_CHECKPOINT_OPT_TRANSFER,
              "opt transfer");

int main() {
  return 0;
}
