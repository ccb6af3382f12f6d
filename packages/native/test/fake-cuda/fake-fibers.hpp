// The fiber engine behind fake-device-runtime.hpp: a block's threads run as fibers of the calling
// OS thread, switched whenever one waits at a barrier.
#pragma once

#include <cstdint>
#include <functional>

namespace kreplay_fake {

struct Dim3 {
  unsigned x = 1;
  unsigned y = 1;
  unsigned z = 1;
};

/** Runs `body` for every thread of block `block` of a grid, as fibers; returns when all finished. */
void runBlock(const std::function<void()>& body, Dim3 block, Dim3 blockDim, Dim3 gridDim);

const Dim3& threadIndex();
const Dim3& blockIndex();
const Dim3& blockDimension();
const Dim3& gridDimension();
void syncBlock();
std::uint64_t shuffleXor(std::uint64_t value, unsigned offset);
std::uint64_t shuffleFrom(std::uint64_t value, unsigned sourceLane);
void sleepNanoseconds(unsigned nanoseconds);
std::uint64_t timerNanoseconds();

}  // namespace kreplay_fake
