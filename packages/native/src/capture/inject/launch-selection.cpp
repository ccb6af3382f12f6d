#include "capture/inject/launch-selection.hpp"

#include "capture/kernel-name-pattern.hpp"

namespace kreplay::capture {

LaunchSelection::LaunchSelection(const CaptureOptions& options)
    : skip_(options.launchSkip), count_(options.launchCount), everyLaunch_(options.everyLaunch) {
  firstPerKernel_ = !everyLaunch_ && !skip_ && !count_;
  if (options.kernelName) {
    try {
      filter_.emplace(*options.kernelName, options.kernelNameBase);
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
  const bool match = filter_->matches(function);
  matchCache_.emplace(function, match);
  return match;
}

bool LaunchSelection::inWindow(std::uint64_t ordinal) const {
  if (ordinal < skip_.value_or(0)) return false;
  return !count_ || ordinal - skip_.value_or(0) < *count_;
}

bool LaunchSelection::select(const std::string& function) {
  const std::uint64_t ordinal = matched_++;
  if (firstPerKernel_) return captured_.count(function) == 0;
  return inWindow(ordinal);
}

bool LaunchSelection::selectsAnyOf(const std::vector<std::string>& functions) {
  std::uint64_t ordinal = matched_;
  for (const std::string& function : functions) {
    if (!matches(function)) continue;
    if (firstPerKernel_ ? captured_.count(function) == 0 : inWindow(ordinal)) return true;
    ordinal += 1;
  }
  return false;
}

void LaunchSelection::countLaunches(const std::vector<std::string>& functions) {
  for (const std::string& function : functions)
    if (!exhausted() && matches(function)) select(function);
}

void LaunchSelection::markCaptured(const std::string& function) {
  captured_.insert(function);
}

bool LaunchSelection::exhausted() const {
  return count_.has_value() && matched_ >= skip_.value_or(0) + *count_;
}

}  // namespace kreplay::capture
