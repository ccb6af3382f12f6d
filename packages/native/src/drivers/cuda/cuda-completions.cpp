#include "drivers/cuda/cuda-completions.hpp"

#include <chrono>

namespace kreplay::cuda {

namespace {

/** How long a wait polls before it blocks. */
constexpr auto kPollTime = std::chrono::microseconds(200);

}  // namespace

CudaCompletions::CudaCompletions(std::shared_ptr<const CudaContext> context)
    : context_(std::move(context)), thread_([this] { loop(); }) {}

CudaCompletions::~CudaCompletions() {
  stop();
}

void CudaCompletions::add(std::shared_ptr<CudaEventHandle> event, After after) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back({std::move(event), std::move(after)});
  }
  wake_.notify_one();
}

void CudaCompletions::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

CUresult CudaCompletions::waitFor(CUevent event) const {
  const CudaApi& api = context_->api();
  const auto deadline = std::chrono::steady_clock::now() + kPollTime;
  do {
    const CUresult result = api.cuEventQuery(event);
    if (result != CUDA_ERROR_NOT_READY) return result;
    std::this_thread::yield();
  } while (std::chrono::steady_clock::now() < deadline);
  return api.cuEventSynchronize(event);
}

void CudaCompletions::loop() {
  for (;;) {
    Pending next;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;
      next = std::move(pending_.front());
      pending_.pop_front();
    }
    // Made current each time: what ran after the previous wait may have switched contexts.
    const CUresult result =
        context_->tryMakeCurrent() ? waitFor(next.event->get()) : CUDA_ERROR_INVALID_CONTEXT;
    try {
      next.after(result);
    } catch (...) {
      // What runs after a wait settles promises and frees memory; nothing may escape the thread.
    }
  }
}

}  // namespace kreplay::cuda
