// The memory the hsa driver handed out, by address: device allocations (owned by a GPU agent) and
// host buffers (page-locked with hsa_amd_memory_lock, which may give the GPU another address for
// them). It answers which agent owns an address and what address the GPU uses for it. Plain C++.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace kreplay::hsa {

struct Region {
  std::uint64_t bytes;
  bool host;                    // a host buffer (the CPU agent's memory)
  std::uint32_t agent;          // the owning GPU agent of device memory
  std::uint64_t deviceAddress;  // where the GPU sees the region's first byte
};

class AddressRegions {
 public:
  void insert(std::uint64_t address, const Region& region) { regions_[address] = region; }
  /** Removes the region that starts at `address`; returns it, or nothing when there is none. */
  std::optional<Region> remove(std::uint64_t address);
  /** The region holding `address` (interior addresses too) and its start, or nothing. */
  std::optional<std::pair<std::uint64_t, Region>> find(std::uint64_t address) const;
  /** The address the GPU uses for `address`; addresses outside every region are returned as they are. */
  std::uint64_t toDevice(std::uint64_t address) const;
  std::size_t size() const { return regions_.size(); }
  const std::map<std::uint64_t, Region>& all() const { return regions_; }

 private:
  std::map<std::uint64_t, Region> regions_;
};

}  // namespace kreplay::hsa
