#include "drivers/hsa/address-regions.hpp"

namespace kreplay::hsa {

std::optional<Region> AddressRegions::remove(std::uint64_t address) {
  const auto found = regions_.find(address);
  if (found == regions_.end()) return std::nullopt;
  Region region = found->second;
  regions_.erase(found);
  return region;
}

std::optional<std::pair<std::uint64_t, Region>> AddressRegions::find(std::uint64_t address) const {
  auto after = regions_.upper_bound(address);
  if (after == regions_.begin()) return std::nullopt;
  const auto& [start, region] = *std::prev(after);
  if (address - start >= region.bytes) return std::nullopt;
  return std::make_pair(start, region);
}

std::uint64_t AddressRegions::toDevice(std::uint64_t address) const {
  const auto found = find(address);
  if (!found) return address;
  return found->second.deviceAddress + (address - found->first);
}

}  // namespace kreplay::hsa
