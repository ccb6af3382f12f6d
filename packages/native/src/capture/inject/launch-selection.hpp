// Which launches to capture, with ncu's semantics: a name filter (kernel-name-filter.hpp: a name
// matched whole, or `regex:` searched, in the function's, demangled or mangled name), then
// --launch-skip / --launch-count over the launches that match it; with neither (and not every
// launch), the first launch of each distinct kernel. A graph launch's kernel nodes count as launches
// in the order they run (capture-session-graph.cpp), those of a graph left untouched too.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

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
  /**
   * Whether select would choose one of these launches, made in this order, when none of them is
   * captured; nothing is counted (a graph launch asks this before it runs its nodes one at a time).
   */
  bool selectsAnyOf(const std::vector<std::string>& functions);
  /**
   * Launches that ran without being captured (the kernel nodes of a graph launch left untouched),
   * counted in this order as select counts them: in the default mode their kernels stay wanted.
   */
  void countLaunches(const std::vector<std::string>& functions);
  /** A launch of `function` was written. */
  void markCaptured(const std::string& function);
  /** No launch will ever be selected again (skip + count passed). */
  bool exhausted() const;

 private:
  /** Whether the matching launch `ordinal` (from 0) lies in the skip and count window. */
  bool inWindow(std::uint64_t ordinal) const;

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
