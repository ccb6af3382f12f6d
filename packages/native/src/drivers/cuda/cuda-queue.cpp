#include "drivers/cuda/cuda-queue.hpp"

#include <chrono>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-graph.hpp"

namespace kreplay::cuda {

namespace {

// How long the submitting thread keeps looking for the next operation before it sleeps. A window's
// operations arrive a few microseconds apart; waking a sleeping thread for each would add its
// wake-up latency to every operation while the device waits for it. On an H200 a tiny kernel
// enqueued and waited for took 30-33 us with this spin and 39-71 us sleeping at once; a 2 ms spin
// gained nothing more (packages/bench/examples/submit-spin-ab-h200.txt, submit-spin-2ms-ab-h200.txt).
constexpr std::chrono::microseconds kSpinBeforeSleeping{100};

}  // namespace

CudaQueue::CudaQueue(std::shared_ptr<CudaDriverContext> driver, std::uint32_t agent)
    : driver_(std::move(driver)),
      device_(driver_->devices.at(agent)),
      agent_(agent),
      work_(std::make_unique<CudaStreamWork>(driver_, agent)),
      completions_(std::make_unique<CudaCompletions>(device_->context())),
      submitter_([this] { submitLoop(); }) {}

CudaQueue::~CudaQueue() {
  shutdown();
}

bool CudaQueue::push(Operation operation) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return false;
    if (operation.work) operation.workIndex = submittedWork_++;
    operations_.push_back(std::move(operation));
    pending_.store(operations_.size(), std::memory_order_release);
  }
  wake_.notify_one();
  return true;
}

void CudaQueue::submitLoop() {
  const bool current = device_->context()->tryMakeCurrent();
  for (;;) {
    Operation operation;
    const auto spinUntil = std::chrono::steady_clock::now() + kSpinBeforeSleeping;
    while (pending_.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < spinUntil) {
      std::this_thread::yield();
    }
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !operations_.empty(); });
      if (operations_.empty()) return;
      operation = std::move(operations_.front());
      operations_.pop_front();
      pending_.store(operations_.size(), std::memory_order_release);
    }
    if (!current && operation.work && !error_) {
      error_ = OperationError{operationName(operation.kind), "CUDA_ERROR_INVALID_CONTEXT",
                              "the device's context could not be made current", operation.workIndex};
    }
    execute(operation);
  }
}

void CudaQueue::execute(Operation& operation) {
  if (!operation.work) {
    try {
      operation.run();
    } catch (const OperationFailure& failure) {
      if (!error_) error_ = OperationError{"queue", failure.code(), failure.what(), -1};
    } catch (const std::exception& exception) {
      if (!error_) error_ = OperationError{"queue", "internal", exception.what(), -1};
    } catch (...) {
    }
    return;
  }
  if (error_) return;
  const char* name = operationName(operation.kind);
  try {
    const FaultDecision decision = driver_->faults.check(operation.kind, agent_);
    if (decision.delayMilliseconds > 0) work_->delay(decision.delayMilliseconds);
    if (decision.fail) {
      error_ = OperationError{name, "injected-fault", std::string("an injected fault failed this ") + name,
                              operation.workIndex};
      return;
    }
    currentWorkIndex_ = operation.workIndex;
    operation.run();
  } catch (const OperationFailure& failure) {
    error_ = OperationError{name, failure.code(), failure.what(), operation.workIndex};
  } catch (const std::exception& exception) {
    error_ = OperationError{name, "internal", exception.what(), operation.workIndex};
  } catch (...) {
    error_ = OperationError{name, "internal", "an unknown C++ exception", operation.workIndex};
  }
}

void CudaQueue::enqueueCopy(std::vector<Segment> segments) {
  // A plan that moves no bytes has no effect, so it costs nothing unless a fault could count it.
  bool empty = true;
  for (const auto& segment : segments) empty = empty && segment.bytes == 0;
  if (empty && !driver_->faults.armed()) {
    std::lock_guard<std::mutex> lock(mutex_);
    submittedWork_ += 1;  // still numbered, as TypeScript counts it
    return;
  }
  pushWork(OperationKind::Copy, [this, segments = std::move(segments)] { work_->copy(segments); });
}

