#include "drivers/hsa/staging-memory.hpp"

#include <new>

namespace kreplay::hsa {

namespace {

constexpr std::uint64_t kMinimumChunk = 64 * 1024;

std::uint64_t chunkSizeFor(std::uint64_t bytes) {
  std::uint64_t size = kMinimumChunk;
  while (size < bytes) size *= 2;
  return size;
}

}  // namespace

ChunkCache::~ChunkCache() {
  for (const auto& [bytes, chunk] : idle_) source_.release(chunk);
}

std::pair<std::uint8_t*, std::uint64_t> ChunkCache::take(std::uint64_t bytes) {
  const std::uint64_t size = chunkSizeFor(bytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = idle_.find(size);
    if (found != idle_.end()) {
      std::uint8_t* chunk = found->second;
      idle_.erase(found);
      return {chunk, size};
    }
  }
  std::uint8_t* chunk = source_.allocate(size);
  if (!chunk) throw std::bad_alloc();
  return {chunk, size};
}

void ChunkCache::give(std::uint8_t* chunk, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_.emplace(bytes, chunk);
}

StagingMemory::~StagingMemory() {
  for (const auto& [chunk, bytes] : chunks_) cache_->give(chunk, bytes);
}

std::uint8_t* StagingMemory::allocate(std::uint64_t bytes, std::uint64_t alignment) {
  if (!chunks_.empty()) {
    const std::uint64_t start = (used_ + alignment - 1) / alignment * alignment;
    if (start + bytes <= chunks_.back().second) {
      used_ = start + bytes;
      return chunks_.back().first + start;
    }
  }
  chunks_.push_back(cache_->take(bytes + alignment));
  const std::uint64_t base = addressOf(chunks_.back().first);
  const std::uint64_t start = (base + alignment - 1) / alignment * alignment - base;
  used_ = start + bytes;
  return chunks_.back().first + start;
}

}  // namespace kreplay::hsa
