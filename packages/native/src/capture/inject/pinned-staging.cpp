#include "capture/inject/pinned-staging.hpp"

#include <algorithm>

namespace kreplay::capture {

namespace {

constexpr std::uint64_t kLargestBuffer = 16u << 20;

}  // namespace

std::uint64_t stagingBufferBytes(std::uint64_t totalBytes, std::uint64_t pageBytes) {
  const std::uint64_t eighth = totalBytes / 8 / pageBytes * pageBytes;
  return std::clamp<std::uint64_t>(eighth, pageBytes, std::max(pageBytes, kLargestBuffer / pageBytes * pageBytes));
}

PinnedStaging::PinnedStaging(DeviceMemoryAccess& device, std::uint64_t totalBytes, std::uint64_t pageBytes)
    : device_(device),
      bufferBytes_(stagingBufferBytes(totalBytes, pageBytes)),
      bufferCount_(std::max<std::uint64_t>(1, totalBytes / bufferBytes_)) {}

PinnedStaging::~PinnedStaging() {
  if (pool_ == nullptr) return;
  try {
    device_.freeHostStaging(pool_);
  } catch (...) {
    // At exit the driver may be gone already; the memory goes with the process.
  }
}

std::uint8_t* PinnedStaging::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!stopped_.empty()) throw StagingStopped(stopped_);
  if (pool_ == nullptr) {
    pool_ = device_.allocateHostStaging(bufferBytes_ * bufferCount_);
    for (std::size_t i = bufferCount_; i > 0; --i) free_.push_back(pool_ + (i - 1) * bufferBytes_);
  }
  if (free_.empty()) {
    waits_ += 1;
    waiting_ += 1;
    freed_.wait(lock, [&] { return !free_.empty() || !stopped_.empty(); });
    waiting_ -= 1;
    if (!stopped_.empty()) throw StagingStopped(stopped_);
  }
  std::uint8_t* buffer = free_.back();
  free_.pop_back();
  inUse_ += 1;
  mostInUse_ = std::max(mostInUse_, inUse_);
  return buffer;
}

void PinnedStaging::release(std::uint8_t* buffer) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(buffer);
    inUse_ -= 1;
  }
  freed_.notify_one();
}

void PinnedStaging::stop(const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopped_.empty()) stopped_ = why.empty() ? std::string("the capture stopped") : why;
  }
  freed_.notify_all();
}

std::size_t PinnedStaging::inUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return inUse_;
}

std::size_t PinnedStaging::mostInUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return mostInUse_;
}

std::uint64_t PinnedStaging::waits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waits_;
}

bool PinnedStaging::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_ > 0;
}

}  // namespace kreplay::capture
