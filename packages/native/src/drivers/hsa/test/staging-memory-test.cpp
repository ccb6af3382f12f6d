// Operation memory carved from reusable chunks (kernarg-pool chunks in the driver, malloc here).
#include <cstdlib>

#include "drivers/hsa/staging-memory.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;

TEST("staging: allocations are aligned, share a chunk, and chunks return for reuse") {
  int allocated = 0;
  int released = 0;
  ChunkSource source{[&](std::uint64_t bytes) {
                       allocated += 1;
                       return static_cast<std::uint8_t*>(std::aligned_alloc(4096, bytes));
                     },
                     [&](std::uint8_t* chunk) {
                       released += 1;
                       std::free(chunk);
                     }};
  auto cache = std::make_shared<ChunkCache>(source);
  std::uint8_t* first;
  {
    StagingMemory memory(cache);
    first = memory.allocate(20, 16);
    std::uint8_t* second = memory.allocate(100, 64);
    std::uint8_t* third = memory.allocate(8, 8);
    CHECK_EQ(reinterpret_cast<std::uintptr_t>(first) % 16, 0u);
    CHECK_EQ(reinterpret_cast<std::uintptr_t>(second) % 64, 0u);
    CHECK(second >= first + 20 && third >= second + 100);
    CHECK(third < first + 65536);                     // one chunk
    std::uint8_t* big = memory.allocate(300000, 16);  // a chunk of its own (512 KiB)
    CHECK(big != nullptr);
    CHECK_EQ(allocated, 2);
  }
  {
    StagingMemory memory(cache);
    CHECK(memory.allocate(10, 16) == first);  // the 64 KiB chunk again
    CHECK_EQ(allocated, 2);
  }
  cache.reset();
  CHECK_EQ(released, 2);
}

TEST("staging: a source out of memory is std::bad_alloc") {
  auto cache = std::make_shared<ChunkCache>(
      ChunkSource{[](std::uint64_t) -> std::uint8_t* { return nullptr; }, [](std::uint8_t*) {}});
  StagingMemory memory(cache);
  bool thrown = false;
  try {
    memory.allocate(8, 8);
  } catch (const std::bad_alloc&) {
    thrown = true;
  }
  CHECK(thrown);
}
