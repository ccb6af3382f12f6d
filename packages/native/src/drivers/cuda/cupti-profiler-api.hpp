// The parts of CUPTI's profiling API (libcupti.so, which loads libnvperf_host.so and
// libnvperf_target.so) that kreplay's counter profiler uses, declared here from CUDA 13.0's
// cupti_profiler_host.h, cupti_range_profiler.h, cupti_profiler_target.h and cupti_target.h (never
// included in the build; src/drivers/cuda/test/cupti-api-check.cpp compares these with them). Every
// parameter struct starts with its size (up to and including its last field) and pPriv.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "drivers/cuda/cuda-api.hpp"
#include "drivers/cuda/cupti-library.hpp"
#include "drivers/cuda/cupti-result.hpp"

namespace kreplay::cuda {

/** CUPTI_PROFILER_STRUCT_SIZE: the bytes up to and including `field`. */
#define KREPLAY_CUPTI_STRUCT_SIZE(type, field) (offsetof(type, field) + sizeof(((type*)nullptr)->field))

/** A parameter struct zeroed, with its size set. */
template <typename Params>
Params cuptiParams(std::size_t size) {
  Params params{};
  params.structSize = size;
  return params;
}

struct CuptiHostObject;
struct CuptiRangeProfilerObject;

constexpr int CUPTI_PROFILER_TYPE_RANGE_PROFILER = 0;      // CUpti_ProfilerType
constexpr int CUPTI_AutoRange = 1;                         // CUpti_ProfilerRange
constexpr int CUPTI_UserRange = 2;                         // CUpti_ProfilerRange
constexpr int CUPTI_UserReplay = 3;                        // CUpti_ProfilerReplayMode
constexpr int CUPTI_PROFILER_CONFIGURATION_SUPPORTED = 3;  // CUpti_Profiler_Support_Level
constexpr int CUPTI_PROFILER_RANGE_PROFILING = 0;          // CUpti_Profiler_API
constexpr int CUPTI_METRIC_TYPE_COUNTER = 0;               // CUpti_MetricType
constexpr int CUPTI_METRIC_TYPE_RATIO = 1;                 // CUpti_MetricType
constexpr int CUPTI_METRIC_TYPE_THROUGHPUT = 2;            // CUpti_MetricType

// cupti_profiler_host.h
struct CuptiHostInitializeParams {
  std::size_t structSize;
  void* pPriv;
  int profilerType;
  const char* pChipName;
  const std::uint8_t* pCounterAvailabilityImage;
  CuptiHostObject* pHostObject;
};
struct CuptiHostDeinitializeParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
};
struct CuptiHostGetMetricPropertiesParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
  const char* pMetricName;
  const char* pDescription;
  const char* pHwUnit;
  const char* pDimUnit;
  int metricType;
};
struct CuptiHostGetBaseMetricsParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
  int metricType;
  const char** ppMetricNames;
  std::size_t numMetrics;
};
struct CuptiHostGetSubMetricsParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
  int metricType;
  const char* pMetricName;
  std::size_t numOfSubmetrics;
  const char** ppSubMetrics;
};
struct CuptiHostEvaluateToGpuValuesParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
  const std::uint8_t* pCounterDataImage;
  std::size_t counterDataImageSize;
  std::size_t rangeIndex;
  const char** ppMetricNames;
  std::size_t numMetrics;
  double* pMetricValues;
};
struct CuptiHostConfigAddMetricsParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
  const char** ppMetricNames;
  std::size_t numMetrics;
};
struct CuptiHostGetConfigImageSizeParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
  std::size_t configImageSize;
};
struct CuptiHostGetConfigImageParams {
  std::size_t structSize;
  void* pPriv;
  CuptiHostObject* pHostObject;
  std::size_t configImageSize;
  std::uint8_t* pConfigImage;
};
struct CuptiHostGetNumOfPassesParams {
  std::size_t structSize;
  void* pPriv;
  std::size_t configImageSize;
  std::uint8_t* pConfigImage;
  std::size_t numOfPasses;
};

