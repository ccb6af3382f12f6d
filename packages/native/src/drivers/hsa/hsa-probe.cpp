#include "drivers/hsa/hsa-probe.hpp"

#include <unistd.h>

#include "core/dynamic-library.hpp"

namespace kreplay {

DriverProbe probeHsa() {
  const DynamicLibrary library("libhsa-runtime64.so.1");
  if (!library.loaded()) {
    return {false, "libhsa-runtime64.so.1 was not found", "Install ROCm or choose --driver host"};
  }
  if (access("/dev/kfd", R_OK | W_OK) != 0) {
    return {false, "libhsa-runtime64.so.1 was found but /dev/kfd is missing or not accessible",
            "Load the amdgpu kernel driver and add the user to the render group, or choose --driver host"};
  }
  if (!library.symbol("hsa_init")) {
    return {false, "libhsa-runtime64.so.1 was found but does not export hsa_init",
            "Reinstall ROCm or choose --driver host"};
  }
  return {true, "libhsa-runtime64.so.1 and /dev/kfd were found", ""};
}

}  // namespace kreplay
