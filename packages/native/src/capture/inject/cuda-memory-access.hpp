// DeviceMemoryAccess over libcuda (cuda-driver-calls.hpp): synchronizing, hashing pages with the
// built-in kernel (cuda-page-hasher.hpp), copies on the library's own stream into pinned staging.
// Used only inside the program.
#pragma once

#include <memory>
#include <string>

#include "capture/inject/cuda-driver-calls.hpp"
#include "capture/inject/cuda-page-hasher.hpp"
#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture {

class CudaMemoryAccess : public DeviceMemoryAccess {
 public:
  /** Throws DeviceAccessError naming what is missing. */
  CudaMemoryAccess();

  void synchronize() override;
  void copyToHost(std::uint64_t address, std::uint8_t* destination, std::uint64_t bytes) override;
  void hashPages(const std::vector<HashSpan>& spans, std::uint64_t pageBytes, std::uint64_t* hashes) override;
  void copyToHost(const std::vector<HostCopy>& copies) override;
  std::uint8_t* allocateHostStaging(std::uint64_t bytes) override;
  void freeHostStaging(std::uint8_t* memory) override;
  std::uintptr_t memoryContext(std::uint64_t address) override;
  bool streamCapturing(std::uintptr_t stream) override;
  std::uintptr_t functionModule(std::uintptr_t function) override;
  std::optional<GlobalAddress> moduleGlobal(std::uintptr_t module, const std::string& name) override;
  DeviceDescription describeDevice() override;

  /** True on the thread loading the library's own module: its module-loaded callback is not the program's. */
  static bool loadingOwnModule() { return CudaPageHasher::loadingOwnModule(); }

 private:
  CudaDriverCalls cuda_;
  CudaPageHasher hasher_;
};

}  // namespace kreplay::capture
