// Page hashing on host-addressable memory, split across the thread pool.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/thread-pool.hpp"
#include "core/types.hpp"

namespace kreplay {

/** One page to hash. */
struct PageRef {
  const std::uint8_t* data;
  std::uint64_t bytes;
};

/**
 * Hashes pages 0..count-1 (`pageAt(i)` says where page i is; no page is larger than `maxPageBytes`)
 * into `hashes`. Small pages are grouped per task; a large page is split into parts whose word sums
 * are added afterwards (the sum is order-free mod 2^64, so the result is exact).
 */
void hashPages(ThreadPool& pool, std::uint64_t count, std::uint64_t maxPageBytes,
               const std::function<PageRef(std::uint64_t)>& pageAt, std::uint64_t* hashes);

/** Hashes the pages of `ranges` (numbered per range, in order) and stores one uint64 per page at
 * `destination`. */
void hashRanges(ThreadPool& pool, const std::vector<Range>& ranges, std::uint64_t pageBytes,
                std::uint8_t* destination);

}  // namespace kreplay
