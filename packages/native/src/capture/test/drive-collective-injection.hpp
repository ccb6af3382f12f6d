// Runs the capture library's CUPTI glue over fake-cupti on a module whose image lies in another
// shared object's memory:
//   kreplay-capture-test --drive-collective-injection <libkreplay-capture.so> <fake libcupti.so> <image library>
// InitializeInjection; the image library (collective-library-fixture/) opened and the synthetic cubin
// (kernel `scale`) copied into its kreplayFixtureModuleImage; cuModuleLoadData of that image, whose
// module-loaded callback gives the driver's own copy of it (as libcuda does); an allocation; one
// launch of `scale`; exit, which finishes the capture. Prints one JSON line: {"initialized", "pid"}.
// Named libnccl-something, the image library makes `scale` a collective's kernel (collective-library.hpp).
#pragma once

#include <ostream>

namespace kreplay::capture::test {

int driveCollectiveInjection(const char* captureLibrary, const char* fakeCupti, const char* imageLibrary,
                             std::ostream& out);

}  // namespace kreplay::capture::test
