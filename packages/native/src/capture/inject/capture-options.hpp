// What to capture, as `kreplay capture` passes it in the environment (KREPLAY_CAPTURE_*).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/kernel-name-filter.hpp"

namespace kreplay::capture {

/** A KREPLAY_CAPTURE_* variable holds something unusable (the message names it and its value). */
struct CaptureOptionsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr std::uint64_t kDefaultStagingBytes = 256ull << 20;
constexpr std::uint64_t kSmallestStagingBytes = 64ull << 10;  ///< one page
constexpr unsigned kMostWriterThreads = 64;

struct CaptureOptions {
  std::string directory;                     ///< KREPLAY_CAPTURE_DIR (required)
  /** KREPLAY_CAPTURE_KERNEL_NAME: a name matched whole, or `regex:EXPRESSION` (ECMAScript), searched. */
  std::optional<std::string> kernelName;
  /** KREPLAY_CAPTURE_KERNEL_NAME_BASE (`function`, default, `demangled` or `mangled`): the name matched. */
  KernelNameBase kernelNameBase = KernelNameBase::Function;
  std::optional<std::uint64_t> launchSkip;   ///< KREPLAY_CAPTURE_LAUNCH_SKIP
  std::optional<std::uint64_t> launchCount;  ///< KREPLAY_CAPTURE_LAUNCH_COUNT
  bool everyLaunch = false;                  ///< KREPLAY_CAPTURE_EVERY_LAUNCH=1
  /**
   * KREPLAY_CAPTURE_PROFILE_FROM_START (`on`, default, or `off`), as ncu's --profile-from-start:
   * with `off`, launches are considered only between cuProfilerStart and cuProfilerStop.
   */
  bool fromStart = true;
  std::vector<std::string> command;          ///< KREPLAY_CAPTURE_COMMAND: a JSON array of strings
  /** KREPLAY_CAPTURE_STAGING_BYTES: pinned host memory changed pages are copied through (>= 64 KiB). */
  std::uint64_t stagingBytes = kDefaultStagingBytes;
  /** KREPLAY_CAPTURE_WRITER_THREADS: `auto` (0 here: min(8, hardware threads - 1)) or 1 to 64. */
  unsigned writerThreads = 0;
  /** The process captured, for the manifest: set by the library (not read from the environment). */
  std::optional<CapturedProcess> process;
};

/** This process's command line (/proc/self/cmdline), for a manifest when KREPLAY_CAPTURE_COMMAND is unset. */
std::vector<std::string> processCommandLine();

/** Reads the options through `lookup` (getenv in the library). Throws CaptureOptionsError. */
CaptureOptions readCaptureOptions(const std::function<const char*(const char*)>& lookup);

/** Parses a JSON array of strings (KREPLAY_CAPTURE_COMMAND). Throws CaptureOptionsError. */
std::vector<std::string> parseJsonStringArray(const std::string& text);

}  // namespace kreplay::capture
