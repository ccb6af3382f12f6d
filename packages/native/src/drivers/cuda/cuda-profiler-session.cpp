#include "drivers/cuda/cuda-profiler-session.hpp"

#include <algorithm>
#include <utility>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/cupti-device-chip.hpp"
#include "drivers/cuda/profiler-l2-flush.hpp"
#include "drivers/cuda/profiler-setting.hpp"
#include "kernels-cuda/kernel-abi.h"

namespace kreplay::cuda {

namespace {

constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
const char* const kRangeName = "kreplay-dispatch";
constexpr std::uint64_t kRunwayNanoseconds = 200000;

std::string supportProblem(const CuptiDeviceSupportedParams& supported) {
  const std::pair<int, const char*> parts[] = {
      {supported.architecture, "its architecture (compute capability 7.0 or newer is needed)"},
      {supported.sli, "SLI"},
      {supported.vGpu, "vGPU (profiling is disabled or unsupported there)"},
      {supported.confidentialCompute, "confidential computing"},
      {supported.cmp, "a CMP device"},
      {supported.wsl, "WSL"}};
  for (const auto& [level, what] : parts) {
    if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return what;
  }
  return "an unknown reason";
}

/**
 * How many times the L2 flush reads its buffer (KREPLAY_PROFILER_L2_FLUSH_ROUNDS, 1 to 16, default 1;
 * `read`, `discard` and `write` only). An experiment: should the L2 keep lines that were hit again and again (a
 * GEMM's inputs, through the passes before) ahead of lines read once, one read of the buffer would
 * leave them there, and the kernel would read less from DRAM than after ncu's invalidation.
 */
std::uint64_t l2FlushRounds() {
  return profilerSetting(
      "KREPLAY_PROFILER_L2_FLUSH_ROUNDS", 1, [](std::uint64_t value) { return value >= 1 && value <= 16; },
      "not a whole number from 1 to 16");
}

/**
 * KiB of the flush buffer written after each flush (KREPLAY_PROFILER_L2_DIRTY_KIB, 2560 by default, 0
 * for none): the pass then starts with that many dirty lines in the L2 that are not the kernel's,
 * and the kernel's evictions write them back to DRAM, as under ncu. Under `ncu --cache-control all`,
 * kernels that stream more than the L2 holds wrote 64-78 thousand sectors (2.0-2.5 MB) more to DRAM
 * than after a clean flush (dram__sectors_write, on an H100 and an H200), whatever they wrote
 * themselves; kernels that stream less wrote the same. At most 1048576 KiB, and no more than the
 * flush buffer.
 */
std::uint64_t l2DirtyBytes() {
  return 1024 * profilerSetting(
                    "KREPLAY_PROFILER_L2_DIRTY_KIB", 2560, [](std::uint64_t value) { return value <= (1u << 20); },
                    "not a whole number of KiB up to 1048576");
}

/**
 * Where the L2 flush goes (KREPLAY_PROFILER_L2_FLUSH_AT, an experiment): right before each pass
 * (`pass`, the default: the restore's writes are written back and the pass starts clean), or after
 * the run before it, ahead of the restore (`restore`: the pass starts with the restored lines in
 * the L2, dirty, as it would if ncu flushed before restoring the memory the kernel writes). A pass
 * that no run of the session's dispatch precedes is flushed before it either way.
 */
bool flushBeforeRestore() {
  return profilerChoice("KREPLAY_PROFILER_L2_FLUSH_AT", false, {{"pass", false}, {"restore", true}});
}

/**
 * The bytes between two loads of the touch before each pass: KREPLAY_PROFILER_TOUCH_STRIDE (a power of
 * two of at least 4 KiB), or 0 (the default) for no touch. An experiment's switch: touching the
 * memory a captured kernel can reach, as a full restore does, brought the kernels' durations closer
 * to ncu's on an H200 and their l1tex throughput further from it
 * (bench/scripts/capture-acceptance/touch-experiment.sh).
 */
std::uint64_t touchStride() {
  return profilerSetting(
      "KREPLAY_PROFILER_TOUCH_STRIDE", 0,
      [](std::uint64_t value) { return value == 0 || (value >= 4096 && (value & (value - 1)) == 0); },
      "not 0 or a power of two of at least 4096 bytes");
}

/**
 * The device's busy time ahead of each pass's kernel in the kernel range: KREPLAY_PROFILER_RUNWAY_NS
 * nanoseconds of a one-block wait kernel enqueued after the flush, before the range starts, so that
 * the kernel's launch is queued while the device is still busy rather than reaching an idle device
 * (0, the default: none).
 */
std::uint64_t kernelRunwayNanoseconds() {
  return profilerSetting(
      "KREPLAY_PROFILER_RUNWAY_NS", 0, [](std::uint64_t value) { return value <= 10'000'000; },
      "not a whole number of nanoseconds up to 10000000");
}

/**
 * Who replays the kernel for CUPTI's passes (KREPLAY_PROFILER_REPLAY, an experiment): kreplay, once
 * per pass with its own restores between them (`user`, the default), or CUPTI inside one pass of
 * kreplay's (`kernel`: CUPTI's kernel replay, which saves and restores memory itself), to tell the
 * state CUPTI's own passes start from apart from the state kreplay's passes start from.
 */
bool cuptiReplaysKernel() {
  return profilerChoice("KREPLAY_PROFILER_REPLAY", false, {{"user", false}, {"kernel", true}});
}

/**
 * How the touch loads (KREPLAY_PROFILER_TOUCH): a copy engine's pitched copy (`copy`, the default),
 * a kernel whose loads are spread over its threads (`kernel`: the translations reach the shared
 * levels and the few multiprocessors that ran it), or a block on every multiprocessor each making
 * every load (`every-multiprocessor`: each multiprocessor holds the translations).
 */
TouchBy touchBy() {
  return profilerChoice("KREPLAY_PROFILER_TOUCH", TouchBy::Copy,
                        {{"copy", TouchBy::Copy},
                         {"kernel", TouchBy::Kernel},
                         {"every-multiprocessor", TouchBy::EveryMultiprocessor}});
}

}  // namespace

CudaProfilerSession::CudaProfilerSession(std::shared_ptr<const CuptiProfilerLibrary> library,
                                         std::shared_ptr<CudaDevice> device,
                                         const std::vector<std::string>& metrics, ProfilerRange range,
                                         ReachableMemory reachable)
    : library_(std::move(library)),
      device_(std::move(device)),
      kernelRange_(range == ProfilerRange::Kernel),
      flushMode_(l2FlushBeforeEachPass()),
      flushRounds_(l2FlushRounds()),
      flushBeforeRestore_(flushBeforeRestore()),
      dirtyBytes_(l2DirtyBytes()),
      reachable_(std::move(reachable)),
      touchStride_(touchStride()),
      touchBy_(touchBy()),
      kernelRunwayNanoseconds_(kernelRunwayNanoseconds()),
      cuptiReplaysKernel_(cuptiReplaysKernel()) {
  if (cuptiReplaysKernel_ && !kernelRange_) {
    throw OperationFailure("invalid-argument",
                           "KREPLAY_PROFILER_REPLAY=kernel needs the kernel range: CUPTI replays only automatic ranges "
                           "itself. Leave --measure at kernel, or unset KREPLAY_PROFILER_REPLAY");
  }
  const CuptiProfilerApi& api = library_->api;
  const CudaApi& cuda = device_->api();
  device_->context()->makeCurrent();
  initializeCuptiProfiler(api);
  auto supported =
      cuptiParams<CuptiDeviceSupportedParams>(KREPLAY_CUPTI_STRUCT_SIZE(CuptiDeviceSupportedParams, api));
  supported.cuDevice = device_->context()->device();
  supported.api = CUPTI_PROFILER_RANGE_PROFILING;
  api.check(api.cuptiProfilerDeviceSupported(&supported), "cuptiProfilerDeviceSupported");
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    throw OperationFailure("CUPTI_ERROR_NOT_SUPPORTED",
                           "CUPTI cannot profile this device: " + supportProblem(supported));
  }
  const std::string chip = cuptiDeviceChipName(*library_, *device_);
  auto availability = cuptiParams<CuptiGetCounterAvailabilityParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiGetCounterAvailabilityParams, pCounterAvailabilityImage));
  availability.ctx = device_->context()->handle();
  api.check(api.cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
  std::vector<std::uint8_t> image(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = image.data();
  api.check(api.cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
  config_ = std::make_unique<CuptiMetricConfig>(library_, chip, std::move(image), metrics);
  plan_ = config_->plan();
  if (cuptiReplaysKernel_) plan_.passCount = 1;
  // The L2 flush: a buffer twice the L2 (at least 8 MiB) read by the driver's XOR-reduction kernel,
  // whose only write is one word of a private state.
  int l2Bytes = 0;
  cuda.cuDeviceGetAttribute(&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device_->context()->device());
  flushBytes_ = std::max<std::uint64_t>(8u << 20, 2 * static_cast<std::uint64_t>(l2Bytes));
  if (dirtyBytes_ > flushBytes_) {
    throw OperationFailure("invalid-argument", "KREPLAY_PROFILER_L2_DIRTY_KIB=" + std::to_string(dirtyBytes_ / 1024) +
                                                   " is more than the flush buffer's " +
                                                   std::to_string(flushBytes_ / 1024) +
                                                   " KiB (twice this device's L2); name fewer KiB");
  }
  check(cuda, cuda.cuMemAlloc(&flush_, flushBytes_), "cuMemAlloc");
  if (cuda.cuMemAlloc(&flushState_, sizeof(KreplayQueueState)) != CUDA_SUCCESS ||
      cuda.cuMemsetD8Async(flush_, 0x5a, flushBytes_, nullptr) != CUDA_SUCCESS ||
      cuda.cuMemsetD8Async(flushState_, 0, sizeof(KreplayQueueState), nullptr) != CUDA_SUCCESS ||
      cuda.cuCtxSynchronize() != CUDA_SUCCESS) {
    if (flushState_) cuda.cuMemFree(flushState_);
    cuda.cuMemFree(flush_);
    throw OperationFailure("CUDA_ERROR_OUT_OF_MEMORY", "the profiler's L2 flush buffer could not be set up");
  }
  try {
    eviction_ = std::make_unique<CudaTranslationEviction>(device_);
    instructions_ = std::make_unique<CudaInstructionEviction>(device_, flushMode_ != L2Flush::None);
  } catch (...) {
    eviction_.reset();
    cuda.cuMemFree(flushState_);
    cuda.cuMemFree(flush_);
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

bool CudaProfilerSession::flushesInRanges() const {
  return kernelRange_ && scope_.flushBetweenDispatches && scope_.dispatches > 1;
}

std::uint32_t CudaProfilerSession::rangesPerPass() const {
  const std::uint32_t dispatches = std::max<std::uint32_t>(1, scope_.dispatches);
  return flushesInRanges() ? 2 * dispatches - 1 : dispatches;
}

std::uint32_t CudaProfilerSession::rangeOf(std::uint32_t index) const {
  return flushesInRanges() ? 2 * index : index;
}

void CudaProfilerSession::endPass(const std::shared_ptr<Queue>& queue, std::uint32_t pass) {
  auto cuda = cudaQueue(queue);
  auto self = shared_from_this();
  cuda->enqueueControl([self, pass] { self->end(pass); });
}

void CudaProfilerSession::afterRun(const std::shared_ptr<Queue>& queue) {
  if (!flushBeforeRestore_ || flushMode_ == L2Flush::None) return;
  auto cuda = cudaQueue(queue);
  auto self = shared_from_this();
  cuda->enqueueControl([self, cuda] { self->flushAfterRun(*cuda); });
}

void CudaProfilerSession::flushAfterRun(CudaQueue& queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_ || error_) return;
  try {
    flushL2(queue);
    flushedAfterRun_ = true;
  } catch (const OperationFailure& failure) {
    fail("profiler-after-run", failure);
  } catch (const std::exception& exception) {
    fail("profiler-after-run", OperationFailure("internal", exception.what()));
  }
}

void CudaProfilerSession::fail(const char* step, const OperationFailure& failure) {
  if (!error_) error_ = OperationError{step, failure.code(), failure.what(), -1};
}

void CudaProfilerSession::setConfig(std::size_t passIndex) {
  const CuptiProfilerApi& api = library_->api;
  auto set = cuptiParams<CuptiRangeSetConfigParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeSetConfigParams, targetNestingLevel));
  set.pRangeProfilerObject = profiler_;
  set.configSize = config_->image().size();
  set.pConfig = config_->image().data();
  set.counterDataImageSize = counterData_.size();
  set.pCounterDataImage = counterData_.data();
  set.range = kernelRange_ ? CUPTI_AutoRange : CUPTI_UserRange;
  set.replayMode = cuptiReplaysKernel_ ? CUPTI_KernelReplay : CUPTI_UserReplay;
  set.maxRangesPerPass = rangesPerPass();
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = passIndex;
  set.targetNestingLevel = 1;
  api.check(api.cuptiRangeProfilerSetConfig(&set), "cuptiRangeProfilerSetConfig");
}

void CudaProfilerSession::enable() {
  const CuptiProfilerApi& api = library_->api;
  auto enable = cuptiParams<CuptiRangeEnableParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeEnableParams, pRangeProfilerObject));
  enable.ctx = device_->context()->handle();
  api.check(api.cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
  profiler_ = enable.pRangeProfilerObject;
  counterDataRanges_ = 0;
}

