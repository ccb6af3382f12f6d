#include "drivers/cuda/cuda-probe.hpp"

#include <exception>

#include "core/address-reservations.hpp"
#include "drivers/cuda/cuda-api.hpp"

namespace kreplay {

DriverProbe probeCuda() {
  std::shared_ptr<const cuda::CudaLibrary> library;
  try {
    library = cuda::loadCudaLibrary();
  } catch (const std::exception& error) {
    const std::string what = error.what();
    if (what.rfind("libcuda.so.1 was not found", 0) == 0) {
      return {false, "libcuda.so.1 was not found", "Install the NVIDIA driver or choose --driver host"};
    }
    if (what.find("was not found") != std::string::npos) {
      return {false, what.substr(0, what.find(": ")),
              "Set KREPLAY_CUDA_LIBRARY to an existing libcuda.so.1, or unset it"};
    }
    return {false, std::string("libcuda.so.1 was found but is not usable: ") + error.what(),
            "Update the NVIDIA driver or choose --driver host"};
  }
  const cuda::CudaApi& api = library->api;
  AddressReservations::process().releaseForDevice();  // before CUDA starts (cuda-driver.cpp says why)
  const cuda::CUresult initialized = api.cuInit(0);
  if (initialized != cuda::CUDA_SUCCESS) {
    return {false,
            "libcuda.so.1 was found but cuInit failed with " + api.errorName(initialized) + " (" +
                api.errorText(initialized) + ")",
            "Check the GPU and its driver with nvidia-smi, or choose --driver host"};
  }
  int count = 0;
  if (api.cuDeviceGetCount(&count) != cuda::CUDA_SUCCESS || count == 0) {
    return {false, "libcuda.so.1 was found but no CUDA device is visible",
            "Check CUDA_VISIBLE_DEVICES and nvidia-smi, or choose --driver host"};
  }
  return {true,
          "libcuda.so.1 was found with " + std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s"),
          ""};
}

}  // namespace kreplay
