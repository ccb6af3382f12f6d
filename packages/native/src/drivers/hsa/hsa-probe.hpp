// Whether the ROCm HSA runtime can be loaded and a GPU kernel driver is present. The hsa driver
// itself plugs in beside this.
#pragma once

#include "drivers/driver-probe.hpp"

namespace kreplay {

/** Checks /dev/kfd and dlopens libhsa-runtime64.so.1, without initializing HSA. */
DriverProbe probeHsa();

}  // namespace kreplay
