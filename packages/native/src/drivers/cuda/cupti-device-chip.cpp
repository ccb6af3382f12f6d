#include "drivers/cuda/cupti-device-chip.hpp"

namespace kreplay::cuda {

void initializeCuptiProfiler(const CuptiProfilerApi& api) {
  auto initialize = cuptiParams<CuptiProfilerInitializeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiProfilerInitializeParams, pPriv));
  api.check(api.cuptiProfilerInitialize(&initialize), "cuptiProfilerInitialize");
}

std::string cuptiDeviceChipName(const CuptiProfilerLibrary& library, const CudaDevice& device) {
  const CuptiProfilerApi& api = library.api;
  initializeCuptiProfiler(api);
  auto chip = cuptiParams<CuptiDeviceGetChipNameParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiDeviceGetChipNameParams, pChipName));
  chip.deviceIndex = static_cast<std::size_t>(device.context()->ordinal());
  api.check(api.cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  return chip.pChipName ? chip.pChipName : "";
}

}  // namespace kreplay::cuda
