// The capture library's options as the environment gives them (KREPLAY_CAPTURE_*): each variable read,
// and a bad value refused with a message naming its variable.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "capture/inject/capture-session.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;

namespace {

const char* fromMap(const std::map<std::string, std::string>& values, const char* name) {
  const auto found = values.find(name);
  return found == values.end() ? nullptr : found->second.c_str();
}

}  // namespace

TEST("capture options: the environment's variables, and a bad value named with its variable") {
  std::map<std::string, std::string> values = {
      {"KREPLAY_CAPTURE_DIR", "/tmp/x"},
      {"KREPLAY_CAPTURE_KERNEL_NAME", "gemm|axpy"},
      {"KREPLAY_CAPTURE_LAUNCH_SKIP", "3"},
      {"KREPLAY_CAPTURE_EVERY_LAUNCH", "1"},
      {"KREPLAY_CAPTURE_COMMAND", R"(["python", "a \"b\"", "c\\d\u00e9"])"}};
  auto lookup = [&](const char* name) { return fromMap(values, name); };
  const CaptureOptions options = readCaptureOptions(lookup);
  CHECK_EQ(options.directory, std::string("/tmp/x"));
  CHECK(options.kernelName == std::optional<std::string>("gemm|axpy"));
  CHECK(options.launchSkip == std::optional<std::uint64_t>(3));
  CHECK(!options.launchCount.has_value());
  CHECK(options.everyLaunch);
  CHECK_EQ(options.command.size(), std::size_t{3});
  CHECK_EQ(options.command[1], std::string("a \"b\""));
  CHECK_EQ(options.command[2], std::string("c\\d\xc3\xa9"));
  CHECK(options.fromStart);
  values["KREPLAY_CAPTURE_PROFILE_FROM_START"] = "off";
  CHECK(!readCaptureOptions(lookup).fromStart);
  values["KREPLAY_CAPTURE_PROFILE_FROM_START"] = "later";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_PROFILE_FROM_START=later is not on or off");
  values.erase("KREPLAY_CAPTURE_PROFILE_FROM_START");
  values["KREPLAY_CAPTURE_LAUNCH_COUNT"] = "-1";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_LAUNCH_COUNT=-1 is not a whole number");
  values.erase("KREPLAY_CAPTURE_LAUNCH_COUNT");
  values["KREPLAY_CAPTURE_COMMAND"] = "[\"unterminated";
  CHECK_THROWS(readCaptureOptions(lookup), "is not a JSON array of strings");
  values.erase("KREPLAY_CAPTURE_COMMAND");
  CHECK_EQ(readCaptureOptions(lookup).stagingBytes, kDefaultStagingBytes);
  CHECK_EQ(readCaptureOptions(lookup).writerThreads, 0u);  // auto
  values["KREPLAY_CAPTURE_STAGING_BYTES"] = "1048576";
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "3";
  CHECK_EQ(readCaptureOptions(lookup).stagingBytes, std::uint64_t{1048576});
  CHECK_EQ(readCaptureOptions(lookup).writerThreads, 3u);
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "auto";
  CHECK_EQ(readCaptureOptions(lookup).writerThreads, 0u);
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "0";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_WRITER_THREADS=0 is not auto or a whole number from 1 to 64");
  values["KREPLAY_CAPTURE_WRITER_THREADS"] = "lots";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_WRITER_THREADS=lots is not auto");
  values.erase("KREPLAY_CAPTURE_WRITER_THREADS");
  values["KREPLAY_CAPTURE_STAGING_BYTES"] = "4096";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_STAGING_BYTES=4096 is not a byte count of at least 65536");
  values["KREPLAY_CAPTURE_STAGING_BYTES"] = "256MiB";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_STAGING_BYTES=256MiB is not a whole number");
  values.erase("KREPLAY_CAPTURE_STAGING_BYTES");
  const std::vector<std::string> own =
      readCaptureOptions(lookup).command;  // this program's /proc/self/cmdline
  CHECK(!own.empty() && own[0].find("kreplay-capture-test") != std::string::npos);
  values.erase("KREPLAY_CAPTURE_DIR");
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_DIR is not set");
  CaptureOptions badRegex;
  badRegex.kernelName = "regex:(unclosed";
  CHECK_THROWS(LaunchSelection{badRegex},
               "KREPLAY_CAPTURE_KERNEL_NAME=regex:(unclosed is not a valid regular expression");
  CaptureOptions literal;
  literal.kernelName = "(unclosed";  // a name, matched whole: no regular expression to compile
  CHECK(!LaunchSelection{literal}.matches("scale"));
  values["KREPLAY_CAPTURE_KERNEL_NAME_BASE"] = "demangled";
  values["KREPLAY_CAPTURE_DIR"] = "/tmp/x";
  CHECK(readCaptureOptions(lookup).kernelNameBase == KernelNameBase::Demangled);
  values["KREPLAY_CAPTURE_KERNEL_NAME_BASE"] = "symbol";
  CHECK_THROWS(readCaptureOptions(lookup), "KREPLAY_CAPTURE_KERNEL_NAME_BASE");
}
