// The SHA-256 rate of the capture writer's codes on this CPU (a measurement, not a test):
//   kreplay-capture-test --measure-sha256 [MiB]
// hashes that many MiB (default 512) as 64 KiB pages, as the writer names staged pages, with each
// code this CPU runs, on one thread, and prints one line per code: `<code>\t<MB/s>`.
#pragma once

#include <cstdint>
#include <ostream>

namespace kreplay::capture::test {

int measureSha256(std::uint64_t mebibytes, std::ostream& out);

}  // namespace kreplay::capture::test
