#include "drivers/cuda/cuda-copy-policy.hpp"

#include <algorithm>

namespace kreplay::cuda {

namespace {

/** From this average segment size, cuMemcpyAsync per segment wins for device-to-device plans. */
constexpr std::uint64_t kApiDeviceAverageBytes = 64u << 20;
/** From this average segment size, it wins for plans that read or write host memory. */
constexpr std::uint64_t kApiHostAverageBytes = 8u << 20;

}  // namespace

bool CudaCopyPolicy::useApi(const std::vector<Segment>& segments,
                            const std::function<bool(const Segment&)>& touchesHost) const {
  if (segments.size() == 1) return true;
  std::uint64_t total = 0;
  for (const auto& segment : segments) total += segment.bytes;
  const std::uint64_t average = total / segments.size();
  if (average >= kApiDeviceAverageBytes) return true;
  if (average < kApiHostAverageBytes) return false;
  return std::any_of(segments.begin(), segments.end(), touchesHost);
}

}  // namespace kreplay::cuda
