// Whether the CUDA driver library can be loaded. The cuda driver itself plugs in beside this.
#pragma once

#include "drivers/driver-probe.hpp"

namespace kreplay {

/** dlopens libcuda.so.1 and checks its entry point, without initializing CUDA. */
DriverProbe probeCuda();

}  // namespace kreplay
