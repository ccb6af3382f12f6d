// A capture of random interleavings, for the property test (capture-random-interleavings.test.ts):
//   kreplay-capture-test --write-random-capture <dir> <seed> <operations>
// runs the capture session over the fake device through a program that a seeded generator makes of
// launches of `scale` on three streams (its "kernel" writes random pages), launches of a kernel the
// selection leaves out (they write too), memsets, copies between ranges, uploads from untracked
// memory, allocations and frees of device and host-pinned ranges, writes of the CPU to host ranges,
// host functions and event waits. It prints one JSON line: for each captured launch, its stream and
// each live range's true memory before and after it (page blob ids and page hashes, computed from the
// bytes themselves), which the test compares with what the capture recorded.
#pragma once

#include <cstdint>
#include <ostream>

namespace kreplay::capture::test {

int writeRandomCapture(const char* directory, std::uint64_t seed, std::uint64_t operations, std::ostream& out);

}  // namespace kreplay::capture::test
