#include "core/arena.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kreplay {

namespace {

std::uint64_t roundUp(std::uint64_t bytes) {
  return (bytes + Arena::kAlignment - 1) / Arena::kAlignment * Arena::kAlignment;
}

std::uint8_t* reserve(std::uint64_t bytes) {
  void* base =
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    throw std::runtime_error("could not reserve " + std::to_string(bytes) +
                             " bytes of address space for device memory: " + std::strerror(errno));
  }
  return static_cast<std::uint8_t*>(base);
}

}  // namespace

Arena::Arena(std::uint64_t bytes)
    : base_(reserve(roundUp(bytes))), capacity_(roundUp(bytes)), blocks_(roundUp(bytes)) {}

Arena::~Arena() {
  munmap(base_, capacity_);
}

std::uint64_t Arena::allocate(std::uint64_t bytes) {
  if (bytes == 0 || bytes > capacity_) return 0;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto offset = blocks_.allocate(roundUp(bytes));
  return offset ? reinterpret_cast<std::uintptr_t>(base_) + *offset : 0;
}

void Arena::release(std::uint64_t address) {
  const std::uint64_t base = reinterpret_cast<std::uintptr_t>(base_);
  if (address < base || address >= base + capacity_) return;
  const std::uint64_t offset = address - base;
  std::uint64_t size;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    size = blocks_.sizeAt(offset);
  }
  // Still owned by the caller here, so no new allocation can see the pages being dropped.
  if (size >= kReturnToSystemBytes) madvise(base_ + offset, size, MADV_DONTNEED);
  std::lock_guard<std::mutex> lock(mutex_);
  blocks_.release(offset);
}

std::uint64_t Arena::freeBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return blocks_.freeBytes();
}

bool Arena::contains(std::uint64_t address, std::uint64_t bytes) const {
  const std::uint64_t base = reinterpret_cast<std::uintptr_t>(base_);
  return address >= base && bytes <= capacity_ && address - base <= capacity_ - bytes;
}

}  // namespace kreplay
