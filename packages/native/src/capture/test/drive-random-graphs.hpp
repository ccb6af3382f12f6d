// Runs random CUDA graphs (random-graph-plan.hpp) as a program over the fake libcuda, with the capture
// library injected (callbacks raised through fake-cupti) or plainly:
//   kreplay-capture-test --drive-random-graphs <capture library | -> <fake libcupti.so | ->
//     <fake libcuda.so.1> <seed>
// with KREPLAY_CAPTURE_DIR, KREPLAY_CUPTI_LIBRARY_DIR and KREPLAY_CUDA_LIBRARY set by the caller for
// a captured run ("-" twice: a plain run, nothing injected). The program loads the synthetic cubin
// (kernel `scale`), maps an arena of eight buffers at a fixed address (cuMemMap), uploads the plan's
// initial data, then builds each graph (node by node, or by capture from its streams), instantiates it
// and launches it a few times, uploading new inputs and shrinking a kernel node's count in between.
// After each launch it reads the arena back and compares it with the reference (the nodes run on the
// host in the order the capture runs them). Prints one JSON line: whether injection initialized, every
// call succeeded, the arena's address, and per graph launch the arena's page hashes (its digest),
// whether it matched the reference, and each kernel node's position and page hashes before and after
// it in the reference.
#pragma once

#include <cstdint>
#include <ostream>

namespace kreplay::capture::test {

/** `captureLibrary` and `fakeCupti` null: a plain run. */
int driveRandomGraphs(const char* captureLibrary, const char* fakeCupti, const char* fakeCuda,
                      std::uint64_t seed, std::ostream& out);

}  // namespace kreplay::capture::test
