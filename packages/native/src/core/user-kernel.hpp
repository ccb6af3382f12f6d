// User kernels (loaded by GPU drivers from a module file): how a launch is shaped. Drivers that run
// no user kernels leave Driver::runsUserKernels() false, and the TypeScript layer refuses them first.
#pragma once

#include <cstdint>

namespace kreplay {

/** Grid and block of a user kernel launch, and its dynamic shared memory. */
struct LaunchShape {
  std::uint32_t grid[3];
  std::uint32_t block[3];
  std::uint32_t sharedBytes;
};

}  // namespace kreplay
