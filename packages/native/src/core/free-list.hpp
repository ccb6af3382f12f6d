// First-fit allocation of offsets inside a fixed capacity, with coalescing of free neighbours.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>

namespace kreplay {

class FreeList {
 public:
  explicit FreeList(std::uint64_t capacity);

  /** The offset of the first free block that holds `bytes` (already rounded by the caller). */
  std::optional<std::uint64_t> allocate(std::uint64_t bytes);
  /** Releases the block at `offset`; returns its size, or 0 when no block starts there. */
  std::uint64_t release(std::uint64_t offset);
  /** The size of the live block at `offset`, or 0. */
  std::uint64_t sizeAt(std::uint64_t offset) const;

  std::uint64_t freeBytes() const { return freeBytes_; }
  std::uint64_t capacity() const { return capacity_; }

 private:
  std::uint64_t capacity_;
  std::uint64_t freeBytes_;
  std::map<std::uint64_t, std::uint64_t> free_;            // offset -> size, never adjacent
  std::unordered_map<std::uint64_t, std::uint64_t> used_;  // offset -> size
};

}  // namespace kreplay