void CudaProfilerSession::startDispatch() {
  const std::uint32_t ranges = rangesPerPass();
  // A profiler enabled for another number of ranges per pass keeps counting as it was first set up
  // (on an H200 it recorded twice the earlier window's ranges): start from a fresh one.
  if (profiler_ && counterDataRanges_ != 0 && counterDataRanges_ != ranges) disable();
  if (!profiler_) enable();
  const CuptiProfilerApi& api = library_->api;
  if (counterDataRanges_ != ranges) {
    auto size = cuptiParams<CuptiRangeGetCounterDataSizeParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeGetCounterDataSizeParams, counterDataSize));
    size.pRangeProfilerObject = profiler_;
    size.pMetricNames = config_->names();
    size.numMetrics = config_->count();
    size.maxNumOfRanges = ranges;
    size.maxNumRangeTreeNodes = ranges;
    api.check(api.cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    counterData_.assign(size.counterDataSize, 0);
    counterDataRanges_ = ranges;
  }
  auto initialize = cuptiParams<CuptiRangeCounterDataImageInitializeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeCounterDataImageInitializeParams, pCounterData));
  initialize.pRangeProfilerObject = profiler_;
  initialize.counterDataSize = counterData_.size();
  initialize.pCounterData = counterData_.data();
  api.check(api.cuptiRangeProfilerCounterDataImageInitialize(&initialize),
            "cuptiRangeProfilerCounterDataImageInitialize");
  setConfig(0);
}

