// The queues a driver has handed out, per agent, held weakly: what agent-wide fences, deferred frees
// and shutdown walk over. Every driver keeps one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace kreplay {

template <typename QueueType>
class QueueRegistry {
 public:
  void add(std::uint32_t agent, const std::shared_ptr<QueueType>& queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.push_back({agent, queue});
  }

  /** The live queues of `agent` (every agent when it is negative); destroyed ones are forgotten. */
  std::vector<std::shared_ptr<QueueType>> live(std::int64_t agent) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::shared_ptr<QueueType>> live;
    std::vector<Entry> kept;
    for (auto& entry : entries_) {
      auto queue = entry.queue.lock();
      if (!queue) continue;
      kept.push_back(entry);
      if (agent < 0 || entry.agent == agent) live.push_back(std::move(queue));
    }
    entries_.swap(kept);
    return live;
  }

  /** One fence per live queue of `agent`: each blocks until the work enqueued so far on it has run. */
  std::vector<std::function<void()>> fences(std::int64_t agent) {
    std::vector<std::function<void()>> fences;
    for (const auto& queue : live(agent)) fences.push_back(queue->fence());
    return fences;
  }

  /** A function that blocks until the work enqueued so far on every queue of `agent` has run. */
  std::function<void()> fence(std::int64_t agent) {
    return [fences = fences(agent)] {
      for (const auto& fence : fences) fence();
    };
  }

 private:
  struct Entry {
    std::uint32_t agent;
    std::weak_ptr<QueueType> queue;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace kreplay
