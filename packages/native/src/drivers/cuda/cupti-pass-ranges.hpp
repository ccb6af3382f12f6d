// The CUPTI ranges of one window's pass. A window of K dispatches (a range, K > 1) runs all K in
// each pass, each its own CUPTI range: a user range named for the dispatch (CUPTI adds user ranges
// of one name together), or its kernel under the automatic range. Under the automatic range a flush
// between dispatches is a kernel too, so it is a range whose values are dropped: ranges 0, 2, 4, ...
// are the dispatches'. While the automatic range is on, every kernel on the device costs about
// 1.3-1.6 ms per pass on an H200, a flush as much as a dispatch: a flush from a second context,
// outside every range, measured the same (26.5 ms per 64 MiB fill for 9 passes at K = 1000, against
// 26.9 ms in the profiled context and 15.0 ms with no flush between dispatches).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kreplay::cuda {

class PassRanges {
 public:
  /** Sets up a window of `dispatches` (at least 1); `flushKernels`: whether a flush kernel runs between its dispatches in the automatic range. */
  void open(std::uint32_t dispatches, bool flushKernels) {
    dispatches_ = std::max<std::uint32_t>(1, dispatches);
    flushesInRanges_ = flushKernels && dispatches_ > 1;
    while (names_.size() < dispatches_) names_.push_back(std::string(kName) + "-" + std::to_string(names_.size()));
  }
  std::uint32_t dispatches() const { return dispatches_; }
  /** The ranges CUPTI records per pass. */
  std::uint32_t perPass() const { return flushesInRanges_ ? 2 * dispatches_ - 1 : dispatches_; }
  /** The range holding dispatch `index`. */
  std::uint32_t of(std::uint32_t index) const { return flushesInRanges_ ? 2 * index : index; }
  /** The user range's name of dispatch `index` (alive as long as this object: CUPTI keeps it until the decode). */
  const char* name(std::uint32_t index) const { return dispatches_ <= 1 ? kName : names_.at(index).c_str(); }

 private:
  static constexpr const char* kName = "kreplay-dispatch";
  std::uint32_t dispatches_ = 1;
  bool flushesInRanges_ = false;
  std::vector<std::string> names_;
};

}  // namespace kreplay::cuda
