// Which memory each built-in kernel reaches through its pointer arguments, and how: for drivers
// that must stage or check that memory before running a kernel (e.g. the cuda driver when an
// argument lies in pageable host memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/kernels/builtin-kernels.hpp"

namespace kreplay {

struct PointerUse {
  std::size_t argument;  // index of the pointer argument
  std::uint64_t bytes;   // how far the kernel reaches from it
  bool read;             // the kernel reads bytes there (false: it only writes them, all of them)
  bool write;
};

/** The pointer arguments of `kernel` with `arguments` (declared order) and what it does with them. */
std::vector<PointerUse> builtinPointerUses(BuiltinKernel kernel, const std::vector<std::uint64_t>& arguments);

}  // namespace kreplay
