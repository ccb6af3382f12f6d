#include "drivers/cuda/cupti-device-config.hpp"

#include <utility>

namespace kreplay::cuda {

namespace {

std::string supportProblem(const CuptiDeviceSupportedParams& supported) {
  const std::pair<int, const char*> parts[] = {
      {supported.architecture, "its architecture (compute capability 7.0 or newer is needed)"},
      {supported.sli, "SLI"},
      {supported.vGpu, "vGPU (profiling is disabled or unsupported there)"},
      {supported.confidentialCompute, "confidential computing"},
      {supported.cmp, "a CMP device"},
      {supported.wsl, "WSL"}};
  for (const auto& [level, what] : parts) {
    if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return what;
  }
  return "an unknown reason";
}

void initializeProfiler(const CuptiProfilerApi& api) {
  auto initialize = cuptiParams<CuptiProfilerInitializeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiProfilerInitializeParams, pPriv));
  api.check(api.cuptiProfilerInitialize(&initialize), "cuptiProfilerInitialize");
}

}  // namespace

std::string cuptiChipName(const CuptiProfilerLibrary& library, const CudaContext& context) {
  const CuptiProfilerApi& api = library.api;
  initializeProfiler(api);
  auto chip = cuptiParams<CuptiDeviceGetChipNameParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiDeviceGetChipNameParams, pChipName));
  chip.deviceIndex = static_cast<std::size_t>(context.ordinal());
  api.check(api.cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  return chip.pChipName ? chip.pChipName : "";
}

std::unique_ptr<CuptiMetricConfig> cuptiDeviceConfig(std::shared_ptr<const CuptiProfilerLibrary> library,
                                                     const CudaContext& context,
                                                     const std::vector<std::string>& metrics) {
  const CuptiProfilerApi& api = library->api;
  initializeProfiler(api);
  auto supported =
      cuptiParams<CuptiDeviceSupportedParams>(KREPLAY_CUPTI_STRUCT_SIZE(CuptiDeviceSupportedParams, api));
  supported.cuDevice = context.device();
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  api.check(api.cuptiProfilerDeviceSupported(&supported), "cuptiProfilerDeviceSupported");
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    throw OperationFailure("CUPTI_ERROR_NOT_SUPPORTED",
                           "CUPTI cannot profile this device: " + supportProblem(supported));
  }
  const std::string chip = cuptiChipName(*library, context);
  auto availability = cuptiParams<CuptiGetCounterAvailabilityParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiGetCounterAvailabilityParams, pCounterAvailabilityImage));
  availability.ctx = context.handle();
  api.check(api.cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
  std::vector<std::uint8_t> image(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = image.data();
  api.check(api.cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
  return std::make_unique<CuptiMetricConfig>(std::move(library), chip, std::move(image), metrics);
}

}  // namespace kreplay::cuda
