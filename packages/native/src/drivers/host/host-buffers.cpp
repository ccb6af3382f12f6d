#include "drivers/host/host-buffers.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>

#include "core/types.hpp"

namespace kreplay {

namespace {

constexpr std::uint64_t kAlignment = 4096;

void* allocatePinned(std::uint64_t bytes) {
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  mlock(memory, bytes);  // best effort: without the privilege (RLIMIT_MEMLOCK) the buffer stays pageable
  return memory;
}

void* allocatePageable(std::uint64_t bytes) {
  void* memory = nullptr;
  if (posix_memalign(&memory, kAlignment, bytes) != 0) return nullptr;
  std::memset(memory, 0, bytes);
  return memory;
}

}  // namespace

std::uint64_t HostBuffers::allocate(std::uint64_t bytes, bool pinned) {
  if (bytes == 0) return 0;
  void* memory = pinned ? allocatePinned(bytes) : allocatePageable(bytes);
  if (!memory) return 0;
  const std::uint64_t address = addressOf(memory);
  std::lock_guard<std::mutex> lock(mutex_);
  buffers_.emplace(address, Buffer{bytes, pinned});
  return address;
}

void HostBuffers::release(std::uint64_t address, const Buffer& buffer) {
  if (buffer.pinned) {
    munlock(pointerOf(address), buffer.bytes);
    munmap(pointerOf(address), buffer.bytes);
  } else {
    std::free(pointerOf(address));
  }
}

void HostBuffers::free(std::uint64_t address) {
  Buffer buffer;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = buffers_.find(address);
    if (found == buffers_.end()) return;
    buffer = found->second;
    buffers_.erase(found);
  }
  release(address, buffer);
}

void HostBuffers::freeAll() {
  std::unordered_map<std::uint64_t, Buffer> buffers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    buffers.swap(buffers_);
  }
  for (const auto& [address, buffer] : buffers) release(address, buffer);
}

}  // namespace kreplay
