// Which launches to capture, with ncu's semantics: a name filter (kernel-name-filter.hpp: a name
// matched whole, or `regex:` searched, in the function's, demangled or mangled name), then
// --launch-skip / --launch-count over the launches that match it; with neither (and not every
// launch), the first launch of each distinct kernel.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "capture/inject/capture-options.hpp"
#include "capture/kernel-name-filter.hpp"

namespace kreplay::capture {

class LaunchSelection {
 public:
  /** Throws CaptureOptionsError when the name filter's `regex:` expression does not compile. */
  explicit LaunchSelection(const CaptureOptions& options);

  /** Whether the kernel's name passes the filter (cached per name). */
  bool matches(const std::string& function);
  /**
   * Called once per launch that matches the filter: whether to capture it. In the default mode a
   * kernel stays wanted until markCaptured names it, so a launch that could not be captured does not
   * use up its kernel's turn.
   */
  bool select(const std::string& function);
  /** A launch of `function` was written. */
  void markCaptured(const std::string& function);
  /** No launch will ever be selected again (skip + count passed). */
  bool exhausted() const;

 private:
  std::optional<KernelNameFilter> filter_;
  std::optional<std::uint64_t> skip_;
  std::optional<std::uint64_t> count_;
  bool everyLaunch_;
  bool firstPerKernel_;
  std::uint64_t matched_ = 0;
  std::map<std::string, bool> matchCache_;
  std::set<std::string> captured_;
};

}  // namespace kreplay::capture
