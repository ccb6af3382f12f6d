// The kernarg segment of a dispatch, laid out from the code object's metadata: explicit arguments
// at their .offset with their .size, and the hidden arguments a code object v4/v5 kernel may read
// (global offsets, block counts, group sizes, remainders, grid dimensions, queue pointer). Plain C++.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "drivers/hsa/code-object-metadata.hpp"

namespace kreplay::hsa {

/** What the hidden arguments describe. */
struct DispatchShape {
  std::uint16_t dimensions = 1;
  std::array<std::uint32_t, 3> workgroupSize{1, 1, 1};
  std::array<std::uint32_t, 3> gridSize{1, 1, 1};
  std::uint64_t queueAddress = 0;  // the hsa_queue_t, for hidden_queue_ptr
};

struct Kernarguments {
  std::vector<std::uint8_t> bytes;  // kernarg_segment_size bytes, unused ones 0
  std::uint64_t alignment;          // where they must be placed: kernarg_segment_align, at least 16
};

/** A kernel whose arguments the driver cannot supply, or values that do not fit its metadata. */
class KernargError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/**
 * Lays out `values` (one per explicit argument, in order; the low .size bytes of each are stored,
 * so floats travel as their bit patterns) and the hidden arguments.
 * @throws KernargError for a value count that differs from the explicit arguments, an argument
 * whose .size is not 1, 2, 4 or 8 or that is misaligned, overlaps another or lies past the segment,
 * an alignment that is not a power of two, or an argument kind the driver does not provide (images,
 * samplers, pipes, printf/hostcall buffers, the device heap, device enqueue, multigrid sync).
 */
Kernarguments layoutKernarguments(const KernelMetadata& kernel, const std::vector<std::uint64_t>& values,
                                  const DispatchShape& shape);

/** Whether an argument of this .value_kind is one the caller passes (by_value, global_buffer). */
bool isExplicitArgument(const std::string& valueKind);

}  // namespace kreplay::hsa
