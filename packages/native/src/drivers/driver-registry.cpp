#include "drivers/driver-registry.hpp"

#include "drivers/cuda/cuda-open.hpp"
#include "drivers/cuda/cuda-probe.hpp"
#include "drivers/host/host-driver.hpp"
#include "drivers/hsa/hsa-driver.hpp"
#include "drivers/hsa/hsa-probe.hpp"

namespace kreplay {

namespace {

using Opener = std::shared_ptr<Driver> (*)(const DriverOptions&);

struct DriverEntry {
  const char* name;
  DriverProbe (*probe)();
  Opener open;  // nullptr until this build implements the driver
};

DriverProbe probeHost() {
  return {true, "the host driver is always available", ""};
}

std::shared_ptr<Driver> openHost(const DriverOptions& options) {
  return std::make_shared<HostDriver>(options.agents, options.deviceMemoryBytes, options.threads);
}

// Real GPU drivers plug in here: give their entry an opener.
const DriverEntry kDrivers[] = {
    {"cuda", probeCuda, openCuda},
    {"hsa", probeHsa, hsa::openHsa},
    {"host", probeHost, openHost},
};

const DriverEntry* findDriver(const std::string& name) {
  for (const auto& entry : kDrivers) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

DriverAvailability availabilityOf(const DriverEntry& entry) {
  const DriverProbe probe = entry.probe();
  if (!probe.runtimeFound) return {false, probe.reason, probe.fix};
  if (!entry.open) {
    return {false, probe.reason + ", but this build's " + entry.name + " driver does not run kernels yet",
            "Choose --driver host until a release with the " + std::string(entry.name) + " driver"};
  }
  return {true, probe.reason, ""};
}

}  // namespace

DriverAvailability probeDriver(const std::string& name) {
  const DriverEntry* entry = findDriver(name);
  if (!entry) return {false, "there is no driver named " + name, "Choose host, cuda or hsa"};
  return availabilityOf(*entry);
}

OpenedDriver openDriver(const std::string& choice, const DriverOptions& options) {
  if (choice == "auto") {
    for (const auto& entry : kDrivers) {
      if (availabilityOf(entry).available) return {entry.open(options), entry.name, {true, "", ""}};
    }
  }
  const DriverEntry* entry = findDriver(choice);
  if (!entry)
    return {nullptr, choice, {false, "there is no driver named " + choice, "Choose host, cuda or hsa"}};
  DriverAvailability availability = availabilityOf(*entry);
  if (!availability.available) return {nullptr, entry->name, availability};
  return {entry->open(options), entry->name, availability};
}

}  // namespace kreplay
