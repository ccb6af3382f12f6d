// Device memory of the fake libcuda (fake-device-memory.cpp): host memory counted against a 1 GiB
// device, for the calls of other files that allocate it (graph memory nodes, stream capture).
#pragma once

#include <cstddef>

#include "fake-cuda-results.hpp"

namespace kreplay_fake {

constexpr std::size_t kDeviceBytes = 1ull << 30;

CUresult allocateDeviceMemory(CUdeviceptr* pointer, std::size_t bytes);
/** Frees memory allocateDeviceMemory made, graph allocations included. */
CUresult freeDeviceMemory(CUdeviceptr pointer);

}  // namespace kreplay_fake
