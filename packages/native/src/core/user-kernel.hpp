// User kernels (loaded by GPU drivers from a module file): how a launch is shaped. Drivers that run
// no user kernels leave Driver::runsUserKernels() false, and the TypeScript layer refuses them first.
#pragma once

#include <cstdint>
#include <vector>

namespace kreplay {

/** Grid and block of a user kernel launch, its dynamic shared memory, and its cluster (0: none). */
struct LaunchShape {
  std::uint32_t grid[3];
  std::uint32_t block[3];
  std::uint32_t sharedBytes;
  std::uint32_t cluster[3] = {0, 0, 0};
};

/**
 * What a user kernel gets: one 64-bit word per parameter in declared order, or (when `buffer` is
 * not empty) the raw parameter buffer, passed whole (CUDA: `extra`, CU_LAUNCH_PARAM_BUFFER_POINTER).
 */
struct UserKernelArguments {
  std::vector<std::uint64_t> words;
  std::vector<std::uint8_t> buffer;
};

}  // namespace kreplay
