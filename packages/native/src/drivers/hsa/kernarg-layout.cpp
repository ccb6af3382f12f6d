#include "drivers/hsa/kernarg-layout.hpp"

#include <algorithm>

namespace kreplay::hsa {

namespace {

bool isHidden(const std::string& valueKind) {
  return valueKind.rfind("hidden_", 0) == 0;
}

int axisOf(const std::string& valueKind) {
  const char last = valueKind.back();
  return last == 'x' ? 0 : last == 'y' ? 1 : 2;
}

/** The value of a hidden argument; throws for the kinds the driver cannot provide. */
std::uint64_t hiddenValue(const KernelMetadata& kernel, const KernelArgumentMetadata& argument,
                          const DispatchShape& shape) {
  const std::string& kind = argument.valueKind;
  if (kind == "hidden_none" || kind == "hidden_dynamic_lds_size" ||
      kind.rfind("hidden_global_offset_", 0) == 0)
    return 0;
  const auto prefixed = [&](const char* prefix) {
    return kind.rfind(prefix, 0) == 0 && kind.size() == std::string(prefix).size() + 1;
  };
  if (prefixed("hidden_block_count_")) {
    const int axis = axisOf(kind);
    return shape.gridSize[axis] / shape.workgroupSize[axis];
  }
  if (prefixed("hidden_group_size_")) return shape.workgroupSize[axisOf(kind)];
  if (prefixed("hidden_remainder_")) {
    const int axis = axisOf(kind);
    return shape.gridSize[axis] % shape.workgroupSize[axis];
  }
  if (kind == "hidden_grid_dims") return shape.dimensions;
  if (kind == "hidden_queue_ptr") return shape.queueAddress;
  throw KernargError("kernel " + kernel.name + " needs the hidden argument " + kind +
                     ", which the hsa driver does not provide");
}

void store(std::vector<std::uint8_t>& bytes, std::uint64_t offset, std::uint64_t size, std::uint64_t value) {
  for (std::uint64_t byte = 0; byte < size; ++byte)
    bytes[offset + byte] = static_cast<std::uint8_t>(value >> (8 * byte));
}

}  // namespace

bool isExplicitArgument(const std::string& valueKind) {
  return valueKind == "by_value" || valueKind == "global_buffer";
}

Kernarguments layoutKernarguments(const KernelMetadata& kernel, const std::vector<std::uint64_t>& values,
                                  const DispatchShape& shape) {
  const std::uint64_t align = kernel.kernargSegmentAlign;
  if (align == 0 || (align & (align - 1)) != 0)
    throw KernargError("kernel " + kernel.name + " has a kernarg alignment that is not a power of two");
  Kernarguments result{std::vector<std::uint8_t>(kernel.kernargSegmentSize, 0),
                       std::max<std::uint64_t>(align, 16)};
  std::vector<std::pair<std::uint64_t, std::uint64_t>> used;  // [offset, end) of every argument
  std::size_t next = 0;
  for (const auto& argument : kernel.arguments) {
    const std::string where =
        "argument " + std::to_string(&argument - kernel.arguments.data()) + " of kernel " + kernel.name;
    const std::uint64_t size = argument.size;
    if (size != 1 && size != 2 && size != 4 && size != 8)
      throw KernargError(where + " has " + std::to_string(size) + " bytes; only 1, 2, 4 and 8 are supported");
    if (argument.offset % size != 0) throw KernargError(where + " is not aligned to its size");
    if (argument.offset > kernel.kernargSegmentSize || size > kernel.kernargSegmentSize - argument.offset)
      throw KernargError(where + " lies past the kernarg segment");
    for (const auto& [start, end] : used) {
      if (argument.offset < end && start < argument.offset + size)
        throw KernargError(where + " overlaps another argument");
    }
    used.emplace_back(argument.offset, argument.offset + size);
    if (isHidden(argument.valueKind)) {
      store(result.bytes, argument.offset, size, hiddenValue(kernel, argument, shape));
      continue;
    }
    if (!isExplicitArgument(argument.valueKind))
      throw KernargError(where + " is of kind " + argument.valueKind +
                         ", which the hsa driver does not pass");
    if (next >= values.size()) break;  // reported below
    store(result.bytes, argument.offset, size, values[next++]);
  }
  std::size_t explicitCount = 0;
  for (const auto& argument : kernel.arguments) explicitCount += isHidden(argument.valueKind) ? 0 : 1;
  if (values.size() != explicitCount)
    throw KernargError("kernel " + kernel.name + " takes " + std::to_string(explicitCount) +
                       " arguments, not " + std::to_string(values.size()));
  return result;
}

}  // namespace kreplay::hsa
