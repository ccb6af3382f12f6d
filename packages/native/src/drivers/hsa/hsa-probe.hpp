// Whether the hsa driver can run here, and if not the most useful reason. The checks run in this
// order, each only if the previous passed, because an earlier failure explains the later ones:
// /dev/kfd (no AMD GPU kernel driver: installing ROCm would not help), the runtime library, its
// entry points, hsa_init, GPU agents, and a code object in this build for one of them. A runtime
// named by KREPLAY_HSA_LIBRARY (a simulator, the tests' fake ROCr) skips the /dev/kfd check: it
// decides itself which agents exist.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "drivers/driver-probe.hpp"

namespace kreplay {

/** What probeHsa looks at; probeHsa uses the real system, the tests fakes. */
struct HsaProbeSteps {
  enum class DeviceNode { Missing, Inaccessible, Present };
  struct RuntimeLookup {
    bool loaded = false;
    std::string path;                  // the library that loaded
    std::vector<std::string> missing;  // entry points it lacks
  };
  struct AgentSurvey {
    std::string initError;                // hsa_init's failure, empty when it succeeded
    std::vector<std::string> processors;  // of the GPU agents, e.g. gfx90a
  };

  std::string customLibrary;  // KREPLAY_HSA_LIBRARY, empty when not set
  std::function<DeviceNode()> deviceNode;
  std::function<RuntimeLookup()> runtime;
  std::function<AgentSurvey()> agents;  // only called once the runtime loaded with every entry point
  std::vector<std::string> supportedProcessors;
};

DriverProbe probeHsaWith(const HsaProbeSteps& steps);

/** Checks /dev/kfd, dlopens libhsa-runtime64.so.1 and, when both are there, lists the GPU agents. */
DriverProbe probeHsa();

}  // namespace kreplay
