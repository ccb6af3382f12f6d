#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "core/kernels/builtin-kernels.hpp"
#include "core/page-hash.hpp"
#include "core/parallel-blocks.hpp"
#include "core/types.hpp"

namespace kreplay {

namespace {

std::uint64_t runSeed() {
  static std::atomic<std::uint64_t> counter{0};
  const auto now = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return mix64(now ^ mix64(counter.fetch_add(1) + 1));
}

}  // namespace

// float32 sum of the input into output[0], deliberately in an order that changes from run to run
// (a random rotation of the elements, and partial sums combined in a random order), like a GPU
// reduction with float atomics: the bits are NOT deterministic.
void accumulateKernel(ThreadPool& pool, std::uint64_t input, std::uint64_t count, std::uint64_t output) {
  std::mt19937_64 random(runSeed());
  const std::uint64_t rotation = count == 0 ? 0 : random() % count;
  const std::uint64_t grain =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(grainFor(4), (count + 7) / 8));
  const std::uint64_t blocks = (count + grain - 1) / grain;
  std::vector<float> partial(blocks, 0.0f);
  pool.parallelFor(static_cast<std::size_t>(blocks), [&](std::size_t block) {
    float sum = 0.0f;
    const std::uint64_t end = std::min(count, (block + 1) * grain);
    for (std::uint64_t position = block * grain; position < end; ++position) {
      std::uint64_t index = position + rotation;
      if (index >= count) index -= count;
      float value;
      std::memcpy(&value, pointerOf(input + 4 * index), 4);
      sum += value;
    }
    partial[block] = sum;
  });
  std::vector<std::size_t> order(blocks);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);
  float total = 0.0f;
  for (const auto block : order) total += partial[block];
  std::memcpy(pointerOf(output), &total, 4);
}

}  // namespace kreplay
