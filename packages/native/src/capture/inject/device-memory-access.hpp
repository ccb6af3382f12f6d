// What a capture session needs from the device: synchronize, hash pages of device memory on the
// device, copy device memory into pinned host staging, find a module's globals, tell whether a stream
// is being captured into a graph. The CUDA implementation (cuda-memory-access.cpp) calls libcuda and
// runs the built-in hash kernel; the tests use host memory (test/fake-device-memory.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

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

/** A range of device memory whose pages are hashed. */
struct HashSpan {
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
};

/** One copy of device bytes into host memory (pinned staging). */
struct HostCopy {
  std::uint64_t source = 0;
  std::uint8_t* destination = nullptr;
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
  /**
   * Hashes the pages of every span on the device of the current context (API.md's 64-bit page hash,
   * pages of `pageBytes` from each span's start, its last page short) and writes one hash per page, in
   * order, to `hashes`. Only the hashes cross to the host. Throws DeviceAccessError.
   */
  virtual void hashPages(const std::vector<HashSpan>& spans, std::uint64_t pageBytes, std::uint64_t* hashes) = 0;
  /** Makes every copy (destinations in allocateHostStaging memory) and waits for them. */
  virtual void copyToHost(const std::vector<HostCopy>& copies) = 0;
  /** Page-locked host memory for staging. Throws DeviceAccessError. */
  virtual std::uint8_t* allocateHostStaging(std::uint64_t bytes) = 0;
  virtual void freeHostStaging(std::uint8_t* memory) = 0;
  /** The context device memory at `address` belongs to, or 0 when that cannot be told. */
  virtual std::uintptr_t memoryContext(std::uint64_t address) = 0;
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
