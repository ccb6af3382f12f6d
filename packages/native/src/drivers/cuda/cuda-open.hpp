// The driver registry's opener of the cuda driver.
#pragma once

#include <memory>

#include "drivers/driver-registry.hpp"

namespace kreplay {

/** @throws std::exception when CUDA is available but the driver cannot open (e.g. a device too old). */
std::shared_ptr<Driver> openCuda(const DriverOptions& options);

}  // namespace kreplay
