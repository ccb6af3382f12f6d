// The kreplay code object of one GPU agent loaded through the HSA executable API (code object
// reader, executable, freeze), with each kernel's descriptor address and segment sizes from the
// loader and its argument layout from the code object's own metadata.
#pragma once

#include <array>
#include <cstdint>

#include "drivers/hsa/code-object-metadata.hpp"
#include "drivers/hsa/device-kernels.hpp"
#include "drivers/hsa/embedded-code-objects.hpp"
#include "drivers/hsa/hsa-runtime.hpp"

namespace kreplay::hsa {

struct LoadedKernel {
  std::uint64_t kernelObject;
  std::uint32_t groupSegmentBytes;
  std::uint32_t privateSegmentBytes;
  const KernelMetadata* metadata;
};

class HsaExecutable {
 public:
  /**
   * Loads `codeObject` for `agent`. @throws HsaError when the runtime refuses it, or CodeObjectError
   * when its metadata does not match the kernel table (device-kernels.hpp) or the loader's sizes.
   */
  HsaExecutable(const HsaRuntime& runtime, hsa_agent_t agent, const EmbeddedCodeObject& codeObject);
  ~HsaExecutable();
  HsaExecutable(const HsaExecutable&) = delete;
  HsaExecutable& operator=(const HsaExecutable&) = delete;

  const LoadedKernel& kernel(DeviceKernel kernel) const { return kernels_[static_cast<std::size_t>(kernel)]; }

 private:
  void release();

  const HsaRuntime& runtime_;
  CodeObjectMetadata metadata_;
  hsa_code_object_reader_t reader_{0};
  hsa_executable_t executable_{0};
  std::array<LoadedKernel, kDeviceKernelCount> kernels_{};
};

}  // namespace kreplay::hsa
