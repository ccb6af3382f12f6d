// The kernels of the kreplay AMDGPU code objects (src/kernels-amdgpu) and the parameters the
// driver passes them. The code objects' metadata must match this table: the driver checks it when
// it loads them, and the layout tests check the committed code objects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "drivers/hsa/code-object-metadata.hpp"

namespace kreplay::hsa {

enum class DeviceKernel : int {
  HashPages,
  CopyChangedPages,
  CheckPageList,
  CopyPageList,
  Fill,
  XorDigest,
  ScatterWrite,
  Triad,
  StencilEdges,
  Stencil,
  Accumulate,
  Marker,
};
constexpr int kDeviceKernelCount = 12;

/** Work-items per work-group of every kernel (GROUP_SIZE in kernels-amdgpu/common.h). */
constexpr std::uint32_t kGroupSize = 256;
/** Elements per stencil block (BLOCK_ELEMENTS in kernels-amdgpu/stencil.cl). */
constexpr std::uint64_t kStencilBlockElements = 1024;
/** Pages up to this size are hashed one per work-item (SERIAL_PAGE_BYTES in page-hash.cl). */
constexpr std::uint64_t kSerialPageBytes = 256;

enum class ParameterKind { Pointer, U32, U64, F32, F64 };

struct DeviceKernelSpec {
  DeviceKernel kernel;
  const char* name;  // the kernel's name in the code object; its symbol is name + ".kd"
  std::vector<ParameterKind> parameters;
};

/** Every kernel, in DeviceKernel order. */
const std::vector<DeviceKernelSpec>& deviceKernels();
const DeviceKernelSpec& deviceKernel(DeviceKernel kernel);

/** .value_kind and .size of an explicit argument of this kind. */
const char* valueKindOf(ParameterKind kind);
std::uint64_t sizeOf(ParameterKind kind);

/**
 * What does not match between a code object's metadata and the table (empty when it matches): a
 * missing kernel, a symbol other than name.kd, an argument of another kind or size, hidden arguments,
 * a work-group limit below kGroupSize, private or dynamic stack use.
 */
std::vector<std::string> checkDeviceKernels(const CodeObjectMetadata& metadata);

}  // namespace kreplay::hsa
