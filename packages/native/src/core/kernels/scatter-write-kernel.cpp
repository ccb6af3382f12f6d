#include "core/kernels/builtin-kernels.hpp"
#include "core/page-hash.hpp"
#include "core/parallel-blocks.hpp"
#include "core/types.hpp"

namespace kreplay {

namespace {

constexpr std::uint64_t kScatterMultiplier = 0x5851F42D4C957F2DULL;
constexpr double kTwoTo53 = 9007199254740992.0;

std::uint64_t xorOfWords(std::uint64_t source, std::uint64_t bytes) {
  std::uint64_t digest = 0;
  for (std::uint64_t offset = 0; offset + 8 <= bytes; offset += 8)
    digest ^= loadWord(pointerOf(source + offset));
  return digest;
}

}  // namespace

// Page p is chosen when (mix64(seed ^ mix64(p)) >> 11) < fraction * 2^53; every whole 64-bit word i
// (from the buffer's start) of a chosen page becomes w * K + (digest ^ seed ^ i).
void scatterWriteKernel(ThreadPool& pool, std::uint64_t buffer, std::uint64_t bytes, std::uint64_t pageBytes,
                        double fraction, std::uint64_t seed, std::uint64_t source,
                        std::uint64_t sourceBytes) {
  if (pageBytes == 0) return;
  const std::uint64_t digest = xorOfWords(source, sourceBytes);
  const double threshold = fraction * kTwoTo53;
  const std::uint64_t pages = (bytes + pageBytes - 1) / pageBytes;
  forEachBlock(pool, pages, grainFor(pageBytes), [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t page = begin; page < end; ++page) {
      if (!(static_cast<double>(mix64(seed ^ mix64(page)) >> 11) < threshold)) continue;
      const std::uint64_t pageStart = page * pageBytes;
      const std::uint64_t pageEnd = bytes - pageStart < pageBytes ? bytes : pageStart + pageBytes;
      for (std::uint64_t word = (pageStart + 7) / 8; 8 * word + 8 <= pageEnd; ++word) {
        std::uint8_t* at = pointerOf(buffer + 8 * word);
        storeWord(at, loadWord(at) * kScatterMultiplier + (digest ^ seed ^ word));
      }
    }
  });
}

}  // namespace kreplay
