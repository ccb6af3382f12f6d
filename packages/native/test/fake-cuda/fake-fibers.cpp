#include "fake-fibers.hpp"

#include <ucontext.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace kreplay_fake {

namespace {

constexpr std::size_t kStackBytes = 64 * 1024;

struct Fiber {
  Dim3 index;
  ucontext_t context;
  bool done = false;
};

struct Block {
  const std::function<void()>* body = nullptr;
  Dim3 index;
  Dim3 blockDim;
  Dim3 gridDim;
  std::vector<Fiber> fibers;
  unsigned current = 0;
  ucontext_t scheduler;
  unsigned arrived = 0;
  unsigned generation = 0;
  std::vector<unsigned> warpArrived;
  std::vector<unsigned> warpGeneration;
  std::vector<std::array<std::uint64_t, 32>> warpSlots;
};

thread_local Block* running = nullptr;
thread_local std::vector<std::unique_ptr<char[]>> stacks;

void yieldFiber() {
  swapcontext(&running->fibers[running->current].context, &running->scheduler);
}

void trampoline() {
  (*running->body)();
  running->fibers[running->current].done = true;
}

void waitWarp(unsigned warp, unsigned members) {
  const unsigned generation = running->warpGeneration[warp];
  if (++running->warpArrived[warp] == members) {
    running->warpArrived[warp] = 0;
    running->warpGeneration[warp] += 1;
    return;
  }
  while (running->warpGeneration[warp] == generation) yieldFiber();
}

}  // namespace

void runBlock(const std::function<void()>& body, Dim3 index, Dim3 blockDim, Dim3 gridDim) {
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  Block block;
  block.body = &body;
  block.index = index;
  block.blockDim = blockDim;
  block.gridDim = gridDim;
  block.fibers.resize(threads);
  const unsigned warps = (threads + 31) / 32;
  block.warpArrived.assign(warps, 0);
  block.warpGeneration.assign(warps, 0);
  block.warpSlots.resize(warps);
  while (stacks.size() < threads) stacks.push_back(std::make_unique<char[]>(kStackBytes));
  Block* outer = running;
  running = &block;
  for (unsigned thread = 0; thread < threads; ++thread) {
    Fiber& fiber = block.fibers[thread];
    fiber.index = {thread % blockDim.x, thread / blockDim.x % blockDim.y, thread / (blockDim.x * blockDim.y)};
    getcontext(&fiber.context);
    fiber.context.uc_stack.ss_sp = stacks[thread].get();
    fiber.context.uc_stack.ss_size = kStackBytes;
    fiber.context.uc_link = &block.scheduler;
    makecontext(&fiber.context, trampoline, 0);
  }
  for (unsigned finished = 0; finished < threads;) {
    finished = 0;
    for (unsigned thread = 0; thread < threads; ++thread) {
      if (block.fibers[thread].done) {
        finished += 1;
        continue;
      }
      block.current = thread;
      swapcontext(&block.scheduler, &block.fibers[thread].context);
    }
  }
  running = outer;
}

const Dim3& threadIndex() {
  return running->fibers[running->current].index;
}
const Dim3& blockIndex() {
  return running->index;
}
const Dim3& blockDimension() {
  return running->blockDim;
}
const Dim3& gridDimension() {
  return running->gridDim;
}

void syncBlock() {
  const unsigned generation = running->generation;
  if (++running->arrived == running->fibers.size()) {
    running->arrived = 0;
    running->generation += 1;
    return;
  }
  while (running->generation == generation) yieldFiber();
}

namespace {

/** Every thread of the warp publishes `value`, then takes the one of lane `source(lane)`. */
template <typename Source>
std::uint64_t exchange(std::uint64_t value, Source source) {
  const unsigned thread = running->current;
  const unsigned warp = thread / 32;
  const unsigned lane = thread % 32;
  const unsigned members = std::min<unsigned>(32, static_cast<unsigned>(running->fibers.size()) - warp * 32);
  running->warpSlots[warp][lane] = value;
  waitWarp(warp, members);
  const std::uint64_t result = running->warpSlots[warp][source(lane) % members];
  waitWarp(warp, members);
  return result;
}

}  // namespace

std::uint64_t shuffleXor(std::uint64_t value, unsigned offset) {
  return exchange(value, [offset](unsigned lane) { return lane ^ offset; });
}

std::uint64_t shuffleFrom(std::uint64_t value, unsigned sourceLane) {
  return exchange(value, [sourceLane](unsigned) { return sourceLane; });
}

void sleepNanoseconds(unsigned nanoseconds) {
  std::this_thread::sleep_for(std::chrono::nanoseconds(nanoseconds));
}

std::uint64_t timerNanoseconds() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

}  // namespace kreplay_fake
