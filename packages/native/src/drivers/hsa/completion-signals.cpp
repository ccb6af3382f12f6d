#include "drivers/hsa/completion-signals.hpp"

namespace kreplay::hsa {

Completion completionOf(std::int64_t value) {
  if (value > 0) return Completion::Pending;
  return value == 0 ? Completion::Complete : Completion::Overrun;
}

CompletionWait waitForCompletion(SignalAccess& access, std::uint64_t signal, std::uint64_t sliceNanoseconds,
                                 const std::function<bool()>& abandon) {
  for (;;) {
    const std::int64_t value = access.waitBelow(signal, 1, sliceNanoseconds);
    if (value < 1) return {completionOf(value), value, false};
    if (abandon && abandon()) return {Completion::Pending, value, true};
  }
}

SignalPool::~SignalPool() {
  for (const auto handle : idle_) access_.destroy(handle);
}

SignalReference SignalPool::acquire(std::int64_t initial) {
  std::uint64_t handle = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      handle = idle_.back();
      idle_.pop_back();
    }
  }
  if (handle) {
    access_.store(handle, initial);
  } else {
    handle = access_.create(initial);
    std::lock_guard<std::mutex> lock(mutex_);
    created_ += 1;
  }
  auto self = shared_from_this();
  return SignalReference(new PooledSignal{handle}, [self](const PooledSignal* signal) {
    self->release(signal->handle);
    delete signal;
  });
}

void SignalPool::release(std::uint64_t handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_.push_back(handle);
}

std::size_t SignalPool::created() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return created_;
}

std::size_t SignalPool::idle() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return idle_.size();
}

}  // namespace kreplay::hsa
