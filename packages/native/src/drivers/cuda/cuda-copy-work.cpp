// Copy plans on the stream: cuMemcpyAsync per segment, or one launch of the chunk-copy kernel over
// a table of the segments cut into chunks (see CudaCopyPolicy); pageable memory on the host path.
#include <algorithm>

#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/cuda-stream-work.hpp"

namespace kreplay::cuda {

namespace {

/** The largest piece of a segment one group copies. */
constexpr std::uint64_t kChunkBytes = 256 * 1024;
/** Chunks this small on average are copied by a warp each, larger ones by a block each. */
constexpr std::uint64_t kWarpChunkBytes = 16 * 1024;

}  // namespace

void CudaStreamWork::copy(const std::vector<Segment>& plan) {
  std::vector<Segment> segments;
  segments.reserve(plan.size());
  bool pageable = false;
  for (const auto& segment : plan) {
    if (segment.bytes == 0) continue;
    segments.push_back(segment);
    pageable = pageable || driver_->memory.touchesPageable(segment.source, segment.bytes) ||
               driver_->memory.touchesPageable(segment.destination, segment.bytes);
  }
  if (segments.empty()) return;
  if (pageable) return copyOnHost(segments);
  // After a page-list copy, a failure found on the device must stop later copies: only kernels can.
  const auto touchesHost = [this](const Segment& segment) {
    return !driver_->memory.isDevice(segment.source) || !driver_->memory.isDevice(segment.destination);
  };
  if (!armed_ && driver_->copyPolicy.useApi(segments, touchesHost)) {
    const CudaApi& api = device_->api();
    for (const auto& segment : segments) {
      check(api, api.cuMemcpyAsync(segment.destination, segment.source, segment.bytes, stream_),
            "cuMemcpyAsync");
    }
    return;
  }
  copyWithKernel(segments);
}

void CudaStreamWork::copyWithKernel(const std::vector<Segment>& segments) {
  std::vector<KreplayChunk> chunks;
  std::uint64_t total = 0;
  for (const auto& segment : segments) {
    total += segment.bytes;
    for (std::uint64_t offset = 0; offset < segment.bytes; offset += kChunkBytes) {
      chunks.push_back({segment.source + offset, segment.destination + offset,
                        std::min(kChunkBytes, segment.bytes - offset)});
    }
  }
  const std::uint64_t table = scratch_->uploadTable(chunks.data(), chunks.size() * sizeof(KreplayChunk));
  const bool warp = total / chunks.size() <= kWarpChunkBytes;
  const auto& functions = device_->functions().copyChunks;
  launchKernel(*device_, warp ? functions.warp : functions.block,
               gridFor(*device_, chunks.size(), warp ? KREPLAY_BLOCK_THREADS / 32 : 1), KREPLAY_BLOCK_THREADS,
               stream_, table, static_cast<std::uint64_t>(chunks.size()), state_);
}

}  // namespace kreplay::cuda
