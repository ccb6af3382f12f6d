#include "drivers/cuda/cuda-profiler-session.hpp"

#include <utility>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/cupti-device-config.hpp"

namespace kreplay::cuda {

namespace {

/**
 * The wait between a dispatch range's flush and its push: it keeps the device busy while the range
 * is pushed and the dispatch's kernel launched, so that the range begins with the kernel instead of
 * waiting for its launch (which measured 30-60 us on an H200). It still holds a few microseconds
 * around the kernel: a 200 us kernel read 8-10% lower percentages than ncu.
 */
constexpr std::uint64_t kRunwayNanoseconds = 200000;

}  // namespace

CudaProfilerSession::CudaProfilerSession(std::shared_ptr<const CuptiProfilerLibrary> library,
                                         std::shared_ptr<CudaDevice> device,
                                         const std::vector<std::string>& metrics, ProfilerRange range,
                                         ProfilerConditions conditions)
    : library_(std::move(library)), device_(std::move(device)), kernelRange_(range == ProfilerRange::Kernel) {
  device_->context()->makeCurrent();
  config_ = cuptiDeviceConfig(library_, *device_->context(), metrics);
  plan_ = config_->plan();
  profiler_ = std::make_unique<CuptiRangeProfiler>(library_, device_->context()->handle(), *config_, kernelRange_);
  flush_ = std::make_unique<CudaL2Flush>(device_, conditions.l2Flush);
  try {
    instructions_ = std::make_unique<CudaInstructionEviction>(device_, conditions.evictInstructionCaches);
  } catch (...) {
    flush_->release();
    throw;
  }
}

CudaProfilerSession::~CudaProfilerSession() {
  release();
}

std::shared_ptr<CudaQueue> CudaProfilerSession::cudaQueue(const std::shared_ptr<Queue>& queue) {
  auto cuda = std::dynamic_pointer_cast<CudaQueue>(queue);
  if (!cuda) throw std::logic_error("the profiler needs a queue of the cuda driver");
  return cuda;
}

void CudaProfilerSession::beginPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass, PassScope scope) {
  auto cuda = cudaQueue(queue);
  auto self = shared_from_this();
  cuda->enqueueControl([self, cuda, pass, scope] { self->begin(*cuda, pass, scope); });
}

void CudaProfilerSession::beginDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t, std::uint32_t index) {
  auto cuda = cudaQueue(queue);
  auto self = shared_from_this();
  cuda->enqueueControl([self, cuda, index] { self->beginInRange(*cuda, index); });
}

void CudaProfilerSession::endDispatch(const std::shared_ptr<Queue>& queue, std::uint32_t, std::uint32_t) {
  auto cuda = cudaQueue(queue);
  auto self = shared_from_this();
  cuda->enqueueControl([self] { self->endInRange(); });
}

void CudaProfilerSession::endPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass) {
  auto cuda = cudaQueue(queue);
  auto self = shared_from_this();
  cuda->enqueueControl([self, pass] { self->end(pass); });
}

void CudaProfilerSession::fail(const char* step, const OperationFailure& failure) {
  if (!error_) error_ = OperationError{step, failure.code(), failure.what(), -1};
}

void CudaProfilerSession::openWindow(PassScope scope) {
  if (dispatchOpen_) profiler_->disable();  // a dispatch that did not finish: start from a fresh profiler
  dispatchOpen_ = true;
  // A flush between a range's dispatches is a kernel of its own under the automatic range.
  ranges_.open(scope.dispatches, kernelRange_ && scope.flushBetweenDispatches && flush_->flushes());
  flushBetweenDispatches_ = scope.flushBetweenDispatches;
  dispatch_ += 1;
  passesStopped_ = 0;
  allSubmitted_ = false;
  error_.reset();
}

void CudaProfilerSession::begin(CudaQueue& queue, std::uint32_t pass, PassScope scope) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_) return;
  try {
    if (pass == 1) openWindow(scope);
    if (error_) return;
    const CudaApi& cuda = device_->api();
    check(cuda, cuda.cuCtxSynchronize(), "cuCtxSynchronize");  // every earlier write is done
    if (pass == 1) {
      profiler_->prepare(ranges_.perPass());
    } else if (pass <= passesStopped_) {
      profiler_->setConfig(pass - 1);  // the caller runs this pass again
      passesStopped_ = pass - 1;
    }
    if (kernelRange_) {
      // The range is the next kernel: the prologue ends before the pass starts, so it is not profiled.
      instructions_->enqueue(queue.stream());
      flush_->enqueue(queue.stream());
      check(cuda, cuda.cuStreamSynchronize(queue.stream()), "cuStreamSynchronize");
    }
    profiler_->start();
    if (kernelRange_ || ranges_.dispatches() > 1) return;  // a range pushes at each beginDispatch
    pushRange(queue, 0);
  } catch (const OperationFailure& failure) {
    fail("profiler-begin-pass", failure);
  } catch (const std::exception& exception) {
    fail("profiler-begin-pass", OperationFailure("internal", exception.what()));
  }
}

