// An agent's emulated device memory: one mmap reservation and a first-fit allocator inside it.
#pragma once

#include <cstdint>
#include <mutex>

#include "core/free-list.hpp"

namespace kreplay {

class Arena {
 public:
  static constexpr std::uint64_t kAlignment = 4096;
  /** Freed blocks at least this large are returned to the OS (MADV_DONTNEED), so RSS falls. */
  static constexpr std::uint64_t kReturnToSystemBytes = 64 * 1024;

  /** Reserves `bytes` (rounded up to kAlignment) of address space; throws std::runtime_error. */
  explicit Arena(std::uint64_t bytes);
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  /** The address of a new block of `bytes`, or 0 when no free block is large enough. */
  std::uint64_t allocate(std::uint64_t bytes);
  /** Frees the block at `address` (a no-op for an unknown address). */
  void release(std::uint64_t address);
  std::uint64_t freeBytes() const;
  bool contains(std::uint64_t address, std::uint64_t bytes) const;

 private:
  std::uint8_t* base_;
  std::uint64_t capacity_;
  mutable std::mutex mutex_;
  FreeList blocks_;
};

}  // namespace kreplay
