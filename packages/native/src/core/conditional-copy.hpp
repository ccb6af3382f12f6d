// The conditional-copy primitives of API.md on host-addressable memory.
#pragma once

#include <cstdint>
#include <vector>

#include "core/thread-pool.hpp"
#include "core/types.hpp"

namespace kreplay {

/** See ConditionalCopyOptions in runtime-types.ts. */
struct ConditionalCopy {
  std::vector<Segment> segments;
  std::uint64_t pageBytes;
  bool hashDestination;
  std::uint64_t storedHashesAddress;
  bool updateStoredHashes;
  std::uint64_t pageListAddress;
  std::uint64_t pageCountAddress;
};

/**
 * A buffer of listed pages in list order (PageListCopyOptions.compact): the page at list position
 * k < pages is at address + k * pageBytes, as its destination (listed pages past `pages` are then
 * not copied) or as its source (they then come from their segment). address 0: none.
 */
struct CompactPages {
  std::uint64_t address = 0;
  std::uint64_t pages = 0;
  bool isDestination = false;
};

/** See PageListCopyOptions in runtime-types.ts. */
struct PageListCopy {
  std::vector<Segment> segments;
  std::uint64_t pageBytes;
  std::uint64_t pageListAddress;
  std::uint64_t pageCountAddress;
  /** 0, or where to store the hash of each copied page (one uint64 per page of the segments). */
  std::uint64_t storedHashesAddress = 0;
  /** Never with storedHashesAddress (the caller's checks see to it). */
  CompactPages compact = {};
};

/**
 * Hashes every page on the hashed side, compares with the stored hash, copies the pages that differ
 * source -> destination, records their indices (ascending) and count, and, when asked, stores the
 * new hash of each copied page (the hash of its bytes after the copy, i.e. of the source page).
 */
void copyChangedPages(ThreadPool& pool, const ConditionalCopy& options);

/**
 * Copies again the pages recorded at pageListAddress / pageCountAddress (the first of them to or
 * from the compact buffer, when there is one) and, when
 * storedHashesAddress is set, stores the hash of each copied page there (nothing else is written).
 * @throws OperationFailure `invalid-page-list` when the count or an index is out of range.
 */
void copyPageList(ThreadPool& pool, const PageListCopy& options);

}  // namespace kreplay
