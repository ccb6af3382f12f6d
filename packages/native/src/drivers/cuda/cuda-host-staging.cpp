#include "drivers/cuda/cuda-host-staging.hpp"

#include <algorithm>

#include "core/types.hpp"
#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

void CudaHostStaging::add(std::uint64_t address, std::uint64_t bytes, bool read, bool write) {
  if (bytes == 0 || !memory_.isDevice(address)) return;
  intervals_.push_back({address, bytes, read, write, nullptr});
}

void CudaHostStaging::stage() {
  std::sort(intervals_.begin(), intervals_.end(),
            [](const Interval& left, const Interval& right) { return left.address < right.address; });
  std::vector<Interval> merged;
  for (auto& interval : intervals_) {
    if (!merged.empty() && interval.address < merged.back().address + merged.back().bytes) {
      Interval& last = merged.back();
      last.bytes = std::max(last.address + last.bytes, interval.address + interval.bytes) - last.address;
      // A range written but not read whole still keeps the bytes it does not write: read it too.
      last.read = last.read || interval.read || interval.write;
      last.write = last.write || interval.write;
    } else {
      merged.push_back(std::move(interval));
    }
  }
  intervals_ = std::move(merged);
  for (auto& interval : intervals_) {
    interval.copy = std::make_unique<std::uint8_t[]>(interval.bytes);
    if (interval.read || interval.write) {
      check(api_, api_.cuMemcpy(addressOf(interval.copy.get()), interval.address, interval.bytes),
            "cuMemcpy");
    }
  }
}

std::uint64_t CudaHostStaging::translate(std::uint64_t address) const {
  for (const auto& interval : intervals_) {
    if (address >= interval.address && address <= interval.address + interval.bytes) {
      return addressOf(interval.copy.get()) + (address - interval.address);
    }
  }
  return address;
}

void CudaHostStaging::writeBack() {
  for (const auto& interval : intervals_) {
    if (interval.write)
      check(api_, api_.cuMemcpy(interval.address, addressOf(interval.copy.get()), interval.bytes),
            "cuMemcpy");
  }
}

}  // namespace kreplay::cuda