void CudaProfilerSession::flushL2(CudaQueue& queue) {
  evictL2(queue);
  if (dirtyBytes_ == 0) return;
  // Alternating values: where nothing else writes the buffer, each flush changes every byte it writes.
  dirtyValue_ = static_cast<unsigned char>(~dirtyValue_);
  const CudaApi& cuda = device_->api();
  check(cuda, cuda.cuMemsetD8Async(flush_, dirtyValue_, dirtyBytes_, queue.stream()), "cuMemsetD8Async");
}

void CudaProfilerSession::evictL2(CudaQueue& queue) {
  const std::uint64_t threads = KREPLAY_BLOCK_THREADS;
  if (flushMode_ == L2Flush::Copy) {
    const CudaApi& cuda = device_->api();
    if (!flushHost_) check(cuda, cuda.cuMemHostAlloc(&flushHost_, flushBytes_, 0), "cuMemHostAlloc");
    check(cuda, cuda.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(flushHost_), flush_, flushBytes_, queue.stream()),
          "cuMemcpyAsync");
    return;
  }
  if (flushMode_ == L2Flush::ReadEvictLast) {
    const unsigned blocks = gridFor(*device_, flushBytes_ / 128, threads);
    launchKernel(*device_, device_->functions().flushL2EvictLast, blocks, static_cast<unsigned>(threads), queue.stream(),
                 static_cast<std::uint64_t>(flush_), flushBytes_, static_cast<std::uint64_t>(flushState_));
    launchKernel(*device_, device_->functions().l2NormalPriority, blocks, static_cast<unsigned>(threads), queue.stream(),
                 static_cast<std::uint64_t>(flush_), flushBytes_);
    return;
  }
  const bool writes = flushMode_ == L2Flush::WriteDiscardRead || flushMode_ == L2Flush::WriteDiscard;
  if (writes) {
    const CudaApi& cuda = device_->api();
    check(cuda, cuda.cuMemsetD8Async(flush_, 0x5a, flushBytes_, queue.stream()), "cuMemsetD8Async");
    launchKernel(*device_, device_->functions().discardL2Lines, gridFor(*device_, flushBytes_ / 128, threads),
                 static_cast<unsigned>(threads), queue.stream(), static_cast<std::uint64_t>(flush_), flushBytes_);
    if (flushMode_ == L2Flush::WriteDiscard) return;
  }
  for (std::uint64_t round = 0; round < flushRounds_; round += 1) {
    launchKernel(*device_, device_->functions().xorWords, gridFor(*device_, flushBytes_ / 8, threads),
                 static_cast<unsigned>(threads), queue.stream(), static_cast<std::uint64_t>(flush_),
                 flushBytes_, static_cast<std::uint64_t>(flushState_));
  }
  if (flushMode_ == L2Flush::ReadDiscard) {
    launchKernel(*device_, device_->functions().discardL2Lines, gridFor(*device_, flushBytes_ / 128, threads),
                 static_cast<unsigned>(threads), queue.stream(), static_cast<std::uint64_t>(flush_), flushBytes_);
  }
}

