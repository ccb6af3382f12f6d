#include "capture/inject/page-state.hpp"

#include <iterator>

namespace kreplay::capture {

namespace {

/** The range of `ranges` containing `address`, or end(). */
template <class Map>
auto containing(Map& ranges, std::uint64_t address) {
  auto found = ranges.upper_bound(address);
  if (found == ranges.begin()) return ranges.end();
  --found;
  return address < found->first + found->second.bytes ? found : ranges.end();
}

/** The first range of `ranges` that ends after `address`. */
template <class Map>
auto firstEndingAfter(Map& ranges, std::uint64_t address) {
  auto at = ranges.upper_bound(address);
  if (at != ranges.begin() && std::prev(at)->first + std::prev(at)->second.bytes > address) --at;
  return at;
}

void invalidateIn(std::map<std::uint64_t, TrackedRange>& ranges, std::uint64_t address, std::uint64_t bytes) {
  for (auto at = firstEndingAfter(ranges, address); at != ranges.end() && at->first < address + bytes; ++at)
    at->second.currentEpoch = 0;
}

}  // namespace

void TrackedRanges::addAllocation(std::uint64_t base, std::uint64_t bytes, MemoryKind kind) {
  TrackedRange range;
  range.bytes = bytes;
  range.kind = kind;
  allocations_[base] = std::move(range);
}

void TrackedRanges::addGlobal(std::uint64_t base, std::uint64_t bytes, const std::string& name) {
  TrackedRange& range = globals_[base];
  if (range.bytes == bytes && range.label == name) return;
  range = TrackedRange{};
  range.bytes = bytes;
  range.kind = MemoryKind::ModuleGlobal;
  range.label = name;
}

void TrackedRanges::removeAllocation(std::uint64_t base) {
  allocations_.erase(base);
}

void TrackedRanges::removeAllocationsIn(std::uint64_t base, std::uint64_t bytes) {
  allocations_.erase(allocations_.lower_bound(base), allocations_.lower_bound(base + bytes));
}

bool TrackedRanges::tracks(std::uint64_t address, std::uint64_t bytes) const {
  for (const auto* ranges : {&allocations_, &globals_}) {
    const auto found = containing(*ranges, address);
    if (found != ranges->end() && address + bytes <= found->first + found->second.bytes) return true;
  }
  return false;
}

bool TrackedRanges::overlaps(std::uint64_t address, std::uint64_t bytes) const {
  if (bytes == 0) return false;
  for (const auto* ranges : {&allocations_, &globals_}) {
    const auto at = firstEndingAfter(*ranges, address);
    if (at != ranges->end() && at->first < address + bytes) return true;
  }
  return false;
}

void TrackedRanges::invalidate(std::uint64_t address, std::uint64_t bytes) {
  if (bytes == 0) return;
  invalidateIn(allocations_, address, bytes);
  invalidateIn(globals_, address, bytes);
}

}  // namespace kreplay::capture
