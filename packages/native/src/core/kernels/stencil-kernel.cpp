#include <algorithm>
#include <cstring>
#include <vector>

#include "core/kernels/builtin-kernels.hpp"
#include "core/parallel-blocks.hpp"
#include "core/types.hpp"

namespace kreplay {

namespace {

float loadFloat(std::uint64_t base, std::uint64_t index) {
  float value;
  std::memcpy(&value, pointerOf(base + 4 * index), 4);
  return value;
}

}  // namespace

// float32 in place, as if from a copy: x[i] = ((x[i-1] + x[i]) + x[i+1]) / 3 for 0 < i < count-1.
// Blocks run in parallel; the old values just outside each block are saved before any block writes,
// and each block walks left to right keeping the old left neighbour in a register.
void stencilKernel(ThreadPool& pool, std::uint64_t buffer, std::uint64_t count) {
  if (count < 3) return;
  const std::uint64_t inner = count - 2;  // elements 1 .. count-2
  const std::uint64_t grain = grainFor(4);
  const std::uint64_t blocks = (inner + grain - 1) / grain;
  std::vector<float> leftOf(blocks);
  std::vector<float> rightOf(blocks);
  for (std::uint64_t block = 0; block < blocks; ++block) {
    const std::uint64_t first = 1 + block * grain;
    const std::uint64_t last = std::min(first + grain, count - 1) - 1;
    leftOf[block] = loadFloat(buffer, first - 1);
    rightOf[block] = loadFloat(buffer, last + 1);
  }
  pool.parallelFor(static_cast<std::size_t>(blocks), [&](std::size_t block) {
    const std::uint64_t first = 1 + block * grain;
    const std::uint64_t last = std::min(first + grain, count - 1) - 1;
    float previous = leftOf[block];
    float current = loadFloat(buffer, first);
    for (std::uint64_t index = first; index <= last; ++index) {
      const float next = index == last ? rightOf[block] : loadFloat(buffer, index + 1);
      const float sum = previous + current;
      const float result = (sum + next) / 3.0f;
      std::memcpy(pointerOf(buffer + 4 * index), &result, 4);
      previous = current;
      current = next;
    }
  });
}

}  // namespace kreplay
