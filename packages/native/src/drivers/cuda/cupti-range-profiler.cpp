#include "drivers/cuda/cupti-range-profiler.hpp"

#include <utility>

namespace kreplay::cuda {

CuptiRangeProfiler::CuptiRangeProfiler(std::shared_ptr<const CuptiProfilerLibrary> library, CUcontext context,
                                       CuptiMetricConfig& config, bool kernelRange)
    : library_(std::move(library)), context_(context), config_(config), kernelRange_(kernelRange) {}

void CuptiRangeProfiler::enable() {
  const CuptiProfilerApi& api = library_->api;
  auto enable = cuptiParams<CuptiRangeEnableParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeEnableParams, pRangeProfilerObject));
  enable.ctx = context_;
  api.check(api.cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
  object_ = enable.pRangeProfilerObject;
  ranges_ = 0;
}

void CuptiRangeProfiler::prepare(std::uint32_t ranges) {
  // A profiler enabled for another number of ranges per pass keeps counting as it was first set up
  // (on an H200 it recorded twice the earlier window's ranges): start from a fresh one.
  if (object_ && ranges_ != 0 && ranges_ != ranges) disable();
  if (!object_) enable();
  const CuptiProfilerApi& api = library_->api;
  if (ranges_ != ranges) {
    auto size = cuptiParams<CuptiRangeGetCounterDataSizeParams>(
        KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeGetCounterDataSizeParams, counterDataSize));
    size.pRangeProfilerObject = object_;
    size.pMetricNames = config_.names();
    size.numMetrics = config_.count();
    size.maxNumOfRanges = ranges;
    size.maxNumRangeTreeNodes = ranges;
    api.check(api.cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    counterData_.assign(size.counterDataSize, 0);
    ranges_ = ranges;
  }
  auto initialize = cuptiParams<CuptiRangeCounterDataImageInitializeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeCounterDataImageInitializeParams, pCounterData));
  initialize.pRangeProfilerObject = object_;
  initialize.counterDataSize = counterData_.size();
  initialize.pCounterData = counterData_.data();
  api.check(api.cuptiRangeProfilerCounterDataImageInitialize(&initialize),
            "cuptiRangeProfilerCounterDataImageInitialize");
  setConfig(0);
}

void CuptiRangeProfiler::setConfig(std::size_t passIndex) {
  const CuptiProfilerApi& api = library_->api;
  auto set = cuptiParams<CuptiRangeSetConfigParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeSetConfigParams, targetNestingLevel));
  set.pRangeProfilerObject = object_;
  set.configSize = config_.image().size();
  set.pConfig = config_.image().data();
  set.counterDataImageSize = counterData_.size();
  set.pCounterDataImage = counterData_.data();
  set.range = kernelRange_ ? CUPTI_AutoRange : CUPTI_UserRange;
  set.replayMode = CUPTI_UserReplay;
  set.maxRangesPerPass = ranges_;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = passIndex;
  set.targetNestingLevel = 1;
  api.check(api.cuptiRangeProfilerSetConfig(&set), "cuptiRangeProfilerSetConfig");
}

CUptiResult CuptiRangeProfiler::call(CUptiResult (*function)(CuptiRangeObjectParams*)) const {
  auto params = cuptiParams<CuptiRangeObjectParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeObjectParams, pRangeProfilerObject));
  params.pRangeProfilerObject = object_;
  return function(&params);
}

CUptiResult CuptiRangeProfiler::callStop(bool& allPassesSubmitted) {
  started_ = false;
  auto stop = cuptiParams<CuptiRangeStopParams>(KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeStopParams, isAllPassSubmitted));
  stop.pRangeProfilerObject = object_;
  const CUptiResult result = library_->api.cuptiRangeProfilerStop(&stop);
  allPassesSubmitted = stop.isAllPassSubmitted != 0;
  return result;
}

void CuptiRangeProfiler::start() {
  const CuptiProfilerApi& api = library_->api;
  api.check(call(api.cuptiRangeProfilerStart), "cuptiRangeProfilerStart");
  started_ = true;
}

bool CuptiRangeProfiler::stop() {
  bool allPassesSubmitted = false;
  library_->api.check(callStop(allPassesSubmitted), "cuptiRangeProfilerStop");
  return allPassesSubmitted;
}

void CuptiRangeProfiler::push(const char* name) {
  const CuptiProfilerApi& api = library_->api;
  auto push = cuptiParams<CuptiRangePushRangeParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangePushRangeParams, pRangeName));
  push.pRangeProfilerObject = object_;
  push.pRangeName = name;
  api.check(api.cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
  pushed_ = true;
}

void CuptiRangeProfiler::pop() {
  if (!pushed_) return;
  pushed_ = false;
  const CuptiProfilerApi& api = library_->api;
  api.check(call(api.cuptiRangeProfilerPopRange), "cuptiRangeProfilerPopRange");
}

CuptiRangeProfiler::Ranges CuptiRangeProfiler::decode() {
  const CuptiProfilerApi& api = library_->api;
  auto decode = cuptiParams<CuptiRangeDecodeDataParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeDecodeDataParams, numOfRangeDropped));
  decode.pRangeProfilerObject = object_;
  api.check(api.cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
  auto info = cuptiParams<CuptiRangeGetCounterDataInfoParams>(
      KREPLAY_CUPTI_STRUCT_SIZE(CuptiRangeGetCounterDataInfoParams, numTotalRanges));
  info.pCounterDataImage = counterData_.data();
  info.counterDataImageSize = counterData_.size();
  api.check(api.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
  return {info.numTotalRanges, decode.numOfRangeDropped};
}

void CuptiRangeProfiler::disable() noexcept {
  if (!object_) return;
  const CuptiProfilerApi& api = library_->api;
  if (pushed_) call(api.cuptiRangeProfilerPopRange);
  pushed_ = false;
  bool allPassesSubmitted = false;
  if (started_) callStop(allPassesSubmitted);
  call(api.cuptiRangeProfilerDisable);
  object_ = nullptr;
}

}  // namespace kreplay::cuda
