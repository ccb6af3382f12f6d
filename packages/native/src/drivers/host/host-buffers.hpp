// Host buffers: pageable (aligned malloc, zeroed) and pinned (mmap + mlock, best effort).
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace kreplay {

class HostBuffers {
 public:
  HostBuffers() = default;
  ~HostBuffers() { freeAll(); }
  HostBuffers(const HostBuffers&) = delete;
  HostBuffers& operator=(const HostBuffers&) = delete;

  /** The address of a new zeroed buffer, or 0 when the memory is not available. */
  std::uint64_t allocate(std::uint64_t bytes, bool pinned);
  void free(std::uint64_t address);
  void freeAll();

 private:
  struct Buffer {
    std::uint64_t bytes;
    bool pinned;
  };
  static void release(std::uint64_t address, const Buffer& buffer);

  std::mutex mutex_;
  std::unordered_map<std::uint64_t, Buffer> buffers_;
};

}  // namespace kreplay
