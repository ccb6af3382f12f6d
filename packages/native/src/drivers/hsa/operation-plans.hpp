// How each queue operation becomes kernel dispatches of the kreplay code objects: the kernels, their
// arguments in order, the number of work-groups, and the tables and scratch words they need, placed in
// memory the host writes and the GPU reads. Plain C++: the driver submits the steps as AQL packets,
// the layout tests run them through an emulation of the kernels on the CPU.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/conditional-copy.hpp"
#include "core/kernels/builtin-kernels.hpp"
#include "core/types.hpp"
#include "drivers/hsa/device-kernels.hpp"

namespace kreplay::hsa {

/** Host-writable memory the GPU reads and writes at the same address, for one operation. */
class OperationMemory {
 public:
  virtual ~OperationMemory() = default;
  /** `bytes` bytes aligned to `alignment`, valid until the operation completes. @throws std::bad_alloc. */
  virtual std::uint8_t* allocate(std::uint64_t bytes, std::uint64_t alignment) = 0;
};

/** Maps an address the user gave (device memory, or a host buffer) to the address the GPU uses. */
using AddressTranslation = std::function<std::uint64_t(std::uint64_t)>;

struct KernelStep {
  DeviceKernel kernel;
  std::vector<std::uint64_t> arguments;  // one per parameter of deviceKernel(kernel), floats as bits
  std::uint32_t groups;                  // work-groups of kGroupSize work-items
};

struct OperationPlan {
  std::vector<KernelStep> steps;  // in order; empty when the operation has nothing to do
  /** A page-list copy's two status words (see pageListFailure), else null. */
  const std::uint64_t* pageListStatus = nullptr;
  std::uint64_t pageCount = 0;
};

/** The most work-groups of one dispatch (grid-stride loops cover the rest). */
constexpr std::uint32_t kMaximumGroups = 1u << 16;

/** ceil(items / itemsPerGroup), at least 1 and at most kMaximumGroups. */
std::uint32_t groupsFor(std::uint64_t items, std::uint64_t itemsPerGroup);

OperationPlan planHashPages(const std::vector<Range>& ranges, std::uint64_t pageBytes,
                            std::uint64_t hashesAddress, OperationMemory& memory,
                            const AddressTranslation& toDevice);
OperationPlan planConditionalCopy(const ConditionalCopy& options, OperationMemory& memory,
                                  const AddressTranslation& toDevice);
OperationPlan planPageListCopy(const PageListCopy& options, OperationMemory& memory,
                               const AddressTranslation& toDevice);
/**
 * `arguments` in the declared order of the built-in kernel (as Queue::enqueueKernel gets them).
 * `random` is a fresh random number per launch: accumulate starts its sum there (mod count), so its
 * bits change from run to run as API.md requires.
 */
OperationPlan planBuiltinKernel(BuiltinKernel kernel, const std::vector<std::uint64_t>& arguments,
                                OperationMemory& memory, const AddressTranslation& toDevice,
                                std::uint64_t random = 0);
/** One empty dispatch, whose completion signal timestamps a point of the queue. */
OperationPlan planMarker();

/**
 * The failure a completed page-list copy reports through its status words, with the host driver's
 * code and messages (`invalid-page-list`), or nothing when the list was valid and copied.
 */
std::optional<OperationFailure> pageListFailure(const std::uint64_t* status, std::uint64_t pageCount);

}  // namespace kreplay::hsa
