// Every driver by name: its availability probe and how to open it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/driver.hpp"
#include "drivers/driver-probe.hpp"

namespace kreplay {

struct DriverOptions {
  std::uint32_t agents;
  std::uint64_t deviceMemoryBytes;
  std::uint32_t threads;
};

/** Whether a driver can be opened in this process, and if not why. */
struct DriverAvailability {
  bool available = false;
  std::string reason;
  std::string fix;
};

/** Probes `name` (host, cuda or hsa). */
DriverAvailability probeDriver(const std::string& name);

/** The result of opening: a driver, or the name and availability of the driver that was not available. */
struct OpenedDriver {
  std::shared_ptr<Driver> driver;
  std::string driverName;
  DriverAvailability availability;
};

/**
 * Opens `choice` (host, cuda, hsa, or auto = cuda, else hsa, else host). Never throws for an
 * unavailable driver (see OpenedDriver); throws std::exception when an available one fails to open.
 */
OpenedDriver openDriver(const std::string& choice, const DriverOptions& options);

}  // namespace kreplay