void CudaProfilerSession::touchReachable(CudaQueue& queue) {
  if (touchStride_ == 0 || !reachable_) return;
  const CudaApi& cuda = device_->api();
  const auto ranges = reachable_();
  if (touchBy_ == TouchBy::Copy && cuda.cuMemcpy2DAsync) {
    // One byte of each stride copied to pinned host memory by a copy engine: it walks the same
    // translations a full restore would, without running anything on the multiprocessors.
    std::uint64_t most = 0;
    for (const auto& range : ranges) most = std::max(most, touchLoads(range.second));
    if (most > touchHostBytes_) {
      if (touchHost_) cuda.cuMemFreeHost(touchHost_);
      touchHost_ = nullptr;
      touchHostBytes_ = 0;
      check(cuda, cuda.cuMemHostAlloc(&touchHost_, most, 0), "cuMemHostAlloc");
      touchHostBytes_ = most;
    }
    for (const auto& [address, bytes] : ranges) {
      CUDA_MEMCPY2D copy{};
      copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
      copy.srcDevice = address;
      copy.srcPitch = touchStride_;
      copy.dstMemoryType = CU_MEMORYTYPE_HOST;
      copy.dstHost = touchHost_;
      copy.dstPitch = 1;
      copy.WidthInBytes = 1;
      copy.Height = touchLoads(bytes);
      check(cuda, cuda.cuMemcpy2DAsync(&copy, queue.stream()), "cuMemcpy2DAsync");
    }
    return;
  }
  const std::uint64_t threads = KREPLAY_BLOCK_THREADS;
  for (const auto& [address, bytes] : ranges) {
    if (touchBy_ == TouchBy::EveryMultiprocessor) {
      launchKernel(*device_, device_->functions().touchPagesEveryBlock, static_cast<unsigned>(device_->multiprocessors()),
                   static_cast<unsigned>(threads), queue.stream(), address, bytes, touchStride_,
                   static_cast<std::uint64_t>(flushState_));
      continue;
    }
    launchKernel(*device_, device_->functions().touchPages, gridFor(*device_, touchLoads(bytes), threads),
                 static_cast<unsigned>(threads), queue.stream(), address, bytes, touchStride_,
                 static_cast<std::uint64_t>(flushState_));
  }
}

