#include <cstring>

#include "core/kernels/builtin-kernels.hpp"
#include "core/parallel-blocks.hpp"
#include "core/types.hpp"

namespace kreplay {

// float32 a[i] = b[i] + scalar * c[i], each operation rounded to float32 (no contraction to FMA).
void triadKernel(ThreadPool& pool, std::uint64_t a, std::uint64_t b, std::uint64_t c, float scalar,
                 std::uint64_t count) {
  forEachBlock(pool, count, grainFor(12), [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t index = begin; index < end; ++index) {
      float left;
      float right;
      std::memcpy(&left, pointerOf(b + 4 * index), 4);
      std::memcpy(&right, pointerOf(c + 4 * index), 4);
      const float product = scalar * right;
      const float result = left + product;
      std::memcpy(pointerOf(a + 4 * index), &result, 4);
    }
  });
}

}  // namespace kreplay
