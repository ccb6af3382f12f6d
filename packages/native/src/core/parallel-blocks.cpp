#include "core/parallel-blocks.hpp"

#include <algorithm>

namespace kreplay {

void forEachBlock(ThreadPool& pool, std::uint64_t total, std::uint64_t grain,
                  const std::function<void(std::uint64_t begin, std::uint64_t end)>& body) {
  if (total == 0) return;
  const std::uint64_t maximumBlocks = static_cast<std::uint64_t>(pool.size()) * 16 + 16;
  std::uint64_t block = std::max<std::uint64_t>(grain, 1);
  block = std::max(block, (total + maximumBlocks - 1) / maximumBlocks);
  const std::uint64_t blocks = (total + block - 1) / block;
  pool.parallelFor(static_cast<std::size_t>(blocks), [&](std::size_t index) {
    const std::uint64_t begin = index * block;
    body(begin, std::min(total, begin + block));
  });
}

}  // namespace kreplay
