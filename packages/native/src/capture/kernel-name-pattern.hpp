// The kernel-name filter of a capture (kreplay capture --kernel-name, KREPLAY_CAPTURE_KERNEL_NAME),
// compiled by the one engine that matches it: std::regex with the ECMAScript grammar. The capture
// library matches with it, and the addon checks a pattern with it before the program starts, so
// that a pattern JavaScript accepts and std::regex does not (lookbehind, named groups, \p{...}) is
// refused up front instead of capturing nothing.
#pragma once

#include <optional>
#include <regex>
#include <stdexcept>
#include <string>

namespace kreplay::capture {

/** std::regex cannot compile a kernel-name pattern; what() is kernelNamePatternProblem's text. */
struct KernelNamePatternError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** Compiles `pattern` as the capture library matches it. Throws KernelNamePatternError. */
std::regex compileKernelNamePattern(const std::string& pattern);

/**
 * Why `pattern` cannot be a kernel-name filter: std::regex's complaint and the constructs it lacks
 * (one sentence, no trailing period), or nullopt when it compiles.
 */
std::optional<std::string> kernelNamePatternProblem(const std::string& pattern);

}  // namespace kreplay::capture
