#pragma once

#include <cstdint>
#include <string>

namespace kreplay::cuda {

/** The entry point of instructionEvictionPtx's module. */
inline constexpr const char* kInstructionEvictionKernel = "kreplay_instruction_eviction";

/**
 * PTX (sm_90 and newer) of a kernel with `codeBytes` of straight-line code: dependent multiply-adds,
 * each with its own constant so that none can be folded, whose result is stored to its one
 * parameter only when it equals a value it practically never takes, so that none is dropped.
 * Running it on every multiprocessor pushes whatever code was cached there out.
 */
std::string instructionEvictionPtx(std::uint64_t codeBytes);

}  // namespace kreplay::cuda
