// The queues a driver has handed out, per agent, held weakly: what agent-wide fences, deferred frees
// and shutdown walk over. Every driver keeps one.
#pragma once

#include <atomic>
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

  /**
   * Runs `release` once every live queue of `agent` (every agent when negative) has reached the point
   * it is at now; on a thread of the last queue to get there, or at once when there is none. Needs
   * `QueueType::enqueueControl(std::function<void()>)`, false when the queue has stopped.
   */
  void releaseAfter(std::int64_t agent, std::function<void()> release) {
    const auto queues = live(agent);
    auto remaining = std::make_shared<std::atomic<std::size_t>>(queues.size() + 1);
    auto shared = std::make_shared<std::function<void()>>(std::move(release));
    const auto passed = [remaining, shared] {
      if (remaining->fetch_sub(1) == 1) (*shared)();
    };
    for (const auto& queue : queues) {
      if (!queue->enqueueControl(passed)) passed();
    }
    passed();
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
