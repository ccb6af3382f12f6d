// Each process of a captured program writes a capture folder of its own (processes/<pid>), and a
// selection the library cannot use is recorded in the manifest, so that the capture does not pass
// for an empty one. capture-injection.test.ts runs the same through the CUPTI glue.
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "capture/inject/capture-session.hpp"
#include "capture/inject/process-capture-folder.hpp"
#include "capture/kernel-name-pattern.hpp"
#include "capture/test/capture-test-files.hpp"
#include "capture/test/fake-device-memory.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

bool isFolder(const std::string& path) {
  struct stat status{};
  return ::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

}  // namespace

TEST("process folders: each process claims processes/<pid>, a reused pid the next free <pid>-<n>") {
  const std::string top = temporaryFolder();
  CHECK_EQ(claimProcessFolder(top, 4100), top + "/processes/4100");
  CHECK_EQ(claimProcessFolder(top, 4200), top + "/processes/4200");
  CHECK_EQ(claimProcessFolder(top, 4100), top + "/processes/4100-1");
  CHECK_EQ(claimProcessFolder(top, 4100), top + "/processes/4100-2");
  CHECK(isFolder(top + "/processes/4200"));
  std::ofstream(top + "/manifest.json") << "{}";
  CHECK_THROWS(claimProcessFolder(top, 4300), "already holds a capture (manifest.json)");
}

TEST("process folders: the manifest says which process it is of") {
  CaptureOptions options;
  options.directory = claimProcessFolder(temporaryFolder(), 4100);
  options.command = {"torchrun", "train.py"};
  options.process = CapturedProcess{4100, 4000};
  FakeDeviceMemory device;
  std::ostringstream log;
  CaptureSession session(options, device, log);
  session.finish();
  const std::string manifest = readFile(options.directory + "/manifest.json");
  CHECK(contains(manifest, R"("process":{"pid":4100,"parentPid":4000})"));
  CHECK(!contains(manifest, "selectionError"));
}

TEST("kernel-name pattern: std::regex's complaint and what it lacks; the session records it") {
  CHECK(!kernelNamePatternProblem("axpy|gemm(?=_)").has_value());
  const auto problem = kernelNamePatternProblem("(?<=_)scale");
  CHECK(problem.has_value());
  CHECK(contains(*problem, "C++ std::regex (ECMAScript grammar) cannot compile it: "));
  CHECK(contains(*problem, "it has no lookbehind"));
  CaptureOptions options;
  options.directory = claimProcessFolder(temporaryFolder(), 4100);
  options.command = {"program"};
  options.kernelName = "(?<=_)scale";
  FakeDeviceMemory device;
  std::ostringstream log;
  CHECK_THROWS(
      CaptureSession(options, device, log),
      "KREPLAY_CAPTURE_KERNEL_NAME=(?<=_)scale is not a valid regular expression for the capture library");
  const std::string manifest = readFile(options.directory + "/manifest.json");
  CHECK(contains(manifest, R"("selectionError":"KREPLAY_CAPTURE_KERNEL_NAME=(?<=_)scale is not a valid)"));
  CHECK(contains(manifest, R"("complete":false)"));
}
