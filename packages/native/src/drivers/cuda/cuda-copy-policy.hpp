// How a copy plan goes to the device: one cuMemcpyAsync per segment, or one launch of the
// chunk-copy kernel over a table of the segments. Measured on an H200 (CUDA 13.0): a cuMemcpyAsync
// costs about 5 us of submission per segment (4096 segments of 4 KiB: 21.7 ms, against 0.7 ms in
// one kernel launch), while a single large copy runs faster on the copy path CUDA picks (4 GiB
// device to device: 1906 against 1610 GB/s; 1 GiB pinned: 55.1 against 51.7 GB/s). So the API path
// is used for a single segment and for segments so large that its bandwidth outweighs the
// per-call cost.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/types.hpp"

namespace kreplay::cuda {

class CudaCopyPolicy {
 public:
  /**
   * Whether `segments` (none empty) go through cuMemcpyAsync; `touchesHost` says whether a segment
   * reads or writes host memory (asked only for mid-sized plans).
   */
  bool useApi(const std::vector<Segment>& segments,
              const std::function<bool(const Segment&)>& touchesHost) const;
};

}  // namespace kreplay::cuda
