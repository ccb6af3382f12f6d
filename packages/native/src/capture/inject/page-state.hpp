// The memory ranges a capture tracks (allocations, host ranges, module globals) and, per 64 KiB page,
// what the capture holds of it: the page hash of the bytes it stored and their blob. A range is
// `current` when its page hashes after the previous captured launch are known and nothing since can
// have changed it: then its hashes before the next launch are those, with no read at all. Any launch
// that is not captured, or a write the capture cannot bound, makes every device range not current
// (one counter: O(1)); a write with a known destination, only the ranges it overlaps. Host ranges
// are never current (the CPU may write them at any time).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/inject/blob-slot.hpp"

namespace kreplay::capture {

/** What the capture holds of one page: the hash of the bytes it stored, and their blob. */
struct HeldPage {
  std::uint64_t hash = 0;
  BlobRef blob;  ///< null: nothing held yet
};

struct TrackedRange {
  std::uint64_t bytes = 0;
  MemoryKind kind = MemoryKind::Device;
  std::string label;
  std::optional<std::uintptr_t> context;  ///< the context its memory belongs to, once asked (0: unknown)
  std::vector<HeldPage> held;             ///< one per page once captured, else empty
  /** The page hashes after the last captured launch that listed it (`listedBy`). */
  std::vector<std::uint64_t> hashes;
  std::optional<std::uint64_t> listedBy;
  std::uint64_t currentEpoch = 0;  ///< equal to the tracker's epoch: current

  /** Host memory (host-pinned, host-registered): read by the CPU, never current. */
  bool host() const { return kind == MemoryKind::HostPinned || kind == MemoryKind::HostRegistered; }
  std::uint64_t pages(std::uint64_t pageBytes) const { return (bytes + pageBytes - 1) / pageBytes; }
};

class TrackedRanges {
 public:
  /** A new allocation at `base` (replacing any there): not current. */
  void addAllocation(std::uint64_t base, std::uint64_t bytes, MemoryKind kind);
  /** A module global: kept (with what the capture holds) when it is the same as before, else new. */
  void addGlobal(std::uint64_t base, std::uint64_t bytes, const std::string& name);
  void removeAllocation(std::uint64_t base);
  /** Every allocation starting in [base, base + bytes) is gone. */
  void removeAllocationsIn(std::uint64_t base, std::uint64_t bytes);

  std::map<std::uint64_t, TrackedRange>& allocations() { return allocations_; }
  TrackedRange& global(std::uint64_t base) { return globals_.at(base); }
  /** Whether [address, address + bytes) lies inside one tracked range (allocation or global). */
  bool tracks(std::uint64_t address, std::uint64_t bytes) const;
  /** Whether [address, address + bytes) overlaps a tracked range. */
  bool overlaps(std::uint64_t address, std::uint64_t bytes) const;

  /** Every range overlapping [address, address + bytes) is no longer current. */
  void invalidate(std::uint64_t address, std::uint64_t bytes);
  /** No range is current. */
  void invalidateAll() { epoch_ += 1; }
  bool current(const TrackedRange& range) const { return !range.host() && range.currentEpoch == epoch_; }
  void markCurrent(TrackedRange& range) const { range.currentEpoch = range.host() ? 0 : epoch_; }

 private:
  std::map<std::uint64_t, TrackedRange> allocations_;
  std::map<std::uint64_t, TrackedRange> globals_;
  std::uint64_t epoch_ = 1;
};

}  // namespace kreplay::capture
