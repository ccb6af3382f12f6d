// A queue's completion thread: it waits, in order, for the events the queue records (synchronize
// and fence markers, timing events, points after which memory may be freed) and runs what each
// was waiting for. Waiting polls briefly (a short batch answers fast), then blocks in
// cuEventSynchronize on a blocking-sync event (a long one burns no CPU).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "drivers/cuda/cuda-context.hpp"

namespace kreplay::cuda {

class CudaCompletions {
 public:
  /** Runs with the result of waiting for the event (CUDA_SUCCESS, or the error the device reported). */
  using After = std::function<void(CUresult)>;

  explicit CudaCompletions(std::shared_ptr<const CudaContext> context);
  ~CudaCompletions();
  CudaCompletions(const CudaCompletions&) = delete;
  CudaCompletions& operator=(const CudaCompletions&) = delete;

  /** Runs `after` on the completion thread once `event` (already recorded) has completed. */
  void add(std::shared_ptr<CudaEventHandle> event, After after);
  /** Finishes every pending wait, then joins the thread. Idempotent. */
  void stop();

 private:
  struct Pending {
    std::shared_ptr<CudaEventHandle> event;
    After after;
  };
  void loop();
  CUresult waitFor(CUevent event) const;

  std::shared_ptr<const CudaContext> context_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> pending_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace kreplay::cuda
