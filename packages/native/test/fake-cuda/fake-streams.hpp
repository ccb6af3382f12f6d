// Streams and events of the fake libcuda: a stream is a worker thread running its work in order;
// an event completes, with a host timestamp, when its stream reaches the point it was recorded at.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

struct CUgraphNode_st;

inline std::uint64_t nowNanoseconds() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

struct CUstream_st {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::function<void()>> work;
  bool busy = false;
  bool stopping = false;
  // Stream capture (fake-stream-capture.cpp): the capture this stream takes part in (0: none) and the nodes
  // its next captured work depends on.
  std::uint64_t capture = 0;
  std::vector<CUgraphNode_st*> captureDependencies;
  std::thread worker;

  CUstream_st() : worker([this] { loop(); }) {}

  void push(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      work.push_back(std::move(task));
    }
    changed.notify_all();
  }

  void drain() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [this] { return work.empty() && !busy; });
  }

  void loop() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [this] { return stopping || !work.empty(); });
        if (work.empty()) return;
        task = std::move(work.front());
        work.pop_front();
        busy = true;
      }
      task();
      {
        std::lock_guard<std::mutex> lock(mutex);
        busy = false;
      }
      changed.notify_all();
    }
  }

  ~CUstream_st() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    worker.join();
  }
};

struct CUevent_st {
  std::mutex mutex;
  std::condition_variable changed;
  std::uint64_t recorded = 0;
  std::uint64_t completed = 0;
  std::uint64_t time = 0;
  // Recorded on a capturing stream: the capture and the nodes a wait on this event depends on.
  std::uint64_t capture = 0;
  std::vector<CUgraphNode_st*> captureDependencies;

  void complete(std::uint64_t generation) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (generation > completed) completed = generation;
      time = nowNanoseconds();
    }
    changed.notify_all();
  }

  void waitFor(std::uint64_t generation) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return completed >= generation; });
  }
};

namespace kreplay_fake {

/** Puts `task` on `stream`'s worker, or runs it now on the null stream. */
inline void runOn(CUstream_st* stream, std::function<void()> task) {
  if (stream) {
    stream->push(std::move(task));
  } else {
    task();
  }
}

}  // namespace kreplay_fake