void CudaProfilerSession::pushRange(CudaQueue& queue, std::uint32_t index) {
  // In stream order after the start: the prologue and the wait keep the device busy while the
  // range is pushed and the kernel launched, and stay outside the range.
  if (index == 0) instructions_->enqueue(queue.stream());
  if (index == 0 || flushBetweenDispatches_) flush_->enqueue(queue.stream());
  launchKernel(*device_, device_->functions().delay, 1, 32, queue.stream(), kRunwayNanoseconds);
  profiler_->push(ranges_.name(index));
}

void CudaProfilerSession::beginInRange(CudaQueue& queue, std::uint32_t index) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_ || error_ || !profiler_->started() || ranges_.dispatches() <= 1) return;
  try {
    if (!kernelRange_) {
      pushRange(queue, index);
    } else if (index > 0 && flushBetweenDispatches_) {
      flush_->enqueue(queue.stream());  // a range of its own, dropped when the values are read
    }
  } catch (const OperationFailure& failure) {
    fail("profiler-begin-dispatch", failure);
  } catch (const std::exception& exception) {
    fail("profiler-begin-dispatch", OperationFailure("internal", exception.what()));
  }
}

void CudaProfilerSession::endInRange() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_ || error_ || ranges_.dispatches() <= 1) return;
  try {
    profiler_->pop();
  } catch (const OperationFailure& failure) {
    fail("profiler-end-dispatch", failure);
  }
}

void CudaProfilerSession::end(std::uint32_t pass) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_) return;
  try {
    profiler_->pop();
    if (profiler_->started()) {
      allSubmitted_ = profiler_->stop();
      passesStopped_ = pass;
    }
  } catch (const OperationFailure& failure) {
    fail("profiler-end-pass", failure);
  }
  if (pass < plan().passCount) return;
  // The last pass: decode and evaluate (or report why not), then stop profiling the context.
  std::vector<std::vector<double>> values;
  if (!error_) {
    try {
      values = decode();
    } catch (const OperationFailure& failure) {
      fail("profiler-decode", failure);
    }
  }
  dispatchOpen_ = false;
  if (error_) profiler_->disable();  // the next dispatch starts from a fresh profiler
  finish(error_, std::move(values));
}

std::vector<std::vector<double>> CudaProfilerSession::decode() {
  if (!allSubmitted_) {
    throw OperationFailure("cupti-passes",
                           "CUPTI wants more than the " + std::to_string(plan().passCount) + " passes it announced");
  }
  const CudaApi& cuda = device_->api();
  check(cuda, cuda.cuCtxSynchronize(), "cuCtxSynchronize");
  const CuptiRangeProfiler::Ranges decoded = profiler_->decode();
  if (decoded.recorded < 1) {
    throw OperationFailure("cupti-no-range", "CUPTI recorded no range (" + std::to_string(decoded.dropped) +
                                                 " dropped): did the dispatch launch a kernel?");
  }
  if (decoded.recorded != ranges_.perPass()) {
    throw OperationFailure("cupti-range-count",
                           "CUPTI recorded " + std::to_string(decoded.recorded) + " ranges (" +
                               std::to_string(decoded.dropped) + " dropped) where the window's " +
                               std::to_string(ranges_.dispatches()) + " dispatches make " +
                               std::to_string(ranges_.perPass()) + ": does each dispatch launch exactly one kernel?");
  }
  std::vector<std::vector<double>> values;
  for (std::uint32_t index = 0; index < ranges_.dispatches(); ++index)
    values.push_back(config_->evaluate(profiler_->counterData(), ranges_.of(index)));
  return values;
}

void CudaProfilerSession::finish(std::optional<OperationError> error, std::vector<std::vector<double>> values) {
  result_.dispatch = dispatch_;
  result_.error = std::move(error);
  result_.dispatchValues = result_.error ? std::vector<std::vector<double>>{} : std::move(values);
  result_.values = result_.dispatchValues.empty() ? std::vector<double>{} : result_.dispatchValues.front();
}

ProfilerResult CudaProfilerSession::result() {
  std::lock_guard<std::mutex> lock(mutex_);
  return result_;
}

void CudaProfilerSession::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_) return;
  released_ = true;
  if (!device_->context()->tryMakeCurrent()) return;
  profiler_->disable();
  device_->api().cuCtxSynchronize();
  flush_->release();
  instructions_->release();
}

}  // namespace kreplay::cuda
