#include "drivers/hsa/hsa-probe.hpp"

#include <unistd.h>

#include "drivers/hsa/embedded-code-objects.hpp"
#include "drivers/hsa/hsa-system.hpp"

namespace kreplay {

namespace {

constexpr const char* kLibrary = "libhsa-runtime64.so.1";

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  for (const auto& candidate : names) {
    if (candidate == name) return true;
  }
  return false;
}

}  // namespace

DriverProbe probeHsaWith(const HsaProbeSteps& steps) {
  using DeviceNode = HsaProbeSteps::DeviceNode;
  const bool custom = !steps.customLibrary.empty();
  const DeviceNode node = custom ? DeviceNode::Present : steps.deviceNode();
  if (node == DeviceNode::Missing) {
    const bool library = steps.runtime().loaded;
    return {
        false,
        std::string("/dev/kfd does not exist, so no AMD GPU kernel driver (amdgpu with KFD) is loaded") +
            (library ? "" : std::string(", and ") + kLibrary + " (the ROCm runtime) was not found either"),
        "On a machine with an AMD GPU, load the amdgpu kernel module and install ROCm, or choose --driver "
        "host"};
  }
  if (node == DeviceNode::Inaccessible) {
    return {false, "/dev/kfd exists but this user cannot open it for reading and writing",
            "Add the user to the render and video groups and log in again, or choose --driver host"};
  }
  const HsaProbeSteps::RuntimeLookup runtime = steps.runtime();
  if (!runtime.loaded && custom) {
    return {false, steps.customLibrary + " (KREPLAY_HSA_LIBRARY) could not be loaded",
            "Set KREPLAY_HSA_LIBRARY to an HSA runtime library, or unset it"};
  }
  if (!runtime.loaded) {
    return {false,
            std::string(kLibrary) +
                " (the ROCm runtime) was not found in the library path, $ROCM_PATH/lib or /opt/rocm/lib",
            "Install ROCm (its hsa-rocr package) or add its lib directory to LD_LIBRARY_PATH, or choose "
            "--driver host"};
  }
  if (!runtime.missing.empty()) {
    return {false, runtime.path + " lacks " + joined(runtime.missing) + ", which the hsa driver calls",
            "Install ROCm 5 or newer, or choose --driver host"};
  }
  const HsaProbeSteps::AgentSurvey survey = steps.agents();
  if (!survey.initError.empty()) {
    return {false, "the ROCm runtime failed to start: " + survey.initError,
            "Check the GPU with rocminfo, or choose --driver host"};
  }
  if (survey.processors.empty()) {
    return {false, "the ROCm runtime found no GPU agent",
            "Check that this ROCm supports the GPU (rocminfo lists it as an agent), or choose --driver host"};
  }
  std::vector<std::string> usable;
  for (const auto& processor : survey.processors) {
    if (contains(steps.supportedProcessors, processor)) usable.push_back(processor);
  }
  if (usable.empty()) {
    return {false,
            "the GPU agents found (" + joined(survey.processors) +
                ") have no code object in this build (it has " + joined(steps.supportedProcessors) + ")",
            "Add the processor to scripts/build-amdgpu-kernels.mjs and rebuild the addon, or choose --driver "
            "host"};
  }
  return {true, std::string(kLibrary) + " loaded from " + runtime.path + "; GPU agents: " + joined(usable),
          ""};
}

DriverProbe probeHsa() {
  HsaProbeSteps steps;
  steps.customLibrary = hsa::HsaRuntime::customLibrary();
  steps.deviceNode = [] {
    if (access("/dev/kfd", F_OK) != 0) return HsaProbeSteps::DeviceNode::Missing;
    if (access("/dev/kfd", R_OK | W_OK) != 0) return HsaProbeSteps::DeviceNode::Inaccessible;
    return HsaProbeSteps::DeviceNode::Present;
  };
  steps.runtime = [] {
    std::string error;
    const hsa::HsaRuntime* runtime = hsa::HsaRuntime::load(error);
    HsaProbeSteps::RuntimeLookup lookup;
    if (!runtime) return lookup;
    lookup.loaded = true;
    lookup.path = runtime->path();
    lookup.missing = runtime->missing();
    return lookup;
  };
  steps.agents = [] {
    std::string error;
    const hsa::HsaRuntime& runtime = *hsa::HsaRuntime::load(error);
    HsaProbeSteps::AgentSurvey survey;
    const hsa::hsa_status_t status = runtime.api().hsa_init();
    if (status != hsa::HSA_STATUS_SUCCESS) {
      survey.initError = "hsa_init failed with " + runtime.describe(status);
      return survey;
    }
    try {
      survey.processors = hsa::gpuProcessors(runtime);
    } catch (const std::exception& failure) {
      survey.initError = failure.what();
    }
    runtime.api().hsa_shut_down();
    return survey;
  };
  for (const auto& object : hsa::embeddedCodeObjects()) steps.supportedProcessors.push_back(object.processor);
  return probeHsaWith(steps);
}

}  // namespace kreplay
