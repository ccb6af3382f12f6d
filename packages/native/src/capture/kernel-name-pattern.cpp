#include "capture/kernel-name-pattern.hpp"

namespace kreplay::capture {

namespace {

// What std::regex (ECMAScript grammar) lacks that JavaScript's RegExp has, in words.
const char* const kKernelNamePatternLimits =
    "it has no lookbehind ((?<=...), (?<!...)), named groups ((?<name>...)), inline flags ((?i)) or "
    "Unicode escapes (\\p{...}, \\u{...}), which JavaScript's RegExp has";

}  // namespace

std::regex compileKernelNamePattern(const std::string& pattern) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    throw KernelNamePatternError(std::string("C++ std::regex (ECMAScript grammar) cannot compile it: ") +
                                 error.what() + "; " + kKernelNamePatternLimits);
  }
}

std::optional<std::string> kernelNamePatternProblem(const std::string& pattern) {
  try {
    compileKernelNamePattern(pattern);
  } catch (const KernelNamePatternError& error) {
    return std::string(error.what());
  }
  return std::nullopt;
}

}  // namespace kreplay::capture
