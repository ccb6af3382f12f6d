// What a capture session needs from the device: synchronize, copy device memory to the host, find a
// module's globals, tell whether a stream is being captured into a graph. The CUDA implementation
// (cuda-memory-access.cpp) calls libcuda; the tests use host memory.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace kreplay::capture {

/** A device call failed (the message names the call and its error). */
struct DeviceAccessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** A global's place in device memory. */
struct GlobalAddress {
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
};

/** The device of the current context, for the manifest. */
struct DeviceDescription {
  std::string name;
  std::string architecture;  ///< e.g. `sm_90`
};

class DeviceMemoryAccess {
 public:
  virtual ~DeviceMemoryAccess() = default;
  /** Waits for all work of the current context. Throws DeviceAccessError. */
  virtual void synchronize() = 0;
  /** Copies `bytes` bytes at `address` (device or device-mapped host memory) to `destination`. */
  virtual void copyToHost(std::uint64_t address, std::uint8_t* destination, std::uint64_t bytes) = 0;
  /** True when `stream` (or the legacy stream, which synchronizing would touch) is being captured. */
  virtual bool streamCapturing(std::uintptr_t stream) = 0;
  /** The module a function belongs to (an opaque handle), or 0 when unknown. */
  virtual std::uintptr_t functionModule(std::uintptr_t function) = 0;
  /** A global of a loaded module by name, or nothing when the module has none of that name. */
  virtual std::optional<GlobalAddress> moduleGlobal(std::uintptr_t module, const std::string& name) = 0;
  /** The device of the current context. Throws DeviceAccessError. */
  virtual DeviceDescription describeDevice() = 0;
};

}  // namespace kreplay::capture
