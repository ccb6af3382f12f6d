#include "drivers/cuda/cuda-release-worker.hpp"

namespace kreplay::cuda {

CudaReleaseWorker::CudaReleaseWorker() : thread_([this] { loop(); }) {}

CudaReleaseWorker::~CudaReleaseWorker() {
  stop();
}

void CudaReleaseWorker::add(std::vector<std::function<void()>> fences, std::function<void()> release) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      pending_.push_back({std::move(fences), std::move(release)});
      added_ += 1;
      wake_.notify_one();
      return;
    }
  }
  for (const auto& fence : fences) fence();
  release();
}

std::uint64_t CudaReleaseWorker::added() {
  std::lock_guard<std::mutex> lock(mutex_);
  return added_;
}

void CudaReleaseWorker::waitFor(std::uint64_t count) {
  std::unique_lock<std::mutex> lock(mutex_);
  finishedChanged_.wait(lock, [this, count] { return finished_ >= count; });
}

void CudaReleaseWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CudaReleaseWorker::loop() {
  for (;;) {
    Release next;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;
      next = std::move(pending_.front());
      pending_.pop_front();
    }
    try {
      for (const auto& fence : next.fences) fence();
      next.release();
    } catch (...) {
      // A free that fails leaves the memory to the context's end; nothing may escape the thread.
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ += 1;
    }
    finishedChanged_.notify_all();
  }
}

}  // namespace kreplay::cuda
