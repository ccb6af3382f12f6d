// The points of a cuda queue that wait for its stream: synchronize and fence markers, timing
// events and waits on other queues' events.
#include <string>

#include "drivers/cuda/cuda-check.hpp"
#include "drivers/cuda/cuda-queue.hpp"
#include "drivers/cuda/cuda-timing-event.hpp"

namespace kreplay::cuda {

namespace {

constexpr CUresult kUnknownError = 999;  // CUDA_ERROR_UNKNOWN

OperationError pageListError(const KreplayStateReport& report) {
  const std::string message = report.errorCode == KREPLAY_ERROR_PAGE_COUNT
                                  ? "the page count " + std::to_string(report.errorValue) + " exceeds the " +
                                        std::to_string(report.pageCount) + " pages of the segments"
                                  : "page index " + std::to_string(report.errorValue) + " at position " +
                                        std::to_string(report.errorPosition) +
                                        " is not below the page count " + std::to_string(report.pageCount);
  return OperationError{"conditional-copy", "invalid-page-list", message, report.workIndex};
}

}  // namespace

void CudaQueue::completeAfterStream(After after) {
  std::shared_ptr<CudaEventHandle> marker;
  {
    std::lock_guard<std::mutex> lock(markersMutex_);
    if (!spareMarkers_.empty()) {
      marker = std::move(spareMarkers_.back());
      spareMarkers_.pop_back();
    }
  }
  try {
    if (!marker)
      marker = std::make_shared<CudaEventHandle>(device_->context(),
                                                 CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING);
  } catch (...) {
    return after(kUnknownError);
  }
  const CUresult recorded = device_->api().cuEventRecord(marker->get(), work_->stream());
  if (recorded != CUDA_SUCCESS) return after(recorded);
  completions_->add(marker, [this, marker, after = std::move(after)](CUresult result) {
    after(result);
    std::lock_guard<std::mutex> lock(markersMutex_);
    spareMarkers_.push_back(marker);
  });
}

std::optional<OperationError> CudaQueue::firstError(std::optional<OperationError> submitted,
                                                    const KreplayStateReport* report, CUresult result) const {
  if (result != CUDA_SUCCESS) {
    // The device failed while running the queue's work: which operation failed is not known.
    const CudaApi& api = device_->api();
    return OperationError{
        "queued operation", api.errorName(result),
        "the device reported an error while running the queue's work: " + api.errorText(result), -1};
  }
  if (!report || report->errorCode == KREPLAY_ERROR_NONE) return submitted;
  OperationError found = pageListError(*report);
  if (submitted && submitted->workIndex < found.workIndex) return submitted;
  return found;
}

void CudaQueue::synchronize(SynchronizeCallback done) {
  auto callback = std::make_shared<SynchronizeCallback>(std::move(done));
  const bool queued =
      push({OperationKind::Any, false, [this, callback] {
              std::optional<OperationError> submitted = std::move(error_);
              error_.reset();
              KreplayStateReport* report = nullptr;
              try {
                report = work_->takeStateReport();
              } catch (const OperationFailure& failure) {
                if (!submitted) submitted = OperationError{"queue", failure.code(), failure.what(), -1};
              }
              auto deliveries = std::make_shared<std::vector<HashDelivery>>(work_->takeDeliveries());
              auto waited =
                  std::make_shared<std::vector<std::shared_ptr<CudaTimingEvent>>>(std::move(waited_));
              waited_.clear();
              completeAfterStream([this, callback, submitted, report, deliveries, waited](CUresult result) {
                work_->deliver(*deliveries);
                // The stream waited for them on the device: they have completed.
                if (result == CUDA_SUCCESS) {
                  for (const auto& event : *waited) event->completeOnDevice();
                }
                std::optional<OperationError> error = firstError(submitted, report, result);
                work_->releaseReport(report);
                (*callback)(std::move(error));
              });
            }});
  if (!queued) (*callback)(std::nullopt);
}

std::function<void()> CudaQueue::fence() {
  auto gate = std::make_shared<EventState>();
  const bool queued = push({OperationKind::Any, false,
                            [this, gate] { completeAfterStream([gate](CUresult) { gate->complete(); }); }});
  if (!queued) gate->complete();
  return [gate] { gate->wait(); };
}

std::shared_ptr<EventState> CudaQueue::recordEvent() {
  auto event = std::make_shared<CudaTimingEvent>(device_);
  const bool queued =
      push({OperationKind::Any, false, [this, event] {
              const CUresult result = device_->api().cuEventRecord(event->handle()->get(), work_->stream());
              event->markRecorded(result == CUDA_SUCCESS);
              if (result != CUDA_SUCCESS) return event->complete();
              completions_->add(event->handle(), [event](CUresult) { event->completeOnDevice(); });
            }});
  if (!queued) {
    event->markRecorded(false);
    event->complete();
  }
  return event;
}

void CudaQueue::enqueueWait(std::shared_ptr<EventState> event) {
  push({OperationKind::Any, false, [this, event] {
          const auto recorded = std::dynamic_pointer_cast<CudaTimingEvent>(event);
          if (!recorded) return event->wait();
          // Its queue records it in its own order; a wait on an event not yet recorded would not wait.
          if (!recorded->waitRecorded()) return;
          check(device_->api(),
                device_->api().cuStreamWaitEvent(work_->stream(), recorded->handle()->get(), 0),
                "cuStreamWaitEvent");
          waited_.push_back(recorded);
        }});
}

}  // namespace kreplay::cuda
