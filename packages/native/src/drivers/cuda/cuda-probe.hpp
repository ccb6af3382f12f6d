// Whether the CUDA driver can run here: libcuda.so.1 loads, CUDA initializes, and a device is visible.
#pragma once

#include "drivers/driver-probe.hpp"

namespace kreplay {

/** Loads libcuda.so.1 (kept for the process), initializes CUDA and counts its devices. */
DriverProbe probeCuda();

}  // namespace kreplay
