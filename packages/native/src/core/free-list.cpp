#include "core/free-list.hpp"

namespace kreplay {

FreeList::FreeList(std::uint64_t capacity) : capacity_(capacity), freeBytes_(capacity) {
  if (capacity > 0) free_.emplace(0, capacity);
}

std::optional<std::uint64_t> FreeList::allocate(std::uint64_t bytes) {
  if (bytes == 0 || bytes > freeBytes_) return std::nullopt;
  for (auto block = free_.begin(); block != free_.end(); ++block) {
    if (block->second < bytes) continue;
    const std::uint64_t offset = block->first;
    const std::uint64_t rest = block->second - bytes;
    free_.erase(block);
    if (rest > 0) free_.emplace(offset + bytes, rest);
    used_.emplace(offset, bytes);
    freeBytes_ -= bytes;
    return offset;
  }
  return std::nullopt;
}

std::uint64_t FreeList::release(std::uint64_t offset) {
  auto used = used_.find(offset);
  if (used == used_.end()) return 0;
  std::uint64_t start = offset;
  std::uint64_t size = used->second;
  const std::uint64_t released = size;
  used_.erase(used);
  freeBytes_ += released;
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == start) {
      start = previous->first;
      size += previous->second;
      free_.erase(previous);
    }
  }
  free_.emplace(start, size);
  return released;
}

std::uint64_t FreeList::sizeAt(std::uint64_t offset) const {
  auto used = used_.find(offset);
  return used == used_.end() ? 0 : used->second;
}

}  // namespace kreplay
