// Frees memory once the queues that could still use it have run past the point of the free (as
// the host driver does): each release waits on fences of those queues, then frees, on one thread
// of its own, so neither JavaScript nor a queue waits for it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kreplay::cuda {

class CudaReleaseWorker {
 public:
  CudaReleaseWorker();
  ~CudaReleaseWorker();
  CudaReleaseWorker(const CudaReleaseWorker&) = delete;
  CudaReleaseWorker& operator=(const CudaReleaseWorker&) = delete;

  /** Calls every fence, then `release`, on the worker thread, after the releases added before. */
  void add(std::vector<std::function<void()>> fences, std::function<void()> release);
  /** How many releases were added so far: a mark to wait for with waitFor. */
  std::uint64_t added();
  /**
   * Waits until the first `count` releases are done. A queue's thread may wait for the releases
   * added before its operation was enqueued (their fences come before it in the queue), never for later ones.
   */
  void waitFor(std::uint64_t count);
  /** Runs what was added, then joins the thread. Idempotent. */
  void stop();

 private:
  struct Release {
    std::vector<std::function<void()>> fences;
    std::function<void()> release;
  };
  void loop();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Release> pending_;
  std::uint64_t added_ = 0;
  std::uint64_t finished_ = 0;
  std::condition_variable finishedChanged_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kreplay::cuda