void CudaQueue::enqueueHash(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint64_t hashesAddress) {
  pushWork(OperationKind::Hash, [this, ranges = std::move(ranges), pageBytes, hashesAddress] {
    work_->hash(ranges, pageBytes, hashesAddress, false);
  });
}

void CudaQueue::enqueueHashToHost(std::vector<Range> ranges, std::uint64_t pageBytes, std::uint8_t* hashes) {
  pushWork(OperationKind::Hash, [this, ranges = std::move(ranges), pageBytes, hashes] {
    work_->hash(ranges, pageBytes, addressOf(hashes), true);
  });
}

void CudaQueue::enqueueConditionalCopy(ConditionalCopy options) {
  pushWork(OperationKind::ConditionalCopy,
           [this, options = std::move(options)] { work_->copyChangedPages(options); });
}

void CudaQueue::enqueuePageListCopy(PageListCopy options) {
  pushWork(OperationKind::ConditionalCopy,
           [this, options = std::move(options)] { work_->copyPageList(options, currentWorkIndex_); });
}

void CudaQueue::enqueueKernel(BuiltinKernel kernel, std::vector<std::uint64_t> arguments) {
  pushWork(OperationKind::Kernel,
           [this, kernel, arguments = std::move(arguments)] { work_->builtinKernel(kernel, arguments); });
}

void CudaQueue::enqueueUserKernel(std::uint32_t kernel, const LaunchShape& shape, UserKernelArguments arguments) {
  pushWork(OperationKind::Kernel, [this, kernel, shape, arguments = std::move(arguments)] {
    work_->userKernel(kernel, shape, arguments);
  });
}

void CudaQueue::enqueueGraph(std::shared_ptr<KernelGraph> graph) {
  auto cudaGraph = std::dynamic_pointer_cast<CudaKernelGraph>(graph);
  if (!cudaGraph || cudaGraph->agent() != agent_) throw std::logic_error("enqueueGraph needs a graph of this queue's agent made by the cuda driver");
  pushWork(OperationKind::Kernel, [this, cudaGraph = std::move(cudaGraph)] {
    const CudaApi& api = device_->api();
    check(api, api.cuGraphLaunch(cudaGraph->executable(), work_->stream()), "cuGraphLaunch");
  });
}

AllocationResult CudaQueue::enqueueAllocate(std::uint64_t bytes) {
  const CudaApi& api = device_->api();
  device_->context()->makeCurrent();
  const auto available = [&] {
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    return api.cuMemGetInfo(&freeBytes, &totalBytes) == CUDA_SUCCESS ? std::uint64_t{freeBytes} : 0;
  };
  if (driver_->faults.check(OperationKind::Allocate, agent_).fail) return {0, true, available()};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return {0, false, available()};
  }
  // Reserved now, in stream order: the memory is usable by work enqueued on this queue from here on.
  CUdeviceptr pointer = 0;
  const CUresult result = device_->memoryPools() ? api.cuMemAllocAsync(&pointer, bytes, work_->stream())
                                                 : api.cuMemAlloc(&pointer, bytes);
  if (result != CUDA_SUCCESS) return {0, false, available()};
  driver_->memory.add(pointer, {bytes, CudaMemoryKind::StreamOrdered, agent_, pointer});
  return {pointer, false, available()};
}

void CudaQueue::enqueueFree(std::uint64_t address) {
  if (!driver_->memory.remove(address)) return;
  const bool queued = push({OperationKind::Any, false, [this, address] {
                              const CudaApi& api = device_->api();
                              if (device_->memoryPools()) {
                                check(api, api.cuMemFreeAsync(address, work_->stream()), "cuMemFreeAsync");
                              } else {
                                check(api, api.cuStreamSynchronize(work_->stream()), "cuStreamSynchronize");
                                check(api, api.cuMemFree(address), "cuMemFree");
                              }
                            }});
  if (!queued && device_->context()->tryMakeCurrent())
    device_->api().cuMemFree(address);  // the stream is idle
}

bool CudaQueue::enqueueControl(std::function<void()> task) {
  return push({OperationKind::Any, false, std::move(task)});
}

void CudaQueue::shutdown() {
  std::lock_guard<std::mutex> serialized(shutdownMutex_);
  if (!submitter_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  submitter_.join();
  completions_->stop();
  work_.reset();
  std::lock_guard<std::mutex> lock(markersMutex_);
  spareMarkers_.clear();
}

}  // namespace kreplay::cuda
