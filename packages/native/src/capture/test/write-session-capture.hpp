// Writes a capture through CaptureSession over the fake device, for capture-session.test.ts:
//   kreplay-capture-test --write-session-capture <dir> [<kill on copy N>]
// prints one JSON line describing the memory of each launch (page fills) so the test can check what
// readCaptureFolder reads; with N, the process kills itself (SIGKILL) on the session's N-th copy of
// device memory to the host (copies: only pages that changed; the 5th is during the third launch).
#pragma once

#include <cstdint>
#include <ostream>

namespace kreplay::capture::test {

int writeSessionCapture(const char* directory, std::uint64_t killOnCopy, std::ostream& out);

}  // namespace kreplay::capture::test
