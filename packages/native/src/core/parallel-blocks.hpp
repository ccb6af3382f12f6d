// Splits a count of units (bytes, pages, elements) into blocks run on the thread pool.
#pragma once

#include <cstdint>
#include <functional>

#include "core/thread-pool.hpp"

namespace kreplay {

/** Bytes below which work runs on the calling (queue) thread: waking the pool costs more. */
constexpr std::uint64_t kInlineBytes = 1u << 20;

/**
 * Runs `body(begin, end)` over blocks of [0, total) of about `grain` units each (at least `grain`,
 * more when that would make far more blocks than threads). One block runs on the calling thread.
 */
void forEachBlock(ThreadPool& pool, std::uint64_t total, std::uint64_t grain,
                  const std::function<void(std::uint64_t begin, std::uint64_t end)>& body);

/** How many units of `unitBytes` make one block of about kInlineBytes (at least 1). */
inline std::uint64_t grainFor(std::uint64_t unitBytes) {
  return unitBytes == 0 || unitBytes >= kInlineBytes ? 1 : kInlineBytes / unitBytes;
}

}  // namespace kreplay
