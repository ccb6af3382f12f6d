#include "drivers/cuda/cuda-probe.hpp"

#include "core/dynamic-library.hpp"

namespace kreplay {

DriverProbe probeCuda() {
  const DynamicLibrary library("libcuda.so.1");
  if (!library.loaded()) {
    return {false, "libcuda.so.1 was not found", "Install the NVIDIA driver or choose --driver host"};
  }
  if (!library.symbol("cuInit") || !library.symbol("cuDeviceGetCount")) {
    return {false, "libcuda.so.1 was found but does not export cuInit",
            "Reinstall the NVIDIA driver or choose --driver host"};
  }
  return {true, "libcuda.so.1 was found", ""};
}

}  // namespace kreplay
