// Where one process of a captured program writes (FORMAT.md, "Processes"): its own capture folder
// under the folder `kreplay capture -o` named, so that processes running at once (a launcher's
// ranks) never write one folder.
#pragma once

#include <cstdint>
#include <string>

namespace kreplay::capture {

/**
 * Creates `<directory>/processes/<pid>` (or `<pid>-<n>` when a process of the same pid took that
 * already) and returns it; `directory` and `processes` may exist. Throws CaptureWriteError when a
 * folder cannot be made, or when `directory` holds a capture at its top (written before sub-captures).
 */
std::string claimProcessFolder(const std::string& directory, std::int64_t pid);

}  // namespace kreplay::capture
