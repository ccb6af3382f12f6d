// What the program did between captured launches, as the capture library sees it (FORMAT.md
// `workBefore` and the sequence rule): per stream, the memsets and copies since the stream's previous
// captured launch, allocations and frees (on every stream's list), and what breaks a captured
// sequence: a launch that was not captured, a host function on the stream, a wait on an event
// recorded on another stream, a write the capture cannot bound, a pause of the capture.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "capture/capture-writer.hpp"

namespace kreplay::capture {

/** The work before one captured launch, and what happened since the previous captured launch. */
struct WorkBefore {
  std::vector<RecordedWork> work;  ///< on the launch's stream (and allocations, frees)
  /** What the work recorded on other streams since the previous captured launch wrote, [address, +bytes). */
  std::vector<std::pair<std::uint64_t, std::uint64_t>> otherStreams;
  bool uncapturedLaunch = false;  ///< any stream
  bool unboundedWrite = false;    ///< any stream
  bool captureStopped = false;
  bool hostFunction = false;     ///< on the launch's stream
  bool crossStreamWait = false;  ///< on the launch's stream
  bool workLost = false;         ///< more work on the stream than the capture keeps (its list is not whole)
};

class BetweenLaunchWork {
 public:
  /** At most `limit` items kept per stream; beyond, the oldest are dropped and the list marked not whole. */
  explicit BetweenLaunchWork(std::size_t limit = 65536) : limit_(limit) {}

  /** A memset, copy, upload or download (on its stream), allocation or free (on every stream's list). */
  void record(const RecordedWork& work);
  void hostFunction(std::uintptr_t stream);
  void eventRecorded(std::uintptr_t event, std::uintptr_t stream);
  void streamWaited(std::uintptr_t stream, std::uintptr_t event);
  void uncapturedLaunch() { since_.uncapturedLaunch = true; }
  void unboundedWrite() { since_.unboundedWrite = true; }
  void captureStopped() { since_.captureStopped = true; }

  /**
   * What a launch on `stream` follows: its stream's work since that stream's previous captured launch
   * (for a stream's first, the allocations and frees since the previous captured launch of any stream),
   * and the flags since the previous captured launch. Starts counting anew for the next one.
   */
  WorkBefore takeForLaunch(std::uintptr_t stream);

 private:
  struct StreamWork {
    std::vector<RecordedWork> work;
    bool hostFunction = false;
    bool crossStreamWait = false;
    bool workLost = false;
  };
  void append(StreamWork& stream, const RecordedWork& work);

  std::size_t limit_;
  std::map<std::uintptr_t, StreamWork> streams_;
  /** Allocations and frees since the previous captured launch: where a stream seen later starts. */
  StreamWork sharedSinceCapture_;
  WorkBefore since_;  ///< the any-stream flags
  /** What every stream's work since the previous captured launch wrote, by stream. */
  std::map<std::uintptr_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> written_;
  std::unordered_map<std::uintptr_t, std::uintptr_t> eventStreams_;
};

}  // namespace kreplay::capture
