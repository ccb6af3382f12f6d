// A DeviceMemoryAccess over host memory for the capture session's tests: "device" addresses are
// host addresses, with counters of what the session asked for and switches to make calls fail.
#pragma once

#include <csignal>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture::test {

class FakeDeviceMemory : public DeviceMemoryAccess {
 public:
  void synchronize() override {
    synchronizations += 1;
    if (failSynchronize) throw DeviceAccessError("cuCtxSynchronize failed: CUDA_ERROR_LAUNCH_FAILED (fake)");
  }
  void copyToHost(std::uint64_t address, std::uint8_t* destination, std::uint64_t bytes) override {
    copies += 1;
    copiedBytes += bytes;
    if (killOnCopy != 0 && copies == killOnCopy) std::raise(SIGKILL);
    std::memcpy(destination, reinterpret_cast<const void*>(address), bytes);
  }
  bool streamCapturing(std::uintptr_t stream) override { return stream == capturingStream && stream != 0; }
  std::uintptr_t functionModule(std::uintptr_t function) override {
    if (onFunctionModule) onFunctionModule();  // a driver loading the module lazily, now
    return function == 0 ? 0 : module;
  }
  std::optional<GlobalAddress> moduleGlobal(std::uintptr_t handle, const std::string& name) override {
    const auto found = globals.find(name);
    if (handle != module || found == globals.end()) return std::nullopt;
    return found->second;
  }
  DeviceDescription describeDevice() override { return {"fake device", "sm_90"}; }

  std::uintptr_t module = 0x5000;
  std::function<void()> onFunctionModule;
  std::map<std::string, GlobalAddress> globals;
  std::uintptr_t capturingStream = 0;
  bool failSynchronize = false;
  std::uint64_t killOnCopy = 0;  ///< raise SIGKILL on this copy (counting from 1), 0: never
  std::uint64_t synchronizations = 0;
  std::uint64_t copies = 0;
  std::uint64_t copiedBytes = 0;
};

}  // namespace kreplay::capture::test