void CudaProfilerSession::begin(CudaQueue& queue, std::uint32_t pass, PassScope scope) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_) return;
  const bool flushedAfterRun = std::exchange(flushedAfterRun_, false);
  const CuptiProfilerApi& api = library_->api;
  try {
    if (pass == 1) {
      if (dispatchOpen_) disable();  // a dispatch that did not finish: start from a fresh profiler
      dispatchOpen_ = true;
      scope_ = scope;
      scope_.dispatches = std::max<std::uint32_t>(1, scope_.dispatches);
      // CUPTI adds user ranges of one name together: each dispatch of a range gets its own name.
      while (rangeNames_.size() < scope_.dispatches)
        rangeNames_.push_back(std::string(kRangeName) + "-" + std::to_string(rangeNames_.size()));
      dispatch_ += 1;
      passesStopped_ = 0;
      allSubmitted_ = false;
      error_.reset();
    }
    if (error_) return;
    const CudaApi& cuda = device_->api();
    check(cuda, cuda.cuCtxSynchronize(), "cuCtxSynchronize");  // every earlier write is done
    if (pass == 1) {
      startDispatch();
    } else if (pass <= passesStopped_) {
      setConfig(pass - 1);  // the caller runs this pass again
      passesStopped_ = pass - 1;
    }
    if (kernelRange_) {
      // The range is the next kernel: flush before the pass starts, so the flush is not profiled.
      eviction_->enqueue(queue, static_cast<std::uint64_t>(flushState_));
      instructions_->enqueue(queue);
      if (flushMode_ != L2Flush::None && !flushedAfterRun) flushL2(queue);
      touchReachable(queue);
      check(cuda, cuda.cuStreamSynchronize(queue.stream()), "cuStreamSynchronize");
      eviction_->afterIdle();
      if (kernelRunwayNanoseconds_ > 0) {
        launchKernel(*device_, device_->functions().delay, 1, 32, queue.stream(), kernelRunwayNanoseconds_);
      }
    }
    auto start = cuptiParams<CuptiRangeObjectParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeObjectParams, pRangeProfilerObject));
    start.pRangeProfilerObject = profiler_;
    api.check(api.cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
    started_ = true;
    if (kernelRange_ || scope_.dispatches > 1) return;  // a range pushes at each beginDispatch
    pushRange(queue, 0);
  } catch (const OperationFailure& failure) {
    fail("profiler-begin-pass", failure);
  } catch (const std::exception& exception) {
    fail("profiler-begin-pass", OperationFailure("internal", exception.what()));
  }
}

