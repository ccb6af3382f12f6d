#include "drivers/host/host-agent-description.hpp"

#include <sys/utsname.h>

#include <fstream>

namespace kreplay {

namespace {

std::string cpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
  }
  return "CPU";
}

std::string machine() {
  utsname name{};
  return uname(&name) == 0 ? name.machine : "unknown";
}

}  // namespace

AgentDescription describeHostAgent(std::uint32_t agent, std::uint64_t deviceMemoryBytes) {
  AgentDescription description;
  description.name = "host agent " + std::to_string(agent) + " (" + cpuModel() + ")";
  description.architecture = machine();
  description.deviceMemoryBytes = deviceMemoryBytes;
  return description;
}

std::string hostDriverVersion() {
  utsname name{};
  const std::string system =
      uname(&name) == 0 ? std::string(name.sysname) + " " + name.release : "unknown system";
  return std::string("host ") + KREPLAY_VERSION + " (" + system + ")";
}

}  // namespace kreplay
