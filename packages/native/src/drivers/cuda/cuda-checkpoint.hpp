// A CUPTI checkpoint of one queue's context. Each step runs on the queue's submitting thread, in
// queue order: it waits until the context is idle (CUPTI requires it; this includes the work of
// other queues of the device), then calls cuptiCheckpointSave, Restore or Free. Saves go to device
// memory first (no reserve, no optimizations: CUPTI_CHECKPOINT_OPT_TRANSFER made restores slower
// when measured) and may overwrite the previous save.
#pragma once

#include <memory>
#include <mutex>

#include "core/checkpoint-session.hpp"
#include "drivers/cuda/cuda-queue.hpp"
#include "drivers/cuda/cuda-release-worker.hpp"
#include "drivers/cuda/cupti-checkpoint-api.hpp"

namespace kreplay::cuda {

class CudaCheckpointSession : public CheckpointSession,
                              public std::enable_shared_from_this<CudaCheckpointSession> {
 public:
  CudaCheckpointSession(std::shared_ptr<const CuptiCheckpointLibrary> library,
                        std::shared_ptr<CudaQueue> queue, std::shared_ptr<CudaReleaseWorker> releases);
  ~CudaCheckpointSession() override;

  void save(Done done) override;
  void restore(Done done) override;
  void release(Done done) override;
  /** Frees the checkpoint on the calling thread (driver shutdown, once the queues stopped). */
  void releaseNow() noexcept;

 private:
  enum class Step { Save, Restore, Release };
  void run(Step step, Done done);
  /** One step, the context current and idle. @throws OperationFailure. */
  void perform(Step step);

  std::shared_ptr<const CuptiCheckpointLibrary> library_;
  std::shared_ptr<CudaQueue> queue_;
  /** The driver's frees: a save or restore waits for those made before it, so no checkpointed allocation is freed under it. */
  std::shared_ptr<CudaReleaseWorker> releases_;
  std::shared_ptr<const CudaContext> context_;
  std::mutex mutex_;
  CuptiCheckpoint handle_{};
  bool saved_ = false;
};

}  // namespace kreplay::cuda