void CudaProfilerSession::pushRange(CudaQueue& queue, std::uint32_t index) {
  // The range is pushed in stream order: the flush, then a short wait, keep the device busy while
  // the range is pushed and the dispatch's kernel launched, so that the range begins with the
  // kernel instead of waiting for its launch (which measured 30-60 us on an H200). It still holds
  // a few microseconds around the kernel: a 200 us kernel read 8-10% lower percentages than ncu.
  const CuptiProfilerApi& api = library_->api;
  if (flushMode_ != L2Flush::None) flushL2(queue);
  if (index == 0) touchReachable(queue);
  launchKernel(*device_, device_->functions().delay, 1, 32, queue.stream(), kRunwayNanoseconds);
  auto push = cuptiParams<CuptiRangePushRangeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangePushRangeParams, pRangeName));
  push.pRangeProfilerObject = profiler_;
  push.pRangeName = scope_.dispatches <= 1 ? kRangeName : rangeNames_.at(index).c_str();
  api.check(api.cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
  pushed_ = true;
}

void CudaProfilerSession::popRange() {
  if (!pushed_) return;
  pushed_ = false;
  const CuptiProfilerApi& api = library_->api;
  auto pop = cuptiParams<CuptiRangeObjectParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeObjectParams, pRangeProfilerObject));
  pop.pRangeProfilerObject = profiler_;
  api.check(api.cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
}

void CudaProfilerSession::beginInRange(CudaQueue& queue, std::uint32_t index) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_ || error_ || !started_ || scope_.dispatches <= 1) return;
  try {
    if (!kernelRange_) {
      pushRange(queue, index);
    } else if (index > 0 && scope_.flushBetweenDispatches) {
      flushL2(queue);  // a range of its own, dropped when the values are read
    }
  } catch (const OperationFailure& failure) {
    fail("profiler-begin-dispatch", failure);
  } catch (const std::exception& exception) {
    fail("profiler-begin-dispatch", OperationFailure("internal", exception.what()));
  }
}

void CudaProfilerSession::endInRange() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_ || error_ || scope_.dispatches <= 1) return;
  try {
    popRange();
  } catch (const OperationFailure& failure) {
    fail("profiler-end-dispatch", failure);
  }
}

