// Runs the capture library's CUPTI glue end to end over fake-cupti (a libcupti and libcuda stand-in):
//   kreplay-capture-test --drive-injection <libkreplay-capture.so> <fake libcupti.so>
// with KREPLAY_CAPTURE_DIR and KREPLAY_CUPTI_LIBRARY_DIR / KREPLAY_CUDA_LIBRARY naming the fake set by
// the caller: InitializeInjection, a module loaded, an allocation, launches of `scale` through
// cuLaunchKernel on two streams with the work between them (a memset, an upload from untracked host
// memory, a host function, a launch of another kernel, an event recorded on one stream and waited on
// by the other), a graph launch, a free; then it exits, which finishes the capture. Prints one JSON
// line: its pid, the allocation, what each launch of `scale` saw (page fills before and after), and
// the fake driver's counts (the page-hash module loaded, its launches, bytes hashed and staged,
// pinned allocations).
#pragma once

#include <ostream>

namespace kreplay::capture::test {

int driveInjection(const char* captureLibrary, const char* fakeCupti, std::ostream& out);

}  // namespace kreplay::capture::test
