#include <cstring>

#include "core/kernels/builtin-kernels.hpp"
#include "core/parallel-blocks.hpp"
#include "core/types.hpp"

namespace kreplay {

// The 32-bit little-endian pattern repeated from the destination's first byte; a short tail gets
// the pattern's first bytes. Blocks start at multiples of the pattern block, so each starts in phase.
void fillKernel(ThreadPool& pool, std::uint64_t destination, std::uint64_t bytes, std::uint32_t value) {
  constexpr std::uint64_t kPatternBytes = 4096;
  std::uint8_t pattern[kPatternBytes];
  for (std::uint64_t offset = 0; offset < kPatternBytes; offset += 4) storeUint32(pattern + offset, value);
  const std::uint64_t blocks = (bytes + kPatternBytes - 1) / kPatternBytes;
  forEachBlock(pool, blocks, grainFor(kPatternBytes), [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t block = begin; block < end; ++block) {
      const std::uint64_t offset = block * kPatternBytes;
      const std::uint64_t length = bytes - offset < kPatternBytes ? bytes - offset : kPatternBytes;
      std::memcpy(pointerOf(destination + offset), pattern, length);
    }
  });
}

}  // namespace kreplay
