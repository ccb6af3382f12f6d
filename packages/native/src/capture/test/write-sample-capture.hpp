#pragma once

#include <ostream>

namespace kreplay::capture::test {

/**
 * Writes the capture that capture-folder.test.ts reads, in `directory`, and prints what it wrote as
 * JSON. Pages are 4096 bytes, page contents are one byte value repeated ("fill N"):
 * - launch 0: `scale` on a device range of pages fill 10, 11, 10 (one blob twice) and the global
 *   `counter` (fill 20, 4 bytes); after it the pages are fill 11, 12, 11. It is the first launch.
 * - launch 1: `scale` with cluster dims (2, 1, 1) and a priority attribute, pages fill 11, 13; it
 *   follows launch 0, after a memset of page 1 (value 13) and a pool allocation.
 * - launch 2: a page fill 14 whose blob is then truncated to 100 bytes (damaged); on stream 0x5000
 *   of context 0xc0 (other-stream), after an upload, a copy, a download and a free.
 * - launch 3: staged, never committed: a process killed before the rename.
 * - launch 4: a page fill 15 whose blob is then deleted (damaged); uncaptured-launch.
 * - not captured: 2 graph launches, 1 cooperative launch; the capture is never finished.
 * Returns the exit status.
 */
int writeSampleCapture(const char* directory, std::ostream& out);

}  // namespace kreplay::capture::test
