// A capture session over the fake device (host memory) for the session's tests: ranges of whole
// pages that stay put, launches of the synthetic `scale` kernel on any stream and context with a
// "kernel" that changes memory while it runs, and the records as the writer wrote them (with
// parameter buffers in hex, as records write them).
#pragma once

#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "capture/inject/capture-session.hpp"
#include "capture/json-text.hpp"
#include "capture/test/capture-test-files.hpp"
#include "capture/test/fake-device-memory.hpp"
#include "capture/test/synthetic-images.hpp"

namespace kreplay::capture::test {

/** The hex text of `size` bytes, as a launch record writes a parameter buffer. */
inline std::string hexOf(const void* data, std::size_t size) {
  const std::string quoted = jsonHexBytes(static_cast<const std::uint8_t*>(data), size);
  return quoted.substr(1, quoted.size() - 2);
}

/** Capture options for every launch, into a new folder. */
inline CaptureOptions everyLaunchOptions() {
  CaptureOptions options;
  options.everyLaunch = true;
  options.command = {"program"};
  return options;
}

struct SessionFixture {
  explicit SessionFixture(CaptureOptions options = everyLaunchOptions(), std::function<void()> beforeWrite = {})
      : directory(options.directory.empty() ? temporaryFolder() : options.directory) {
    options.directory = directory;
    session = std::make_unique<CaptureSession>(options, device, log, std::move(beforeWrite));
    module = syntheticCubin().bytes;
    session->moduleLoaded(7, module.data(), module.size());
  }

  /** A new range of `pages` 64 KiB pages (the last one `lastPageBytes` long when not 0), each byte `fill`. */
  std::uint64_t addRange(std::uint64_t pages, std::uint8_t fill = 1, MemoryKind kind = MemoryKind::Device,
                         std::uint64_t lastPageBytes = 0) {
    const std::uint64_t bytes = (pages - (lastPageBytes ? 1 : 0)) * kCapturePageBytes + lastPageBytes;
    ranges.emplace_back(bytes, fill);
    const std::uint64_t base = reinterpret_cast<std::uint64_t>(ranges.back().data());
    session->allocationAdded(base, bytes, kind);
    return base;
  }
  static std::uint8_t* at(std::uint64_t address) { return reinterpret_cast<std::uint8_t*>(address); }
  /** Fills page `page` of the range at `base` with `value`. */
  static void fillPage(std::uint64_t base, std::uint64_t page, std::uint8_t value) {
    std::memset(at(base + page * kCapturePageBytes), value, kCapturePageBytes);
  }

  PendingLaunchHandle before(std::uintptr_t stream = 0, std::uintptr_t context = 0, const char* function = "scale") {
    params[0] = &pointer;
    params[1] = &count;
    LaunchRequest request;
    request.function = function;
    request.functionHandle = 0x77;
    request.kernelParams = params;
    request.stream = stream;
    request.context = context;
    return session->beforeLaunch(request);
  }
  /** A launch; `kernel` changes memory while it runs. Returns whether it was captured. */
  bool launch(const std::function<void()>& kernel = {}, std::uintptr_t stream = 0, std::uintptr_t context = 0,
              const char* function = "scale") {
    auto pending = before(stream, context, function);
    const bool captured = pending != nullptr;
    if (kernel) kernel();
    session->afterLaunch(std::move(pending), true);
    return captured;
  }
  /** The record of a launch, once the writer has written it. */
  std::string record(int sequence) const {
    session->flush();
    char name[32];
    std::snprintf(name, sizeof name, "/launches/%08d.json", sequence);
    return readFile(directory + name);
  }
  std::string manifest() const {
    session->flush();
    return readFile(directory + "/manifest.json");
  }

  std::string directory;
  FakeDeviceMemory device;
  std::ostringstream log;
  std::unique_ptr<CaptureSession> session;
  Bytes module;
  std::deque<std::vector<std::uint8_t>> ranges;
  std::uint64_t pointer = 0x1000;
  int count = 1;
  void* params[2] = {nullptr, nullptr};
};

}  // namespace kreplay::capture::test
