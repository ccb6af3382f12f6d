// CUDA graphs as the fake libcuda runs them, checked against what the NVIDIA driver does: built with
// g++ (no CUDA SDK) from every .cpp of this folder by cuda-graphs.test.ts, it opens libcuda
// ($KREPLAY_CUDA_LIBRARY or libcuda.so.1), loads argv[1] (scale-floats.ptx:
// kreplay_test_scale_floats(data, count, factor)), and checks graphs built node by node
// (node-by-node-checks.cpp) and by stream capture (stream-capture-checks.cpp). Prints "ok <check>"
// per check and "ok" at the end; "FAILED ..." and exits 1 on the first failure.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "graph-checks.hpp"

int main(int argc, char** argv) {
  if (!openLibcuda(std::getenv("KREPLAY_CUDA_LIBRARY")) || argc < 2) {
    std::printf("FAILED could not open libcuda (%s) or no PTX given\n", ::dlerror());
    return 1;
  }
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();

  GraphFixture fixture(text.str());
  const NodeByNodeGraph built = checkNodesEdgesTypesAndParameters(fixture);
  checkLaunchesAndExecUpdate(fixture, built);
  checkChildGraphAndEventRecord(fixture);
  checkGraphMemoryNodes(fixture);
  checkCaptureOnOneStream(fixture);
  checkCaptureAcrossTwoStreams(fixture);
  checkSynchronizationInvalidatesCapture(fixture);
  fixture.destroyGraphs();
  std::printf("ok\n");
  return 0;
}
