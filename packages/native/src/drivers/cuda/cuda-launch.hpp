// Launching the built-in kernels: a grid sized to the work (at most a few waves of blocks, which
// then walk the rest), and the parameters passed by address as cuLaunchKernel wants them.
#pragma once

#include <algorithm>
#include <cstdint>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-device.hpp"
#include "kernels-cuda/kernel-abi.h"

namespace kreplay::cuda {

/** Blocks for `items` taken `perBlock` at a time: at least 1, at most 8 per multiprocessor. */
inline unsigned gridFor(const CudaDevice& device, std::uint64_t items, std::uint64_t perBlock,
                        std::uint64_t blocksPerMultiprocessor = 8) {
  const std::uint64_t wanted = (items + perBlock - 1) / perBlock;
  const std::uint64_t most = static_cast<std::uint64_t>(device.multiprocessors()) * blocksPerMultiprocessor;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(wanted, most)));
}

/**
 * Launches `function` on `blocks` blocks of `threads` threads. Each argument must have exactly the
 * type (size) of the kernel's parameter: uint64_t for pointers and 64-bit values, uint32_t, float, double.
 * @throws OperationFailure when the launch is refused.
 */
template <typename... Arguments>
void launchKernel(const CudaDevice& device, CUfunction function, unsigned blocks, unsigned threads,
                  CUstream stream, Arguments... arguments) {
  void* parameters[] = {static_cast<void*>(&arguments)..., nullptr};
  check(device.api(),
        device.api().cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, stream, parameters, nullptr),
        "cuLaunchKernel");
}

}  // namespace kreplay::cuda
