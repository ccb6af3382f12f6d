// The stream and event calls of the fake libcuda (see fake-streams.hpp): streams are worker threads,
// synchronizing drains them (a capturing stream's synchronization fails and invalidates its capture
// instead), and an event is a generation count its stream completes, with a host timestamp.
#include "fake-streams.hpp"

#include <cstdint>
#include <mutex>
#include <set>

#include "fake-graphs.hpp"

using kreplay_fake::CUresult;
using kreplay_fake::kNotReady;
using kreplay_fake::kStreamCaptureUnsupported;
using kreplay_fake::kSuccess;

namespace {

/** Every stream not destroyed, for cuCtxSynchronize (one device, one context). */
std::mutex liveStreamsMutex;
std::set<CUstream_st*> liveStreams;

}  // namespace

extern "C" {

CUresult cuStreamCreate(CUstream_st** stream, unsigned) {
  *stream = new CUstream_st();
  std::lock_guard<std::mutex> lock(liveStreamsMutex);
  liveStreams.insert(*stream);
  return kSuccess;
}
CUresult cuStreamDestroy_v2(CUstream_st* stream) {
  {
    std::lock_guard<std::mutex> lock(liveStreamsMutex);
    liveStreams.erase(stream);
  }
  stream->drain();
  delete stream;
  return kSuccess;
}
CUresult cuCtxSynchronize() {
  std::lock_guard<std::mutex> lock(liveStreamsMutex);
  for (CUstream_st* stream : liveStreams) stream->drain();
  return kSuccess;
}
CUresult cuStreamSynchronize(CUstream_st* stream) {
  if (kreplay_fake::invalidateCaptureOnSynchronize(stream)) return kStreamCaptureUnsupported;
  if (stream) stream->drain();
  return kSuccess;
}
CUresult cuStreamWaitEvent(CUstream_st* stream, CUevent_st* event, unsigned) {
  if (kreplay_fake::captureEventWait(stream, event)) return kSuccess;
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    generation = event->recorded;
  }
  kreplay_fake::runOn(stream, [event, generation] { event->waitFor(generation); });
  return kSuccess;
}

CUresult cuEventCreate(CUevent_st** event, unsigned) {
  *event = new CUevent_st();
  return kSuccess;
}
CUresult cuEventDestroy_v2(CUevent_st* event) {
  delete event;
  return kSuccess;
}
CUresult cuEventRecord(CUevent_st* event, CUstream_st* stream) {
  if (kreplay_fake::captureEventRecord(stream, event)) return kSuccess;
  event->capture = 0;
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    generation = ++event->recorded;
  }
  kreplay_fake::runOn(stream, [event, generation] { event->complete(generation); });
  return kSuccess;
}
CUresult cuEventQuery(CUevent_st* event) {
  std::lock_guard<std::mutex> lock(event->mutex);
  return event->completed >= event->recorded ? kSuccess : kNotReady;
}
CUresult cuEventSynchronize(CUevent_st* event) {
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    generation = event->recorded;
  }
  event->waitFor(generation);
  return kSuccess;
}
CUresult cuEventElapsedTime_v2(float* milliseconds, CUevent_st* start, CUevent_st* end) {
  std::lock_guard<std::mutex> first(start->mutex);
  if (start == end) {
    *milliseconds = 0;
    return kSuccess;
  }
  std::lock_guard<std::mutex> second(end->mutex);
  if (start->completed < start->recorded || end->completed < end->recorded || start->recorded == 0)
    return kNotReady;
  *milliseconds =
      static_cast<float>((static_cast<double>(end->time) - static_cast<double>(start->time)) / 1e6);
  return kSuccess;
}

}  // extern "C"
