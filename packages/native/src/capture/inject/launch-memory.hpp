// The memory part of a captured launch. Before it: the page hashes of every range (a current range's
// are known: no read; device ranges hashed on the device in one call; host ranges, and device memory
// of another context, by the CPU), then only the pages whose hash differs from what the capture holds
// copied (contiguous pages in one copy) into pinned staging buffers and handed to the writer, which
// names them; those pages are what the capture holds from then on. After it: every range hashed again.
// No host copy of the footprint is kept: the capture holds hashes and blob ids.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "capture/inject/blob-writer.hpp"
#include "capture/inject/device-memory-access.hpp"
#include "capture/inject/page-state.hpp"
#include "capture/inject/pinned-staging.hpp"

namespace kreplay::capture {

/** One range of a captured launch. */
struct LaunchRange {
  std::uint64_t base = 0;
  TrackedRange* range = nullptr;  ///< stays put while the session's lock is held
  std::vector<std::uint64_t> before;
  std::vector<std::uint64_t> after;
  std::vector<BlobRef> pages;  ///< the blob of each page before the launch
};

/** What capturing cost so far, counted by the session's thread and read by the writer's. */
struct CaptureCounters {
  std::atomic<std::uint64_t> deviceBytesHashed{0};
  std::atomic<std::uint64_t> bytesCopiedToHost{0};
  std::atomic<std::uint64_t> programWaitNanoseconds{0};
};

class LaunchMemory {
 public:
  LaunchMemory(DeviceMemoryAccess& device, PinnedStaging& staging, BlobWriter& writer, TrackedRanges& tracked,
               CaptureCounters& counters, std::uint64_t pageBytes);

  /**
   * Hashes every range before the launch in `context`, stages the pages that differ from what the
   * capture holds, and fills each range's `before` and `pages`. Throws DeviceAccessError,
   * StagingStopped.
   */
  void before(std::vector<LaunchRange>& ranges, std::uintptr_t context);
  /** Hashes every range after the launch into `after`. Throws DeviceAccessError. */
  void after(std::vector<LaunchRange>& ranges, std::uintptr_t context);

 private:
  void hash(const std::vector<LaunchRange*>& ranges, std::vector<std::uint64_t> LaunchRange::*into,
            std::uintptr_t context);
  void hashOnHost(LaunchRange& range, std::vector<std::uint64_t>& into, bool copyFirst);
  void stage(std::vector<LaunchRange>& ranges);

  DeviceMemoryAccess& device_;
  PinnedStaging& staging_;
  BlobWriter& writer_;
  TrackedRanges& tracked_;
  CaptureCounters& counters_;
  std::uint64_t pageBytes_;
};

}  // namespace kreplay::capture
