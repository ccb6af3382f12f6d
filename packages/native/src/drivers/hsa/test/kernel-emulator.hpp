// Runs the kreplay AMDGPU kernels on the CPU, so the tests can check them against the host driver:
// the OpenCL C sources of src/kernels-amdgpu are compiled as C++ (emulated-kernels.cpp) and each
// dispatch runs like on a GPU: work-groups one after another, each as GROUP_SIZE work-items (fibers)
// that meet at the kernels' barriers and share the work-group arrays, reading the grid size from an
// encoded AQL packet and their arguments from kernarg bytes laid out by the driver's own code from
// the committed code object's metadata. What it cannot check: the AMDGPU code generation itself, and
// schedules other than one work-group at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "drivers/hsa/code-object-metadata.hpp"
#include "drivers/hsa/device-kernels.hpp"
#include "drivers/hsa/operation-plans.hpp"

namespace kreplay::hsa::test {

/** Runs one dispatch of `groups` work-groups. */
void emulateDispatch(DeviceKernel kernel, const KernelMetadata& metadata,
                     const std::vector<std::uint8_t>& kernargs, std::uint32_t groups);

/**
 * Runs a plan's steps in order, with kernargs from `codeObject`'s metadata as the driver lays them
 * out. `groupLimit` (when non-zero) caps each dispatch's work-groups, to exercise the kernels'
 * grid-stride loops.
 */
void emulatePlan(const OperationPlan& plan, const CodeObjectMetadata& codeObject,
                 std::uint32_t groupLimit = 0);

/** Calls the emulated kernel on the calling work-item (defined in emulated-kernels.cpp). */
void callEmulatedKernel(DeviceKernel kernel, const KernelMetadata& metadata, const std::uint8_t* kernargs);

namespace emulation {

std::uint32_t localId();
std::uint32_t groupId();
const void* dispatchPacket();
/** Waits until every work-item of the work-group arrived (s_barrier). */
void barrier();

template <class To, class From>
To bitCast(From value) {
  static_assert(sizeof(To) == sizeof(From), "as_type between types of one size");
  To result;
  std::memcpy(&result, &value, sizeof result);
  return result;
}

}  // namespace emulation

}  // namespace kreplay::hsa::test
