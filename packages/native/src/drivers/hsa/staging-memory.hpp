// Operation memory (kernargs, page tables, status words, small scratch) carved from chunks of the
// kernarg pool: fine-grained system memory the host writes and the GPU reads at the same address.
// Chunks are reused: a queue returns an operation's chunks when the operation retires.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "drivers/hsa/operation-plans.hpp"

namespace kreplay::hsa {

/** Where chunks come from; the hsa driver allocates them from the kernarg pool. */
struct ChunkSource {
  std::function<std::uint8_t*(std::uint64_t bytes)> allocate;  // null when out of memory
  std::function<void(std::uint8_t*)> release;
};

/** Freed chunks by size, shared by the operations of one queue. Thread-safe. */
class ChunkCache {
 public:
  explicit ChunkCache(ChunkSource source) : source_(std::move(source)) {}
  ~ChunkCache();
  ChunkCache(const ChunkCache&) = delete;
  ChunkCache& operator=(const ChunkCache&) = delete;

  /** A chunk of at least `bytes` (a power of two, 64 KiB or more). @throws std::bad_alloc. */
  std::pair<std::uint8_t*, std::uint64_t> take(std::uint64_t bytes);
  void give(std::uint8_t* chunk, std::uint64_t bytes);

 private:
  ChunkSource source_;
  std::mutex mutex_;
  std::multimap<std::uint64_t, std::uint8_t*> idle_;
};

/** One operation's memory: a bump allocator over chunks, all returned to the cache at once. */
class StagingMemory : public OperationMemory {
 public:
  explicit StagingMemory(std::shared_ptr<ChunkCache> cache) : cache_(std::move(cache)) {}
  ~StagingMemory() override;
  std::uint8_t* allocate(std::uint64_t bytes, std::uint64_t alignment) override;

 private:
  std::shared_ptr<ChunkCache> cache_;
  std::vector<std::pair<std::uint8_t*, std::uint64_t>> chunks_;
  std::uint64_t used_ = 0;  // in the last chunk
};

}  // namespace kreplay::hsa
