// The capture subsystem's C++ test program (capture.cmake), run by capture-layout.test.ts. Without
// arguments it runs every case and prints one line per case, "ok", "skip" or "not ok", a tab, its
// name, and for the last two a tab and why; it exits 1 if one failed.
//   kreplay-capture-test --write-capture <dir>   writes the crash-case capture (write-sample-capture.cpp)
//   kreplay-capture-test --write-session-capture <dir> [<kill on copy N>]   a capture written by the
//     capture session over a fake device (write-session-capture.cpp)
//   kreplay-capture-test --write-random-capture <dir> <seed> <operations>   a capture of random
//     interleavings of launches and work, with the true memory of each launch (write-random-capture.cpp)
//   kreplay-capture-test --measure-sha256 [MiB]   the SHA-256 rate of both codes on this CPU
//   kreplay-capture-test --drive-injection <library> <fake libcupti.so>   the CUPTI glue end to end
//     over fake-cupti (drive-injection.cpp)
//   kreplay-capture-test --drive-collective-injection <library> <fake libcupti.so> <image library>   the glue on
//     a module whose image lies in another shared object, a collective library's by its name or not
//     (drive-collective-injection.cpp)
//   kreplay-capture-test --drive-collective-caller <library> <fake libcupti.so> <image library>   the glue on
//     a kernel launched by another shared object's code, then by the program's (drive-collective-injection.cpp)
//   kreplay-capture-test --drive-graph-injection <library> <fake libcupti.so> <fake libcuda.so.1>   the glue on
//     CUDA graphs, over fake-cupti and the fake libcuda (drive-graph-injection.cpp)
//   kreplay-capture-test --drive-random-graphs <library | -> <fake libcupti.so | -> <fake libcuda.so.1> <seed>
//     random graphs of kernel, memset and copy nodes, captured or plain (drive-random-graphs.cpp)
//   kreplay-capture-test --inject <library>   dlopens the capture library and calls its
//     InitializeInjection as libcuda would; prints "InitializeInjection returned <n>"
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "capture/test/drive-collective-injection.hpp"
#include "capture/test/drive-graph-injection.hpp"
#include "capture/test/drive-injection.hpp"
#include "capture/test/drive-random-graphs.hpp"
#include "capture/test/measure-sha256.hpp"
#include "capture/test/write-random-capture.hpp"
#include "capture/test/write-sample-capture.hpp"
#include "capture/test/write-session-capture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

namespace kreplay::hsa::test {

std::vector<TestCase>& registry() {
  static std::vector<TestCase> cases;
  return cases;
}

}  // namespace kreplay::hsa::test

int main(int argc, char** argv) {
  using namespace kreplay::hsa::test;
  if (argc == 3 && std::strcmp(argv[1], "--write-capture") == 0)
    return kreplay::capture::test::writeSampleCapture(argv[2], std::cout);
  if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "--write-session-capture") == 0)
    return kreplay::capture::test::writeSessionCapture(
        argv[2], argc == 4 ? std::strtoull(argv[3], nullptr, 10) : 0, std::cout);
  if (argc == 5 && std::strcmp(argv[1], "--write-random-capture") == 0)
    return kreplay::capture::test::writeRandomCapture(argv[2], std::strtoull(argv[3], nullptr, 10),
                                                      std::strtoull(argv[4], nullptr, 10), std::cout);
  if ((argc == 2 || argc == 3) && std::strcmp(argv[1], "--measure-sha256") == 0)
    return kreplay::capture::test::measureSha256(argc == 3 ? std::strtoull(argv[2], nullptr, 10) : 512, std::cout);
  if (argc == 4 && std::strcmp(argv[1], "--drive-injection") == 0)
    return kreplay::capture::test::driveInjection(argv[2], argv[3], std::cout);
  if (argc == 5 && std::strcmp(argv[1], "--drive-collective-injection") == 0)
    return kreplay::capture::test::driveCollectiveInjection(
        argv[2], argv[3], argv[4], kreplay::capture::test::CollectiveScenario::ImageInLibrary, std::cout);
  if (argc == 5 && std::strcmp(argv[1], "--drive-collective-caller") == 0)
    return kreplay::capture::test::driveCollectiveInjection(
        argv[2], argv[3], argv[4], kreplay::capture::test::CollectiveScenario::LaunchFromLibrary, std::cout);
  if (argc == 5 && std::strcmp(argv[1], "--drive-graph-injection") == 0)
    return kreplay::capture::test::driveGraphInjection(argv[2], argv[3], argv[4], std::cout);
  if (argc == 6 && std::strcmp(argv[1], "--drive-random-graphs") == 0) {
    auto given = [](const char* path) { return std::strcmp(path, "-") == 0 ? nullptr : path; };
    return kreplay::capture::test::driveRandomGraphs(given(argv[2]), given(argv[3]), argv[4],
                                                     std::strtoull(argv[5], nullptr, 10), std::cout);
  }
  if (argc == 3 && std::strcmp(argv[1], "--inject") == 0) {
    void* library = ::dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::cout << "dlopen failed: " << ::dlerror() << "\n";
      return 1;
    }
    auto* initialize = reinterpret_cast<int (*)()>(::dlsym(library, "InitializeInjection"));
    if (initialize == nullptr) {
      std::cout << "no InitializeInjection\n";
      return 1;
    }
    std::cout << "InitializeInjection returned " << initialize() << std::endl;
    return 0;
  }
  int failed = 0;
  for (const auto& test : registry()) {
    try {
      test.run();
      std::cout << "ok\t" << test.name << "\n";
    } catch (const Skip& skip) {
      std::cout << "skip\t" << test.name << "\t" << skip.what() << "\n";
    } catch (const std::exception& error) {
      failed += 1;
      std::string message = error.what();
      for (auto& character : message) character = character == '\n' || character == '\t' ? ' ' : character;
      std::cout << "not ok\t" << test.name << "\t" << message << "\n";
    }
    std::cout.flush();
  }
  return failed == 0 ? 0 : 1;
}
