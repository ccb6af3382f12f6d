#include "drivers/cuda/cupti-profiler-api.hpp"

#include <mutex>

namespace kreplay::cuda {

OperationFailure CuptiProfilerApi::failure(CUptiResult result, const char* call) const {
  std::string message = std::string(call) + " failed with " + cuptiResultName(result);
  const char* text = nullptr;
  if (cuptiGetErrorMessage && cuptiGetErrorMessage(result, &text) == CUPTI_SUCCESS && text && *text &&
      cuptiResultName(result) != text) {
    message += std::string(" (") + text + ")";
  }
  return OperationFailure(cuptiResultName(result), message);
}

namespace {

CuptiProfilerLoad openProfilerLibrary() {
  auto loaded = std::make_shared<CuptiProfilerLibrary>();
  // libcupti.so loads the NVPerf libraries itself; opened first (globally) from the same places, they are
  // found.
  loaded->nvperfHost = openCuptiLibrary({"libnvperf_host.so"}).library;
  loaded->nvperfTarget = openCuptiLibrary({"libnvperf_target.so"}).library;
  CuptiLibraryLookup cupti = openCuptiLibrary({"libcupti.so", "libcupti.so.13"});
  if (!cupti.library) return {nullptr, cupti.failure};
  loaded->cupti = std::move(cupti.library);
  loaded->path = cupti.path;
  const DynamicLibrary& library = *loaded->cupti;
  CuptiProfilerApi& api = loaded->api;
  std::string missing;
  const auto resolve = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(library.symbol(name));
    if (!function && missing.empty()) missing = name;
  };
  resolve(api.cuptiProfilerInitialize, "cuptiProfilerInitialize");
  resolve(api.cuptiDeviceGetChipName, "cuptiDeviceGetChipName");
  resolve(api.cuptiProfilerGetCounterAvailability, "cuptiProfilerGetCounterAvailability");
  resolve(api.cuptiProfilerDeviceSupported, "cuptiProfilerDeviceSupported");
  resolve(api.cuptiProfilerHostInitialize, "cuptiProfilerHostInitialize");
  resolve(api.cuptiProfilerHostDeinitialize, "cuptiProfilerHostDeinitialize");
  resolve(api.cuptiProfilerHostGetMetricProperties, "cuptiProfilerHostGetMetricProperties");
  resolve(api.cuptiProfilerHostConfigAddMetrics, "cuptiProfilerHostConfigAddMetrics");
  resolve(api.cuptiProfilerHostGetConfigImageSize, "cuptiProfilerHostGetConfigImageSize");
  resolve(api.cuptiProfilerHostGetConfigImage, "cuptiProfilerHostGetConfigImage");
  resolve(api.cuptiProfilerHostGetNumOfPasses, "cuptiProfilerHostGetNumOfPasses");
  resolve(api.cuptiProfilerHostEvaluateToGpuValues, "cuptiProfilerHostEvaluateToGpuValues");
  resolve(api.cuptiRangeProfilerEnable, "cuptiRangeProfilerEnable");
  resolve(api.cuptiRangeProfilerDisable, "cuptiRangeProfilerDisable");
  resolve(api.cuptiRangeProfilerSetConfig, "cuptiRangeProfilerSetConfig");
  resolve(api.cuptiRangeProfilerStart, "cuptiRangeProfilerStart");
  resolve(api.cuptiRangeProfilerStop, "cuptiRangeProfilerStop");
  resolve(api.cuptiRangeProfilerPushRange, "cuptiRangeProfilerPushRange");
  resolve(api.cuptiRangeProfilerPopRange, "cuptiRangeProfilerPopRange");
  resolve(api.cuptiRangeProfilerDecodeData, "cuptiRangeProfilerDecodeData");
  resolve(api.cuptiRangeProfilerGetCounterDataSize, "cuptiRangeProfilerGetCounterDataSize");
  resolve(api.cuptiRangeProfilerCounterDataImageInitialize, "cuptiRangeProfilerCounterDataImageInitialize");
  resolve(api.cuptiRangeProfilerGetCounterDataInfo, "cuptiRangeProfilerGetCounterDataInfo");
  if (!missing.empty()) {
    return {nullptr,
            cupti.path + " does not export " + missing + " (CUPTI older than CUDA 13.0's range profiler)"};
  }
  api.cuptiGetErrorMessage =
      reinterpret_cast<decltype(api.cuptiGetErrorMessage)>(library.symbol("cuptiGetErrorMessage"));
  api.cuptiProfilerHostGetBaseMetrics = reinterpret_cast<decltype(api.cuptiProfilerHostGetBaseMetrics)>(
      library.symbol("cuptiProfilerHostGetBaseMetrics"));
  api.cuptiProfilerHostGetSubMetrics = reinterpret_cast<decltype(api.cuptiProfilerHostGetSubMetrics)>(
      library.symbol("cuptiProfilerHostGetSubMetrics"));
  return {loaded, ""};
}

}  // namespace

const CuptiProfilerLoad& loadCuptiProfiler() {
  static std::once_flag once;
  static CuptiProfilerLoad* loaded = nullptr;
  std::call_once(once, [] { loaded = new CuptiProfilerLoad(openProfilerLibrary()); });
  return *loaded;
}

}  // namespace kreplay::cuda