// cupti_profiler_target.h, cupti_target.h
struct CuptiProfilerInitializeParams {
  std::size_t structSize;
  void* pPriv;
};
struct CuptiDeviceGetChipNameParams {
  std::size_t structSize;
  void* pPriv;
  std::size_t deviceIndex;
  const char* pChipName;
};
struct CuptiGetCounterAvailabilityParams {
  std::size_t structSize;
  void* pPriv;
  CUcontext ctx;
  std::size_t counterAvailabilityImageSize;
  std::uint8_t* pCounterAvailabilityImage;
};
struct CuptiDeviceSupportedParams {
  std::size_t structSize;
  void* pPriv;
  CUdevice cuDevice;
  int isSupported;
  int architecture;
  int sli;
  int vGpu;
  int confidentialCompute;
  int cmp;
  int wsl;
  int api;
};

// cupti_range_profiler.h
struct CuptiRangeSetConfigParams {
  std::size_t structSize;
  void* pPriv;
  CuptiRangeProfilerObject* pRangeProfilerObject;
  std::size_t configSize;
  const std::uint8_t* pConfig;
  std::size_t counterDataImageSize;
  std::uint8_t* pCounterDataImage;
  int range;
  int replayMode;
  std::size_t maxRangesPerPass;
  std::uint16_t numNestingLevels;
  std::uint16_t minNestingLevel;
  std::size_t passIndex;
  std::uint16_t targetNestingLevel;
};
struct CuptiRangeEnableParams {
  std::size_t structSize;
  void* pPriv;
  CUcontext ctx;
  CuptiRangeProfilerObject* pRangeProfilerObject;
};
struct CuptiRangeObjectParams {  // Disable, Start, PopRange
  std::size_t structSize;
  void* pPriv;
  CuptiRangeProfilerObject* pRangeProfilerObject;
};
struct CuptiRangeStopParams {
  std::size_t structSize;
  void* pPriv;
  CuptiRangeProfilerObject* pRangeProfilerObject;
  std::size_t passIndex;
  std::size_t targetNestingLevel;
  std::uint8_t isAllPassSubmitted;
};
struct CuptiRangePushRangeParams {
  std::size_t structSize;
  void* pPriv;
  CuptiRangeProfilerObject* pRangeProfilerObject;
  const char* pRangeName;
};
struct CuptiRangeDecodeDataParams {
  std::size_t structSize;
  void* pPriv;
  CuptiRangeProfilerObject* pRangeProfilerObject;
  std::size_t numOfRangeDropped;
};
struct CuptiRangeGetCounterDataSizeParams {
  std::size_t structSize;
  void* pPriv;
  CuptiRangeProfilerObject* pRangeProfilerObject;
  const char** pMetricNames;
  std::size_t numMetrics;
  std::size_t maxNumOfRanges;
  std::uint32_t maxNumRangeTreeNodes;
  std::size_t counterDataSize;
};
struct CuptiRangeCounterDataImageInitializeParams {
  std::size_t structSize;
  void* pPriv;
  CuptiRangeProfilerObject* pRangeProfilerObject;
  std::size_t counterDataSize;
  std::uint8_t* pCounterData;
};
struct CuptiRangeGetCounterDataInfoParams {
  std::size_t structSize;
  void* pPriv;
  const std::uint8_t* pCounterDataImage;
  std::size_t counterDataImageSize;
  std::size_t numTotalRanges;
};

