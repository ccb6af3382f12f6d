// Operations that touch pageable host memory (which the GPU cannot reach): they wait for the
// stream, stage the device memory they use into host buffers, and run the host driver's own
// algorithm (core/) on the CPU pool, so the results are the host driver's bit for bit. This is the
// slow path by design: pageable staging is kept only as the reference design's baseline.
#include <cstddef>

#include "core/copy-segments.hpp"
#include "core/hash-pages.hpp"
#include "core/kernels/builtin-kernel-memory.hpp"
#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-host-staging.hpp"
#include "drivers/cuda/cuda-stream-work.hpp"

namespace kreplay::cuda {

namespace {

std::uint64_t pageCountOf(const std::vector<Segment>& segments, std::uint64_t pageBytes) {
  std::uint64_t pages = 0;
  for (const auto& segment : segments) pages += (segment.bytes + pageBytes - 1) / pageBytes;
  return pages;
}

void addSegments(CudaHostStaging& staging, const std::vector<Segment>& segments) {
  for (const auto& segment : segments) {
    staging.add(segment.source, segment.bytes, true, false);
    staging.add(segment.destination, segment.bytes, true, true);
  }
}

std::vector<Segment> translated(const CudaHostStaging& staging, const std::vector<Segment>& segments) {
  std::vector<Segment> result;
  result.reserve(segments.size());
  for (const auto& segment : segments) {
    result.push_back(
        {staging.translate(segment.source), staging.translate(segment.destination), segment.bytes});
  }
  return result;
}

}  // namespace

bool CudaStreamWork::drainForHost() {
  const CudaApi& api = device_->api();
  check(api, api.cuStreamSynchronize(stream_), "cuStreamSynchronize");
  if (!armed_) return true;
  std::uint32_t errorCode = 0;
  check(
      api,
      api.cuMemcpy(addressOf(&errorCode), state_ + offsetof(KreplayQueueState, errorCode), sizeof errorCode),
      "cuMemcpy");
  return errorCode == KREPLAY_ERROR_NONE;
}

void CudaStreamWork::hashOnHost(const std::vector<Range>& ranges, std::uint64_t pageBytes,
                                std::uint64_t hashesAddress) {
  if (!drainForHost()) return;
  CudaHostStaging staging(device_->api(), driver_->memory);
  std::uint64_t pages = 0;
  for (const auto& range : ranges) {
    staging.add(range.address, range.bytes, true, false);
    pages += (range.bytes + pageBytes - 1) / pageBytes;
  }
  staging.add(hashesAddress, 8 * pages, false, true);
  staging.stage();
  std::vector<Range> hostRanges;
  for (const auto& range : ranges) hostRanges.push_back({staging.translate(range.address), range.bytes});
  hashRanges(driver_->cpuPool(), hostRanges, pageBytes, pointerOf(staging.translate(hashesAddress)));
  staging.writeBack();
}

void CudaStreamWork::copyChangedPagesOnHost(const ConditionalCopy& options) {
  if (!drainForHost()) return;
  const std::uint64_t pages = pageCountOf(options.segments, options.pageBytes);
  CudaHostStaging staging(device_->api(), driver_->memory);
  addSegments(staging, options.segments);
  staging.add(options.storedHashesAddress, 8 * pages, true, true);
  staging.add(options.pageListAddress, 4 * pages, true, true);
  staging.add(options.pageCountAddress, 4, true, true);
  staging.stage();
  ConditionalCopy onHost = options;
  onHost.segments = translated(staging, options.segments);
  onHost.storedHashesAddress = staging.translate(options.storedHashesAddress);
  onHost.pageListAddress = staging.translate(options.pageListAddress);
  onHost.pageCountAddress = staging.translate(options.pageCountAddress);
  kreplay::copyChangedPages(driver_->cpuPool(), onHost);
  staging.writeBack();
}

void CudaStreamWork::copyPageListOnHost(const PageListCopy& options) {
  if (!drainForHost()) return;
  const std::uint64_t pages = pageCountOf(options.segments, options.pageBytes);
  CudaHostStaging staging(device_->api(), driver_->memory);
  addSegments(staging, options.segments);
  staging.add(options.pageListAddress, 4 * pages, true, false);
  staging.add(options.pageCountAddress, 4, true, false);
  if (options.storedHashesAddress != 0) staging.add(options.storedHashesAddress, 8 * pages, true, true);
  staging.stage();
  PageListCopy onHost = options;
  onHost.segments = translated(staging, options.segments);
  onHost.pageListAddress = staging.translate(options.pageListAddress);
  onHost.pageCountAddress = staging.translate(options.pageCountAddress);
  if (options.storedHashesAddress != 0) onHost.storedHashesAddress = staging.translate(options.storedHashesAddress);
  kreplay::copyPageList(driver_->cpuPool(), onHost);  // throws invalid-page-list before copying anything
  staging.writeBack();
}

void CudaStreamWork::builtinKernelOnHost(BuiltinKernel kernel, const std::vector<std::uint64_t>& arguments) {
  if (!drainForHost()) return;
  CudaHostStaging staging(device_->api(), driver_->memory);
  const std::vector<PointerUse> uses = builtinPointerUses(kernel, arguments);
  for (const auto& use : uses) staging.add(arguments[use.argument], use.bytes, use.read, use.write);
  staging.stage();
  std::vector<std::uint64_t> onHost = arguments;
  for (const auto& use : uses) onHost[use.argument] = staging.translate(arguments[use.argument]);
  runBuiltinKernel(driver_->cpuPool(), kernel, onHost);
  staging.writeBack();
}

void CudaStreamWork::copyOnHost(const std::vector<Segment>& segments) {
  if (!drainForHost()) return;
  const CudaApi& api = device_->api();
  std::vector<Segment> hostOnly;
  for (const auto& segment : segments) {
    if (driver_->memory.isDevice(segment.source) || driver_->memory.isDevice(segment.destination)) {
      check(api, api.cuMemcpy(segment.destination, segment.source, segment.bytes), "cuMemcpy");
    } else {
      hostOnly.push_back(segment);
    }
  }
  copySegments(driver_->cpuPool(), hostOnly);
}

}  // namespace kreplay::cuda
