// A DeviceMemoryAccess over host memory for the capture session's tests: "device" addresses are
// host addresses, hashing is core's pageHash, with counters of what the session asked for (what it
// hashed, per range, and what it copied, per copy) and switches to make calls fail.
#pragma once

#include <csignal>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "capture/inject/device-memory-access.hpp"
#include "core/page-hash.hpp"

namespace kreplay::capture::test {

class FakeDeviceMemory : public DeviceMemoryAccess {
 public:
  void synchronize() override {
    synchronizations += 1;
    if (failSynchronize) throw DeviceAccessError("cuCtxSynchronize failed: CUDA_ERROR_LAUNCH_FAILED (fake)");
  }
  void copyToHost(std::uint64_t address, std::uint8_t* destination, std::uint64_t bytes) override {
    copy({address, destination, bytes});
  }
  void copyToHost(const std::vector<HostCopy>& pieces) override {
    for (const HostCopy& piece : pieces) copy(piece);
  }
  void hashPages(const std::vector<HashSpan>& spans, std::uint64_t pageBytes, std::uint64_t* hashes) override {
    hashCalls += 1;
    for (const HashSpan& span : spans) {
      hashedBytes += span.bytes;
      hashedRanges[span.address] += 1;
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(span.address);
      for (std::uint64_t at = 0; at < span.bytes; at += pageBytes)
        *hashes++ = pageHash(bytes + at, std::min(pageBytes, span.bytes - at));
    }
  }
  std::uint8_t* allocateHostStaging(std::uint64_t bytes) override {
    stagingAllocations += 1;
    return new std::uint8_t[bytes];
  }
  void freeHostStaging(std::uint8_t* memory) override { delete[] memory; }
  std::uintptr_t memoryContext(std::uint64_t address) override {
    const auto found = contexts.find(address);
    return found == contexts.end() ? 0 : found->second;
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

  /** What was copied to the host: each copy's address and bytes, in order. */
  struct Copied {
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
  };

  std::uintptr_t module = 0x5000;
  std::function<void()> onFunctionModule;
  std::map<std::string, GlobalAddress> globals;
  std::map<std::uint64_t, std::uintptr_t> contexts;  ///< memoryContext by range base (else 0)
  std::uintptr_t capturingStream = 0;
  bool failSynchronize = false;
  std::uint64_t killOnCopy = 0;  ///< raise SIGKILL on this copy (counting from 1), 0: never
  std::uint64_t synchronizations = 0;
  std::uint64_t copies = 0;
  std::uint64_t copiedBytes = 0;
  std::vector<Copied> copied;
  std::uint64_t hashCalls = 0;
  std::uint64_t hashedBytes = 0;
  std::map<std::uint64_t, std::uint64_t> hashedRanges;  ///< times each range (by base) was hashed on the device
  std::uint64_t stagingAllocations = 0;

 private:
  void copy(const HostCopy& piece) {
    copies += 1;
    copiedBytes += piece.bytes;
    copied.push_back({piece.source, piece.bytes});
    if (killOnCopy != 0 && copies == killOnCopy) std::raise(SIGKILL);
    std::memcpy(piece.destination, reinterpret_cast<const void*>(piece.source), piece.bytes);
  }
};

}  // namespace kreplay::capture::test
