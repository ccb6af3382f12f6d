// Runs the capture library's CUPTI glue end to end over fake-cupti (a libcupti and libcuda stand-in):
//   kreplay-capture-test --drive-injection <libkreplay-capture.so> <fake libcupti.so>
// with KREPLAY_CAPTURE_DIR and KREPLAY_CUPTI_LIBRARY_DIR / KREPLAY_CUDA_LIBRARY naming the fake set by
// the caller: InitializeInjection, a module loaded, an allocation, two launches of `scale` through
// cuLaunchKernel (the memory changing in between), a graph launch, a free; then it exits, which
// finishes the capture. Prints one JSON line: its pid, the allocation and what each launch saw.
#pragma once

#include <ostream>

namespace kreplay::capture::test {

int driveInjection(const char* captureLibrary, const char* fakeCupti, std::ostream& out);

}  // namespace kreplay::capture::test
