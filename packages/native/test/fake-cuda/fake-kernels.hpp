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
  /** Runs one thread of the kernel (inside runBlock) with the copied parameter values. */
  std::function<void(const std::vector<std::vector<unsigned char>>&)> run;
};

/** The kernel named `name`, or nullptr. */
const FakeKernel* findKernel(const std::string& name);

}  // namespace kreplay_fake
