// The order of the hsa driver's availability checks, on a fake system, and the real probe here.
#include "drivers/hsa/hsa-probe.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay;
using DeviceNode = HsaProbeSteps::DeviceNode;

namespace {

struct FakeSystem {
  DeviceNode node = DeviceNode::Present;
  HsaProbeSteps::RuntimeLookup runtime{true, "/opt/rocm/lib/libhsa-runtime64.so.1", {}};
  HsaProbeSteps::AgentSurvey survey{"", {"gfx90a"}};
  int surveyed = 0;
  std::string custom;

  DriverProbe probe() {
    HsaProbeSteps steps;
    steps.customLibrary = custom;
    steps.deviceNode = [this] { return node; };
    steps.runtime = [this] { return runtime; };
    steps.agents = [this] {
      surveyed += 1;
      return survey;
    };
    steps.supportedProcessors = {"gfx90a", "gfx942", "gfx1100"};
    return probeHsaWith(steps);
  }
};

}  // namespace

TEST("probe: a missing /dev/kfd comes first, and says whether the runtime is missing too") {
  FakeSystem system;
  system.node = DeviceNode::Missing;
  system.runtime.loaded = false;
  DriverProbe probe = system.probe();
  CHECK(!probe.runtimeFound);
  CHECK_EQ(probe.reason,
           "/dev/kfd does not exist, so no AMD GPU kernel driver (amdgpu with KFD) is loaded, and "
           "libhsa-runtime64.so.1 (the ROCm runtime) was not found either");
  CHECK(probe.fix.find("load the amdgpu kernel module and install ROCm") != std::string::npos);
  system.runtime.loaded = true;
  probe = system.probe();
  CHECK_EQ(probe.reason, "/dev/kfd does not exist, so no AMD GPU kernel driver (amdgpu with KFD) is loaded");
  CHECK_EQ(system.surveyed, 0);  // hsa_init is never tried without /dev/kfd
}

TEST("probe: then permissions on /dev/kfd, then the runtime library and its entry points") {
  FakeSystem system;
  system.node = DeviceNode::Inaccessible;
  CHECK(system.probe().reason.find("cannot open it") != std::string::npos);
  CHECK(system.probe().fix.find("render and video groups") != std::string::npos);
  system.node = DeviceNode::Present;
  system.runtime.loaded = false;
  CHECK(system.probe().reason.find("libhsa-runtime64.so.1 (the ROCm runtime) was not found") == 0);
  system.runtime.loaded = true;
  system.runtime.missing = {"hsa_amd_memory_async_copy", "hsa_amd_memory_lock"};
  CHECK_EQ(system.probe().reason,
           "/opt/rocm/lib/libhsa-runtime64.so.1 lacks hsa_amd_memory_async_copy, hsa_amd_memory_lock, which "
           "the hsa "
           "driver calls");
  CHECK_EQ(system.surveyed, 0);
}

TEST("probe: then hsa_init, GPU agents, and a code object for one of them") {
  FakeSystem system;
  system.survey.initError = "hsa_init failed with HSA_STATUS_ERROR_OUT_OF_RESOURCES";
  CHECK_EQ(system.probe().reason,
           "the ROCm runtime failed to start: hsa_init failed with HSA_STATUS_ERROR_OUT_OF_RESOURCES");
  system.survey = {"", {}};
  CHECK_EQ(system.probe().reason, "the ROCm runtime found no GPU agent");
  system.survey = {"", {"gfx1030", "gfx906"}};
  DriverProbe probe = system.probe();
  CHECK(!probe.runtimeFound);
  CHECK_EQ(probe.reason,
           "the GPU agents found (gfx1030, gfx906) have no code object in this build (it has gfx90a, gfx942, "
           "gfx1100)");
  system.survey = {"", {"gfx1030", "gfx942"}};
  probe = system.probe();
  CHECK(probe.runtimeFound);
  CHECK_EQ(probe.reason,
           "libhsa-runtime64.so.1 loaded from /opt/rocm/lib/libhsa-runtime64.so.1; GPU agents: gfx942");
}

TEST("probe: a runtime named by KREPLAY_HSA_LIBRARY needs no /dev/kfd, and a missing one is named") {
  FakeSystem system;
  system.node = DeviceNode::Missing;
  system.custom = "/tmp/libfake-hsa.so";
  CHECK(system.probe().runtimeFound);
  system.runtime.loaded = false;
  CHECK_EQ(system.probe().reason, "/tmp/libfake-hsa.so (KREPLAY_HSA_LIBRARY) could not be loaded");
  CHECK_EQ(system.probe().fix, "Set KREPLAY_HSA_LIBRARY to an HSA runtime library, or unset it");
}

TEST("probe: on this machine the hsa driver says why it is unavailable, naming /dev/kfd or the runtime") {
  const DriverProbe probe = probeHsa();
  if (probe.runtimeFound) throw kreplay::hsa::test::Skip("this machine has a usable HSA runtime and GPU");
  const bool named = probe.reason.find("/dev/kfd") != std::string::npos ||
                     probe.reason.find("libhsa-runtime64.so.1") != std::string::npos ||
                     probe.reason.find("GPU agent") != std::string::npos;
  CHECK(named);
  CHECK(!probe.fix.empty());
  CHECK(probe.reason.back() != '.');  // the binding adds the periods
}
