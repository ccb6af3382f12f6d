// A fixed pool of worker threads that queues share for big copies, hashes and kernels.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kreplay {

class ThreadPool {
 public:
  /** Starts `threads` workers (at least 1). */
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()); }

  /**
   * Runs `body(task)` for every task in [0, taskCount) on the workers and the calling thread, and
   * returns when all are done. Several threads may call it at once. Rethrows the first exception.
   */
  void parallelFor(std::size_t taskCount, const std::function<void(std::size_t)>& body);

 private:
  struct Job;
  void workerLoop();
  static void runTasks(Job& job);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace kreplay