void CudaProfilerSession::end(std::uint32_t pass) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (released_) return;
  const CuptiProfilerApi& api = library_->api;
  try {
    popRange();
    if (started_) {
      started_ = false;
      auto stop = cuptiParams<CuptiRangeStopParams>(
          KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeStopParams, isAllPassSubmitted));
      stop.pRangeProfilerObject = profiler_;
      api.check(api.cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
      passesStopped_ = pass;
      allSubmitted_ = stop.isAllPassSubmitted != 0;
    }
  } catch (const OperationFailure& failure) {
    fail("profiler-end-pass", failure);
  }
  if (pass < plan().passCount) return;
  // The last pass: decode and evaluate (or report why not), then stop profiling the context.
  std::vector<std::vector<double>> values;
  if (!error_) {
    try {
      // In kernel replay CUPTI ran all its passes inside the launch; the flag speaks of user replay.
      if (!allSubmitted_ && !cuptiReplaysKernel_) {
        throw OperationFailure("cupti-passes", "CUPTI wants more than the " +
                                                   std::to_string(plan().passCount) + " passes it announced");
      }
      const CudaApi& cuda = device_->api();
      check(cuda, cuda.cuCtxSynchronize(), "cuCtxSynchronize");
      auto decode = cuptiParams<CuptiRangeDecodeDataParams>(
          KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeDecodeDataParams, numOfRangeDropped));
      decode.pRangeProfilerObject = profiler_;
      api.check(api.cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
      auto info = cuptiParams<CuptiRangeGetCounterDataInfoParams>(
          KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeGetCounterDataInfoParams, numTotalRanges));
      info.pCounterDataImage = counterData_.data();
      info.counterDataImageSize = counterData_.size();
      api.check(api.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
      if (info.numTotalRanges < 1) {
        throw OperationFailure("cupti-no-range", "CUPTI recorded no range (" +
                                                     std::to_string(decode.numOfRangeDropped) +
                                                     " dropped): did the dispatch launch a kernel?");
      }
      if (info.numTotalRanges != rangesPerPass()) {
        throw OperationFailure(
            "cupti-range-count",
            "CUPTI recorded " + std::to_string(info.numTotalRanges) + " ranges (" +
                std::to_string(decode.numOfRangeDropped) + " dropped) where the window's " +
                std::to_string(scope_.dispatches) + " dispatches make " + std::to_string(rangesPerPass()) +
                ": does each dispatch launch exactly one kernel?");
      }
      for (std::uint32_t index = 0; index < scope_.dispatches; ++index)
        values.push_back(config_->evaluate(counterData_, rangeOf(index)));
    } catch (const OperationFailure& failure) {
      fail("profiler-decode", failure);
    }
  }
  dispatchOpen_ = false;
  if (error_) disable();  // the next dispatch starts from a fresh profiler
  finish(error_, std::move(values));
}

void CudaProfilerSession::finish(std::optional<OperationError> error, std::vector<std::vector<double>> values) {
  result_.dispatch = dispatch_;
  result_.error = std::move(error);
  result_.dispatchValues = result_.error ? std::vector<std::vector<double>>{} : std::move(values);
  result_.values = result_.dispatchValues.empty() ? std::vector<double>{} : result_.dispatchValues.front();
}

void CudaProfilerSession::disable() noexcept {
  if (!profiler_) return;
  const CuptiProfilerApi& api = library_->api;
  if (pushed_) {
    auto pop = cuptiParams<CuptiRangeObjectParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeObjectParams, pRangeProfilerObject));
    pop.pRangeProfilerObject = profiler_;
    api.cuptiRangeProfilerPopRange(&pop);
    pushed_ = false;
  }
  if (started_) {
    auto stop = cuptiParams<CuptiRangeStopParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeStopParams, isAllPassSubmitted));
    stop.pRangeProfilerObject = profiler_;
    api.cuptiRangeProfilerStop(&stop);
    started_ = false;
  }
  auto disable = cuptiParams<CuptiRangeObjectParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeObjectParams, pRangeProfilerObject));
  disable.pRangeProfilerObject = profiler_;
  api.cuptiRangeProfilerDisable(&disable);
  profiler_ = nullptr;
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
  disable();
  const CudaApi& cuda = device_->api();
  cuda.cuCtxSynchronize();
  if (flushState_) cuda.cuMemFree(flushState_);
  if (flush_) cuda.cuMemFree(flush_);
  if (touchHost_) cuda.cuMemFreeHost(touchHost_);
  if (flushHost_) cuda.cuMemFreeHost(flushHost_);
  if (eviction_) eviction_->release();
  if (instructions_) instructions_->release();
  flush_ = flushState_ = 0;
  touchHost_ = flushHost_ = nullptr;
}

}  // namespace kreplay::cuda
