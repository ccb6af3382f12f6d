// How the host driver describes its emulated agents.
#pragma once

#include <cstdint>
#include <string>

#include "core/driver.hpp"

namespace kreplay {

AgentDescription describeHostAgent(std::uint32_t agent, std::uint64_t deviceMemoryBytes);

/** e.g. "host 0.1.0 (Linux 6.1.0)". */
std::string hostDriverVersion();

}  // namespace kreplay
