#include "core/page-hash.hpp"

#include <cstring>

#include "core/types.hpp"

namespace kreplay {

std::uint64_t pageWordSum(const std::uint8_t* page, std::uint64_t bytes, std::uint64_t firstWord,
                          std::uint64_t endWord) {
  const std::uint64_t wholeWords = bytes / 8;
  const std::uint64_t wholeEnd = endWord < wholeWords ? endWord : wholeWords;
  std::uint64_t sum0 = 0;
  std::uint64_t sum1 = 0;
  std::uint64_t i = firstWord;
  // Two accumulators let the multiplications of neighbouring words overlap.
  for (; i + 1 < wholeEnd; i += 2) {
    sum0 += mix64(loadWord(page + 8 * i) + (i + 1) * kWordMultiplier);
    sum1 += mix64(loadWord(page + 8 * i + 8) + (i + 2) * kWordMultiplier);
  }
  for (; i < wholeEnd; ++i) sum0 += mix64(loadWord(page + 8 * i) + (i + 1) * kWordMultiplier);
  if (i < endWord && i == wholeWords) {
    std::uint8_t padded[8] = {};
    std::memcpy(padded, page + 8 * i, bytes - 8 * i);
    sum0 += mix64(loadWord(padded) + (i + 1) * kWordMultiplier);
  }
  return sum0 + sum1;
}

std::uint64_t pageHash(const std::uint8_t* page, std::uint64_t bytes) {
  return finishPageHash(pageWordSum(page, bytes, 0, pageWordCount(bytes)), bytes);
}

}  // namespace kreplay
