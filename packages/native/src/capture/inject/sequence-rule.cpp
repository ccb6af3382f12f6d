#include "capture/inject/sequence-rule.hpp"

#include <algorithm>

namespace kreplay::capture {

namespace {

/** Whether page `page` of a range at `base` overlaps what one of the recorded work items writes. */
bool written(const std::vector<RecordedWork>& work, std::uint64_t base, std::uint64_t bytes, std::uint64_t page,
             std::uint64_t pageBytes) {
  const std::uint64_t first = base + page * pageBytes;
  const std::uint64_t end = first + std::min(pageBytes, bytes - page * pageBytes);
  return std::any_of(work.begin(), work.end(), [&](const RecordedWork& item) {
    return item.kind != WorkKind::Allocation && item.writtenBytes() > 0 && item.address < end &&
           first < item.address + item.writtenBytes();
  });
}

/** Whether page `page` of a range at `base` overlaps one of the intervals. */
bool overlaps(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& intervals, std::uint64_t base,
              std::uint64_t bytes, std::uint64_t page, std::uint64_t pageBytes) {
  const std::uint64_t first = base + page * pageBytes;
  const std::uint64_t end = first + std::min(pageBytes, bytes - page * pageBytes);
  return std::any_of(intervals.begin(), intervals.end(),
                     [&](const auto& interval) { return interval.first < end && first < interval.first + interval.second; });
}

/**
 * The reason the page hashes give, the first in this order: work recorded on another stream changed
 * a page, the CPU changed a host range, something unrecorded changed a device range.
 */
std::string hashReason(const WorkBefore& work, const std::vector<RangeHashes>& ranges, std::uint64_t pageBytes) {
  const char* order[] = {"other-stream-work", "host-write", "unrecorded-write"};
  std::size_t found = 3;
  for (const RangeHashes& range : ranges) {
    if (range.previousAfter == nullptr || range.before == nullptr) continue;
    if (range.previousAfter->size() != range.before->size()) continue;  // not the same range
    for (std::uint64_t page = 0; page < range.before->size() && found > 0; ++page) {
      if ((*range.before)[page] == (*range.previousAfter)[page]) continue;
      if (written(work.work, range.base, range.bytes, page, pageBytes)) continue;
      const std::size_t reason = overlaps(work.otherStreams, range.base, range.bytes, page, pageBytes) ? 0
                                 : range.host                                                         ? 1
                                                                                                      : 2;
      found = std::min(found, reason);
    }
  }
  return found < 3 ? order[found] : "";
}

}  // namespace

SequencePlace decideSequence(const std::optional<PreviousLaunch>& previous, std::uintptr_t stream,
                             std::uintptr_t context, const WorkBefore& work, const std::vector<RangeHashes>& ranges,
                             std::uint64_t pageBytes) {
  SequencePlace place;
  place.stream = stream;
  place.context = context;
  auto start = [&](const char* reason) {
    place.sequenceBreak = reason;
    return place;
  };
  if (!previous) return start("first-launch");
  if (previous->stream != stream || previous->context != context) return start("other-stream");
  if (work.captureStopped) return start("capture-stopped");
  if (work.uncapturedLaunch) return start("uncaptured-launch");
  if (work.hostFunction) return start("host-function");
  if (work.crossStreamWait) return start("cross-stream-wait");
  if (work.unboundedWrite) return start("unbounded-write");
  const std::string reason = hashReason(work, ranges, pageBytes);
  if (!reason.empty()) {
    place.sequenceBreak = reason;
    return place;
  }
  // More work than the capture keeps: the list is not whole, so the sequence cannot be replayed from it.
  if (work.workLost) return start("unrecorded-write");
  place.follows = previous->sequence;
  return place;
}

}  // namespace kreplay::capture