struct CuptiProfilerApi {
  CUptiResult (*cuptiGetErrorMessage)(CUptiResult result, const char** text);  // may be null
  CUptiResult (*cuptiProfilerInitialize)(CuptiProfilerInitializeParams*);
  CUptiResult (*cuptiDeviceGetChipName)(CuptiDeviceGetChipNameParams*);
  CUptiResult (*cuptiProfilerGetCounterAvailability)(CuptiGetCounterAvailabilityParams*);
  CUptiResult (*cuptiProfilerDeviceSupported)(CuptiDeviceSupportedParams*);
  CUptiResult (*cuptiProfilerHostInitialize)(CuptiHostInitializeParams*);
  CUptiResult (*cuptiProfilerHostDeinitialize)(CuptiHostDeinitializeParams*);
  CUptiResult (*cuptiProfilerHostGetMetricProperties)(CuptiHostGetMetricPropertiesParams*);
  CUptiResult (*cuptiProfilerHostConfigAddMetrics)(CuptiHostConfigAddMetricsParams*);
  CUptiResult (*cuptiProfilerHostGetConfigImageSize)(CuptiHostGetConfigImageSizeParams*);
  CUptiResult (*cuptiProfilerHostGetConfigImage)(CuptiHostGetConfigImageParams*);
  CUptiResult (*cuptiProfilerHostGetNumOfPasses)(CuptiHostGetNumOfPassesParams*);
  CUptiResult (*cuptiProfilerHostEvaluateToGpuValues)(CuptiHostEvaluateToGpuValuesParams*);
  CUptiResult (*cuptiRangeProfilerEnable)(CuptiRangeEnableParams*);
  CUptiResult (*cuptiRangeProfilerDisable)(CuptiRangeObjectParams*);
  CUptiResult (*cuptiRangeProfilerSetConfig)(CuptiRangeSetConfigParams*);
  CUptiResult (*cuptiRangeProfilerStart)(CuptiRangeObjectParams*);
  CUptiResult (*cuptiRangeProfilerStop)(CuptiRangeStopParams*);
  CUptiResult (*cuptiRangeProfilerPushRange)(CuptiRangePushRangeParams*);
  CUptiResult (*cuptiRangeProfilerPopRange)(CuptiRangeObjectParams*);
  CUptiResult (*cuptiRangeProfilerDecodeData)(CuptiRangeDecodeDataParams*);
  CUptiResult (*cuptiRangeProfilerGetCounterDataSize)(CuptiRangeGetCounterDataSizeParams*);
  CUptiResult (*cuptiRangeProfilerCounterDataImageInitialize)(CuptiRangeCounterDataImageInitializeParams*);
  CUptiResult (*cuptiRangeProfilerGetCounterDataInfo)(CuptiRangeGetCounterDataInfoParams*);
  /** May be null (CUPTI before the metric enumeration of its host API): listing metrics then fails. */
  CUptiResult (*cuptiProfilerHostGetBaseMetrics)(CuptiHostGetBaseMetricsParams*);
  /** May be null, as cuptiProfilerHostGetBaseMetrics. */
  CUptiResult (*cuptiProfilerHostGetSubMetrics)(CuptiHostGetSubMetricsParams*);

  /** The failure of `call`, with CUPTI's own message when it has one. */
  OperationFailure failure(CUptiResult result, const char* call) const;
  /** @throws OperationFailure when `result` is not CUPTI_SUCCESS. */
  void check(CUptiResult result, const char* call) const {
    if (result != CUPTI_SUCCESS) throw failure(result, call);
  }
};

/** libcupti.so (with libnvperf_host.so and libnvperf_target.so opened first) and its entry points. */
struct CuptiProfilerLibrary {
  std::unique_ptr<DynamicLibrary> nvperfHost;
  std::unique_ptr<DynamicLibrary> nvperfTarget;
  std::unique_ptr<DynamicLibrary> cupti;
  std::string path;
  CuptiProfilerApi api{};
};

struct CuptiProfilerLoad {
  std::shared_ptr<const CuptiProfilerLibrary> library;
  std::string failure;
};

/** Loads libcupti.so once for the process (see cupti-library.hpp for where it looks). */
const CuptiProfilerLoad& loadCuptiProfiler();

}  // namespace kreplay::cuda
