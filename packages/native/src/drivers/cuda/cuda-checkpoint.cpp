#include "drivers/cuda/cuda-checkpoint.hpp"

#include <chrono>

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

namespace {

const char* stepName(int step) {
  static const char* names[] = {"checkpoint-save", "checkpoint-restore", "checkpoint-free"};
  return names[step];
}

CuptiCheckpoint freshHandle(CUcontext context) {
  CuptiCheckpoint handle{};
  handle.structSize = sizeof(CuptiCheckpoint);
  handle.ctx = context;
  handle.reserveDeviceMB = 0;
  handle.reserveHostMB = 0;
  handle.allowOverwrite = 1;
  handle.optimizations = CUPTI_CHECKPOINT_OPT_NONE;
  handle.pPriv = nullptr;
  return handle;
}

}  // namespace

CudaCheckpointSession::CudaCheckpointSession(std::shared_ptr<const CuptiCheckpointLibrary> library,
                                             std::shared_ptr<CudaQueue> queue,
                                             std::shared_ptr<CudaReleaseWorker> releases)
    : library_(std::move(library)),
      queue_(std::move(queue)),
      releases_(std::move(releases)),
      context_(queue_->device()->context()) {
  handle_ = freshHandle(context_->handle());
}

CudaCheckpointSession::~CudaCheckpointSession() {
  releaseNow();
}

void CudaCheckpointSession::save(Done done) {
  run(Step::Save, std::move(done));
}

void CudaCheckpointSession::restore(Done done) {
  run(Step::Restore, std::move(done));
}

void CudaCheckpointSession::release(Done done) {
  run(Step::Release, std::move(done));
}

void CudaCheckpointSession::run(Step step, Done done) {
  auto self = shared_from_this();
  auto callback = std::make_shared<Done>(std::move(done));
  // Memory freed before this step is freed by the driver's release thread once the queues pass the
  // free; the step waits for it, so that no allocation it saves or restores is freed meanwhile.
  const std::uint64_t freesBefore = releases_->added();
  const bool queued = queue_->enqueueControl([self, step, callback, freesBefore] {
    const char* name = stepName(static_cast<int>(step));
    double milliseconds = 0;
    try {
      self->releases_->waitFor(freesBefore);
      const CudaApi& api = self->context_->api();
      check(api, api.cuCtxSynchronize(), "cuCtxSynchronize");
      const auto started = std::chrono::steady_clock::now();
      self->perform(step);
      milliseconds =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    } catch (const OperationFailure& failure) {
      return (*callback)(OperationError{name, failure.code(), failure.what(), -1}, 0);
    } catch (const std::exception& exception) {
      return (*callback)(OperationError{name, "internal", exception.what(), -1}, 0);
    }
    (*callback)(std::nullopt, milliseconds);
  });
  if (!queued) {
    (*callback)(
        OperationError{stepName(static_cast<int>(step)), "queue-disposed", "the queue was shut down", -1}, 0);
  }
}

void CudaCheckpointSession::perform(Step step) {
  std::lock_guard<std::mutex> lock(mutex_);
  const CuptiCheckpointApi& api = library_->api;
  switch (step) {
    case Step::Save:
      checkCupti(api.cuptiCheckpointSave(&handle_), "cuptiCheckpointSave");
      saved_ = true;
      break;
    case Step::Restore:
      if (!saved_) throw OperationFailure("not-saved", "restore before any save");
      checkCupti(api.cuptiCheckpointRestore(&handle_), "cuptiCheckpointRestore");
      break;
    case Step::Release:
      if (!saved_) return;
      saved_ = false;
      {
        const CUptiResult result = api.cuptiCheckpointFree(&handle_);
        handle_ = freshHandle(context_->handle());
        checkCupti(result, "cuptiCheckpointFree");
      }
      break;
  }
}

void CudaCheckpointSession::releaseNow() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!saved_) return;
  saved_ = false;
  if (context_->tryMakeCurrent()) library_->api.cuptiCheckpointFree(&handle_);
  handle_ = freshHandle(context_->handle());
}

}  // namespace kreplay::cuda
