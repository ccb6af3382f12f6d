#include "drivers/cuda/cuda-memory-registry.hpp"

#include <mutex>

namespace kreplay::cuda {

void CudaMemoryRegistry::add(std::uint64_t address, const CudaMemoryBlock& block) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  blocks_[address] = block;
  if (block.kind == CudaMemoryKind::HostPageable) pageableCount_.fetch_add(1);
}

std::optional<CudaMemoryBlock> CudaMemoryRegistry::remove(std::uint64_t address) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  const auto found = blocks_.find(address);
  if (found == blocks_.end()) return std::nullopt;
  const CudaMemoryBlock block = found->second;
  blocks_.erase(found);
  if (block.kind == CudaMemoryKind::HostPageable) pageableCount_.fetch_sub(1);
  return block;
}

std::vector<CudaMemoryBlock> CudaMemoryRegistry::removeAll() {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  std::vector<CudaMemoryBlock> all;
  all.reserve(blocks_.size());
  for (const auto& entry : blocks_) all.push_back(entry.second);
  blocks_.clear();
  pageableCount_.store(0);
  return all;
}

const CudaMemoryBlock* CudaMemoryRegistry::holding(std::uint64_t address, std::uint64_t& start) const {
  auto found = blocks_.upper_bound(address);
  if (found == blocks_.begin()) return nullptr;
  --found;
  if (address >= found->first + (found->second.bytes == 0 ? 1 : found->second.bytes)) return nullptr;
  start = found->first;
  return &found->second;
}

bool CudaMemoryRegistry::touchesPageable(std::uint64_t address, std::uint64_t bytes) const {
  if (pageableCount_.load(std::memory_order_relaxed) == 0) return false;
  std::shared_lock<std::shared_mutex> lock(mutex_);
  std::uint64_t start = 0;
  const CudaMemoryBlock* block = holding(address, start);
  if (block) return block->kind == CudaMemoryKind::HostPageable;
  // A zero-byte range may sit at an allocation's end.
  return bytes == 0 && address > 0 && (block = holding(address - 1, start)) &&
         block->kind == CudaMemoryKind::HostPageable;
}

namespace {

bool onDevice(CudaMemoryKind kind) {
  return kind == CudaMemoryKind::Device || kind == CudaMemoryKind::StreamOrdered ||
         kind == CudaMemoryKind::FixedDevice || kind == CudaMemoryKind::ModuleGlobal;
}

}  // namespace

bool CudaMemoryRegistry::isDevice(std::uint64_t address) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  std::uint64_t start = 0;
  const CudaMemoryBlock* block = holding(address, start);
  if (!block && address > 0) block = holding(address - 1, start);
  return block && onDevice(block->kind);
}

bool CudaMemoryRegistry::contains(std::uint64_t address) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return blocks_.count(address) > 0;
}

}  // namespace kreplay::cuda
