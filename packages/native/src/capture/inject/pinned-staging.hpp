// The pinned (page-locked) host buffers that changed pages are copied into from the device before a
// launch, and that the writer threads read them from: one allocation of the staging size, made on
// first use (inside a callback, so the capture library's own driver call is ignored), cut into equal
// buffers of whole pages. A buffer is in use from acquire until the writer has written its pages;
// when all are, acquire waits: the program waits for the writer, nothing is dropped.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "capture/inject/device-memory-access.hpp"

namespace kreplay::capture {

/** The staging failed or was stopped (the message says why). */
struct StagingStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class PinnedStaging {
 public:
  /** `totalBytes` of staging in buffers of whole `pageBytes` pages (at least one page each). */
  PinnedStaging(DeviceMemoryAccess& device, std::uint64_t totalBytes, std::uint64_t pageBytes);
  ~PinnedStaging();
  PinnedStaging(const PinnedStaging&) = delete;
  PinnedStaging& operator=(const PinnedStaging&) = delete;

  std::uint64_t bufferBytes() const { return bufferBytes_; }
  std::size_t bufferCount() const { return bufferCount_; }

  /**
   * A free buffer (allocating the pool on first use), waiting while all are in use.
   * Throws StagingStopped after stop, DeviceAccessError when the pool cannot be allocated.
   */
  std::uint8_t* acquire();
  /** The writer is done with a buffer. */
  void release(std::uint8_t* buffer);
  /** Wakes and refuses every acquire from now on (the writer failed: nothing would free a buffer). */
  void stop(const std::string& why);

  /** For tests: buffers in use now, the most ever in use at once, acquires that had to wait. */
  std::size_t inUse() const;
  std::size_t mostInUse() const;
  std::uint64_t waits() const;
  /** For tests: a thread is waiting in acquire now. */
  bool waiting() const;

 private:
  DeviceMemoryAccess& device_;
  std::uint64_t bufferBytes_;
  std::size_t bufferCount_;
  std::uint8_t* pool_ = nullptr;
  std::vector<std::uint8_t*> free_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::string stopped_;
  std::size_t inUse_ = 0;
  std::size_t mostInUse_ = 0;
  std::uint64_t waits_ = 0;
  std::size_t waiting_ = 0;
};

/** The buffer size the staging uses for `totalBytes`: an eighth, whole pages, from one page to 16 MiB. */
std::uint64_t stagingBufferBytes(std::uint64_t totalBytes, std::uint64_t pageBytes);

}  // namespace kreplay::capture
