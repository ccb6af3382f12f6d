#include <cstdio>
#include <fstream>
#include <string>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-device.hpp"

namespace kreplay::cuda {

namespace {

std::string readLine(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

/** "Gen5" from sysfs's "32.0 GT/s PCIe"; empty when unknown. */
std::string pcieGeneration(const std::string& speed) {
  const double gigatransfers = std::atof(speed.c_str());
  const struct {
    double rate;
    const char* name;
  } generations[] = {{2.5, "Gen1"}, {5, "Gen2"},  {8, "Gen3"},  {16, "Gen4"},
                     {32, "Gen5"},  {64, "Gen6"}, {128, "Gen7"}};
  for (const auto& generation : generations) {
    if (gigatransfers > generation.rate * 0.9 && gigatransfers < generation.rate * 1.1)
      return generation.name;
  }
  return "";
}

/** "PCIe Gen5 x16 (0000:1b:00.0)", from the link's capability in sysfs, or "PCIe 0000:1b:00.0". */
HostLinkDescription describeHostLink(const CudaApi& api, CUdevice device) {
  int domain = 0;
  int bus = 0;
  int slot = 0;
  api.cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, device);
  api.cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, device);
  api.cuDeviceGetAttribute(&slot, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, device);
  char address[32];
  std::snprintf(address, sizeof address, "%04x:%02x:%02x.0", domain, bus, slot);
  const std::string sysfs = std::string("/sys/bus/pci/devices/") + address + "/";
  const std::string generation = pcieGeneration(readLine(sysfs + "max_link_speed"));
  const std::string width = readLine(sysfs + "max_link_width");
  if (generation.empty() || width.empty()) return {std::string("PCIe ") + address, -1};
  return {"PCIe " + generation + " x" + width + " (" + address + ")", -1};
}

}  // namespace

AgentDescription describeCudaDevice(const CudaApi& api, CUdevice device, int computeCapability) {
  AgentDescription description;
  char name[256] = {};
  check(api, api.cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName");
  description.name = name;
  description.architecture = "sm_" + std::to_string(computeCapability);
  std::size_t bytes = 0;
  check(api, api.cuDeviceTotalMem(&bytes, device), "cuDeviceTotalMem");
  description.deviceMemoryBytes = bytes;
  description.hasHostLink = true;
  description.hostLink = describeHostLink(api, device);
  return description;
}

}  // namespace kreplay::cuda
