// OperationMemory in ordinary host memory, for running operation plans through the kernel emulation.
#pragma once

#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "drivers/hsa/operation-plans.hpp"

namespace kreplay::hsa::test {

class HostOperationMemory : public OperationMemory {
 public:
  std::uint8_t* allocate(std::uint64_t bytes, std::uint64_t alignment) override {
    void* memory = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
    if (!memory) throw std::bad_alloc();
    blocks_.emplace_back(static_cast<std::uint8_t*>(memory));
    allocated += bytes;
    return blocks_.back().get();
  }
  std::uint64_t allocated = 0;

 private:
  struct Free {
    void operator()(std::uint8_t* memory) const { std::free(memory); }
  };
  std::vector<std::unique_ptr<std::uint8_t, Free>> blocks_;
};

/** The identity: in the emulation, the GPU address of host memory is its address. */
inline std::uint64_t sameAddress(std::uint64_t address) {
  return address;
}

}  // namespace kreplay::hsa::test
