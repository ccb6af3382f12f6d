#include "capture/inject/launch-memory.hpp"

#include <algorithm>
#include <cstring>

#include "core/page-hash.hpp"

namespace kreplay::capture {

namespace {

constexpr std::uint64_t kHostChunkBytes = 16u << 20;  // device memory of another context: read 16 MiB at a time

const std::uint8_t* hostPointer(std::uint64_t address) {
  return reinterpret_cast<const std::uint8_t*>(static_cast<std::uintptr_t>(address));
}

}  // namespace

LaunchMemory::LaunchMemory(DeviceMemoryAccess& device, PinnedStaging& staging, BlobWriter& writer,
                           TrackedRanges& tracked, CaptureCounters& counters, std::uint64_t pageBytes)
    : device_(device),
      staging_(staging),
      writer_(writer),
      tracked_(tracked),
      counters_(counters),
      pageBytes_(pageBytes) {}

void LaunchMemory::hashOnHost(LaunchRange& launch, std::vector<std::uint64_t>& into, bool copyFirst) {
  const TrackedRange& range = *launch.range;
  into.clear();
  std::vector<std::uint8_t> chunk;
  for (std::uint64_t at = 0; at < range.bytes; at += kHostChunkBytes) {
    const std::uint64_t length = std::min(kHostChunkBytes, range.bytes - at);
    const std::uint8_t* bytes = hostPointer(launch.base + at);
    if (copyFirst) {
      chunk.resize(length);
      device_.copyToHost(launch.base + at, chunk.data(), length);
      counters_.bytesCopiedToHost += length;
      bytes = chunk.data();
    }
    for (std::uint64_t page = 0; page < length; page += pageBytes_)
      into.push_back(pageHash(bytes + page, std::min(pageBytes_, length - page)));
  }
}

void LaunchMemory::hash(const std::vector<LaunchRange*>& ranges, std::vector<std::uint64_t> LaunchRange::*into,
                        std::uintptr_t context) {
  std::vector<HashSpan> spans;
  std::vector<LaunchRange*> onDevice;
  std::uint64_t pages = 0;
  for (LaunchRange* launch : ranges) {
    TrackedRange& range = *launch->range;
    if (range.host()) {
      hashOnHost(*launch, launch->*into, false);
      continue;
    }
    if (!range.context) range.context = device_.memoryContext(launch->base);
    if (context != 0 && *range.context != 0 && *range.context != context) {
      hashOnHost(*launch, launch->*into, true);  // the kernel could not read it from this context
      continue;
    }
    spans.push_back({launch->base, range.bytes});
    onDevice.push_back(launch);
    pages += range.pages(pageBytes_);
  }
  if (spans.empty()) return;
  std::vector<std::uint64_t> hashes(pages);
  device_.hashPages(spans, pageBytes_, hashes.data());
  std::uint64_t at = 0;
  for (LaunchRange* launch : onDevice) {
    const std::uint64_t count = launch->range->pages(pageBytes_);
    (launch->*into).assign(hashes.begin() + static_cast<std::ptrdiff_t>(at),
                           hashes.begin() + static_cast<std::ptrdiff_t>(at + count));
    at += count;
    counters_.deviceBytesHashed += launch->range->bytes;
  }
}

void LaunchMemory::before(std::vector<LaunchRange>& ranges, std::uintptr_t context) {
  std::vector<LaunchRange*> unknown;
  for (LaunchRange& launch : ranges) {
    if (tracked_.current(*launch.range)) {
      launch.before = launch.range->hashes;  // nothing since can have changed it
    } else {
      unknown.push_back(&launch);
    }
  }
  hash(unknown, &LaunchRange::before, context);
  stage(ranges);
}

void LaunchMemory::after(std::vector<LaunchRange>& ranges, std::uintptr_t context) {
  std::vector<LaunchRange*> all;
  for (LaunchRange& launch : ranges) all.push_back(&launch);
  hash(all, &LaunchRange::after, context);
}

void LaunchMemory::stage(std::vector<LaunchRange>& ranges) {
  std::uint8_t* buffer = nullptr;
  std::uint64_t used = 0;
  std::vector<HostCopy> copies;
  std::vector<StagedPage> staged;
  auto flush = [&] {
    if (buffer == nullptr) return;
    device_.copyToHost(copies);
    for (const HostCopy& copy : copies) counters_.bytesCopiedToHost += copy.bytes;
    std::uint8_t* full = buffer;
    buffer = nullptr;
    writer_.addPages(full, std::move(staged));
    copies.clear();
    staged.clear();
  };
  try {
    for (LaunchRange& launch : ranges) {
      TrackedRange& range = *launch.range;
      const std::uint64_t count = range.pages(pageBytes_);
      range.held.resize(count);
      launch.pages.assign(count, nullptr);
      for (std::uint64_t page = 0; page < count;) {
        const HeldPage& held = range.held[page];
        if (held.blob && held.hash == launch.before[page]) {
          launch.pages[page] = held.blob;
          page += 1;
          continue;
        }
        if (buffer == nullptr) {
          buffer = staging_.acquire();
          used = 0;
        }
        // The run of changed pages from here that fits the buffer: one copy.
        std::uint64_t run = 0;
        const std::uint64_t room = (staging_.bufferBytes() - used) / pageBytes_;
        while (run < room && page + run < count &&
               !(range.held[page + run].blob && range.held[page + run].hash == launch.before[page + run]))
          run += 1;
        const std::uint64_t offset = page * pageBytes_;
        const std::uint64_t bytes = std::min(run * pageBytes_, range.bytes - offset);
        if (range.host()) {
          std::memcpy(buffer + used, hostPointer(launch.base + offset), bytes);
        } else {
          copies.push_back({launch.base + offset, buffer + used, bytes});
        }
        for (std::uint64_t p = page; p < page + run; ++p) {
          auto blob = std::make_shared<BlobSlot>();
          const std::uint64_t length = std::min(pageBytes_, range.bytes - p * pageBytes_);
          staged.push_back({static_cast<std::size_t>(used + (p - page) * pageBytes_), length, blob});
          launch.pages[p] = blob;
          range.held[p] = {launch.before[p], blob};
        }
        used += run * pageBytes_;
        page += run;
        if (used + pageBytes_ > staging_.bufferBytes()) flush();
      }
    }
    flush();
  } catch (...) {
    if (buffer != nullptr) staging_.release(buffer);
    throw;
  }
}

}  // namespace kreplay::capture
