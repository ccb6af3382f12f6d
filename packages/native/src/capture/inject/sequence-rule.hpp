// The rule that says whether a captured launch continues the captured sequence of the previous
// captured launch or starts a new one, and why (FORMAT.md "Captured sequences"): the same stream and
// context, nothing uncaptured or unbounded in between, no host function or cross-stream wait on the
// stream, and every page both launches list, outside what the work recorded on the stream since
// (its workBefore) wrote, as the previous launch left it (changed by work recorded on another
// stream: other-stream-work; else a host range changed: host-write; a device range: unrecorded-write).
// So a launch that follows starts from exactly the previous launch's memory with its workBefore applied.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/inject/between-launch-work.hpp"

namespace kreplay::capture {

/** The previous captured launch. */
struct PreviousLaunch {
  std::uint64_t sequence = 0;
  std::uintptr_t stream = 0;
  std::uintptr_t context = 0;
};

/** A range of the launch: its page hashes before, and the previous launch's after when it listed it. */
struct RangeHashes {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  bool host = false;
  const std::vector<std::uint64_t>* before = nullptr;
  const std::vector<std::uint64_t>* previousAfter = nullptr;  ///< null: the previous launch did not list it
};

/**
 * Where a launch on `stream`/`context` stands: `follows` the previous launch, or a `sequenceBreak`
 * reason (`first-launch` without a previous one). The place's workBefore is left to the caller.
 */
SequencePlace decideSequence(const std::optional<PreviousLaunch>& previous, std::uintptr_t stream,
                             std::uintptr_t context, const WorkBefore& work, const std::vector<RangeHashes>& ranges,
                             std::uint64_t pageBytes);

}  // namespace kreplay::capture
