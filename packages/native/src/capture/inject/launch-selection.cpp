#include "capture/inject/launch-selection.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include "capture/kernel-name-pattern.hpp"

namespace kreplay::capture {

std::string demangledName(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : mangled;
}

LaunchSelection::LaunchSelection(const CaptureOptions& options)
    : skip_(options.launchSkip), count_(options.launchCount), everyLaunch_(options.everyLaunch) {
  firstPerKernel_ = !everyLaunch_ && !skip_ && !count_;
  if (options.kernelName) {
    try {
      filter_.emplace(compileKernelNamePattern(*options.kernelName));
    } catch (const KernelNamePatternError& error) {
      throw CaptureOptionsError("[kreplay capture] KREPLAY_CAPTURE_KERNEL_NAME=" + *options.kernelName +
                                " is not a valid regular expression for the capture library: " +
                                error.what() + ". Rewrite --kernel-name without them.");
    }
  }
}

bool LaunchSelection::matches(const std::string& function) {
  if (!filter_) return true;
  const auto cached = matchCache_.find(function);
  if (cached != matchCache_.end()) return cached->second;
  const bool match =
      std::regex_search(function, *filter_) || std::regex_search(demangledName(function), *filter_);
  matchCache_.emplace(function, match);
  return match;
}

bool LaunchSelection::select(const std::string& function) {
  const std::uint64_t ordinal = matched_++;
  if (firstPerKernel_) return captured_.count(function) == 0;
  if (ordinal < skip_.value_or(0)) return false;
  return !count_ || ordinal - skip_.value_or(0) < *count_;
}

void LaunchSelection::markCaptured(const std::string& function) {
  captured_.insert(function);
}

bool LaunchSelection::exhausted() const {
  return count_.has_value() && matched_ >= skip_.value_or(0) + *count_;
}

}  // namespace kreplay::capture
