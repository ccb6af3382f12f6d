// A kernel graph: kernel launches, memsets and copies recorded once and launched as one unit, in
// order (each step depends on the one before). Drivers that run graphs (host, cuda) make their own
// executable form in Driver::createGraph; Queue::enqueueGraph launches it as one work operation.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/kernels/builtin-kernels.hpp"
#include "core/types.hpp"
#include "core/user-kernel.hpp"

namespace kreplay {

/** One step of a graph. */
struct GraphStep {
  enum class Kind : int { BuiltinKernel = 0, UserKernel = 1, Memset = 2, Copy = 3 };
  Kind kind = Kind::Copy;
  /** BuiltinKernel: the kernel and its argument words. */
  BuiltinKernel builtin = BuiltinKernel::Fill;
  std::vector<std::uint64_t> words;
  /** UserKernel: its id (Driver::loadUserKernel), shape and arguments. */
  std::uint32_t userKernel = 0;
  LaunchShape shape{};
  UserKernelArguments arguments;
  /** Memset: every byte of `range` set to `value`. */
  Range range{};
  std::uint8_t value = 0;
  /** Copy: one segment. */
  Segment segment{};
};

/** A graph a driver made for one agent; the driver's subclass holds its executable form. */
class KernelGraph {
 public:
  KernelGraph(std::uint32_t agent, std::vector<GraphStep> steps) : agent_(agent), steps_(std::move(steps)) {}
  virtual ~KernelGraph() = default;
  KernelGraph(const KernelGraph&) = delete;
  KernelGraph& operator=(const KernelGraph&) = delete;

  std::uint32_t agent() const { return agent_; }
  const std::vector<GraphStep>& steps() const { return steps_; }

 private:
  std::uint32_t agent_;
  std::vector<GraphStep> steps_;
};

}  // namespace kreplay
