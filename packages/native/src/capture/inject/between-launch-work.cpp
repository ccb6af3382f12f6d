#include "capture/inject/between-launch-work.hpp"

#include <algorithm>

namespace kreplay::capture {

namespace {

constexpr std::size_t kEventsKept = 65536;  // beyond, forgotten: a wait on a forgotten event counts as cross-stream

bool streamBound(WorkKind kind) {
  return kind != WorkKind::Allocation && kind != WorkKind::Free;
}

/** The intervals sorted, overlapping and touching ones merged (so that a long gap keeps few). */
void mergeIntervals(std::vector<std::pair<std::uint64_t, std::uint64_t>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
  for (const auto& [address, bytes] : intervals) {
    if (!merged.empty() && address <= merged.back().first + merged.back().second) {
      merged.back().second = std::max(merged.back().second, address + bytes - merged.back().first);
    } else {
      merged.emplace_back(address, bytes);
    }
  }
  intervals.swap(merged);
}

}  // namespace

void BetweenLaunchWork::append(StreamWork& stream, const RecordedWork& work) {
  if (stream.work.size() >= limit_) {
    stream.work.erase(stream.work.begin());
    stream.workLost = true;
  }
  stream.work.push_back(work);
}

void BetweenLaunchWork::record(const RecordedWork& work) {
  if (streamBound(work.kind) && work.writtenBytes() > 0) {
    auto& written = written_[work.stream];
    written.emplace_back(work.address, work.writtenBytes());
    if (written.size() > limit_) mergeIntervals(written);
  }
  if (streamBound(work.kind)) {
    auto found = streams_.find(work.stream);
    if (found == streams_.end()) found = streams_.emplace(work.stream, sharedSinceCapture_).first;
    append(found->second, work);
    return;
  }
  append(sharedSinceCapture_, work);
  for (auto& [stream, list] : streams_) append(list, work);
}

void BetweenLaunchWork::hostFunction(std::uintptr_t stream) {
  auto found = streams_.find(stream);
  if (found == streams_.end()) found = streams_.emplace(stream, sharedSinceCapture_).first;
  found->second.hostFunction = true;
}

void BetweenLaunchWork::eventRecorded(std::uintptr_t event, std::uintptr_t stream) {
  if (eventStreams_.size() >= kEventsKept && eventStreams_.count(event) == 0) eventStreams_.clear();
  eventStreams_[event] = stream;
}

void BetweenLaunchWork::streamWaited(std::uintptr_t stream, std::uintptr_t event) {
  const auto recorded = eventStreams_.find(event);
  if (recorded != eventStreams_.end() && recorded->second == stream) return;
  auto found = streams_.find(stream);
  if (found == streams_.end()) found = streams_.emplace(stream, sharedSinceCapture_).first;
  found->second.crossStreamWait = true;
}

WorkBefore BetweenLaunchWork::takeForLaunch(std::uintptr_t stream) {
  WorkBefore taken = std::move(since_);
  since_ = WorkBefore{};
  for (const auto& [other, written] : written_)
    if (other != stream) taken.otherStreams.insert(taken.otherStreams.end(), written.begin(), written.end());
  written_.clear();
  const auto found = streams_.find(stream);
  const StreamWork& list = found == streams_.end() ? sharedSinceCapture_ : found->second;
  taken.work = list.work;
  taken.hostFunction = list.hostFunction;
  taken.crossStreamWait = list.crossStreamWait;
  taken.workLost = list.workLost;
  if (found != streams_.end()) streams_.erase(found);
  sharedSinceCapture_ = StreamWork{};
  return taken;
}

}  // namespace kreplay::capture
