// The 64-bit page hash of API.md, identical on every driver.
#pragma once

#include <cstdint>

namespace kreplay {

constexpr std::uint64_t kWordMultiplier = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kLengthMultiplier = 0xD6E8FEB86659FD93ULL;

/** The splitmix64 finalizer. */
inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

/** Σ mix64(w_i + (i + 1) * K) over words [firstWord, endWord) of a page of `bytes` bytes (mod 2^64). */
std::uint64_t pageWordSum(const std::uint8_t* page, std::uint64_t bytes, std::uint64_t firstWord,
                          std::uint64_t endWord);

/** The hash of a page whose word sum (over all its words) is `sum`. */
inline std::uint64_t finishPageHash(std::uint64_t sum, std::uint64_t bytes) {
  return mix64(sum ^ (bytes * kLengthMultiplier));
}

/** The number of 64-bit words of a page, the last one zero-padded. */
inline std::uint64_t pageWordCount(std::uint64_t bytes) {
  return (bytes + 7) / 8;
}

/** The hash of one page. */
std::uint64_t pageHash(const std::uint8_t* page, std::uint64_t bytes);

}  // namespace kreplay
