// Runs the capture library's CUPTI glue over fake-cupti with another shared object, the image
// library (collective-library-fixture/), opened in the process:
//   kreplay-capture-test --drive-collective-injection <libkreplay-capture.so> <fake libcupti.so> <image library>
//     InitializeInjection; the synthetic cubin (kernel `scale`) copied into the image library's
//     kreplayFixtureModuleImage; cuModuleLoadData of that image, whose module-loaded callback gives
//     the driver's own copy of it (as libcuda does); an allocation; one launch of `scale`; exit, which
//     finishes the capture. Named libnccl-something, the image library makes `scale` a collective's
//     kernel (collective-library.hpp).
//   kreplay-capture-test --drive-collective-caller <libkreplay-capture.so> <fake libcupti.so> <image library>
//     the same, but the module image lies in the program's memory, and `scale` is launched twice
//     through the fake cuLaunchKernel: first by the image library's code (kreplayFixtureLaunch), then
//     by the program's own. Named libnccl-something, the library's launch is a collective's
//     (collective-caller.hpp); the program's is captured.
// Each prints one JSON line: {"initialized", "pid"}.
#pragma once

#include <ostream>

namespace kreplay::capture::test {

/** Where the collective library shows: the image its module was loaded from, or the code that launched it. */
enum class CollectiveScenario { ImageInLibrary, LaunchFromLibrary };

int driveCollectiveInjection(const char* captureLibrary, const char* fakeCupti, const char* imageLibrary,
                             CollectiveScenario scenario, std::ostream& out);

}  // namespace kreplay::capture::test
