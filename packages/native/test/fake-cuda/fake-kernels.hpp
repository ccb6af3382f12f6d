// Kernels the fake libcuda can launch, by name.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kreplay_fake {

struct FakeKernel {
  /** Each parameter's size, to copy the values cuLaunchKernel points at. */
  std::vector<std::size_t> parameterBytes;
  /** Each parameter's alignment, to read a parameter buffer laid out as the C ABI lays out the parameters. */
  std::vector<std::size_t> parameterAlignments;
  /** Runs one thread of the kernel (inside runBlock) with the copied parameter values. */
  std::function<void(const std::vector<std::vector<unsigned char>>&)> run;
};

/** The kernel named `name`, or nullptr. */
const FakeKernel* findKernel(const std::string& name);

/** A `__device__` global of the fixture modules: its name and size (each module gets its own copy). */
struct FakeGlobal {
  const char* name;
  std::size_t bytes;
};

/** The globals every module the fake loads has. */
const std::vector<FakeGlobal>& moduleGlobals();

}  // namespace kreplay_fake
