#include "core/thread-pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>

namespace kreplay {

struct ThreadPool::Job {
  const std::function<void(std::size_t)>* body;
  std::size_t count;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex mutex;
  std::condition_variable finished;
  std::exception_ptr error;
};

ThreadPool::ThreadPool(unsigned threads) {
  const unsigned count = std::max(1u, threads);
  workers_.reserve(count);
  for (unsigned index = 0; index < count; ++index) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::runTasks(Job& job) {
  for (;;) {
    const std::size_t task = job.next.fetch_add(1);
    if (task >= job.count) return;
    try {
      (*job.body)(task);
    } catch (...) {
      std::lock_guard<std::mutex> lock(job.mutex);
      if (!job.error) job.error = std::current_exception();
    }
    if (job.done.fetch_add(1) + 1 == job.count) {
      std::lock_guard<std::mutex> lock(job.mutex);
      job.finished.notify_all();
    }
  }
}

void ThreadPool::workerLoop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = jobs_.front();
      if (job->next.load() >= job->count) {
        jobs_.pop_front();
        continue;
      }
    }
    runTasks(*job);
  }
}

void ThreadPool::parallelFor(std::size_t taskCount, const std::function<void(std::size_t)>& body) {
  if (taskCount == 0) return;
  if (taskCount == 1) {
    body(0);
    return;
  }
  auto job = std::make_shared<Job>();
  job->body = &body;
  job->count = taskCount;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(job);
  }
  if (taskCount == 2) {
    wake_.notify_one();
  } else {
    wake_.notify_all();
  }
  runTasks(*job);
  {
    std::unique_lock<std::mutex> lock(job->mutex);
    job->finished.wait(lock, [&] { return job->done.load() == job->count; });
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = std::find(jobs_.begin(), jobs_.end(), job);
    if (found != jobs_.end()) jobs_.erase(found);
  }
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace kreplay
