// Kernel launches in the fake libcuda (fake-launches.cpp): a function handle, the parameter values a
// launch copies, and running a kernel's grid, for the graph nodes that launch kernels too.
#pragma once

#include <vector>

#include "fake-fibers.hpp"
#include "fake-kernels.hpp"

struct CUfunc_st {
  const kreplay_fake::FakeKernel* kernel;
  const char* name;
};

namespace kreplay_fake {

using ParameterValues = std::vector<std::vector<unsigned char>>;

/** Runs a kernel's grid on the calling thread. */
void runKernel(const FakeKernel& kernel, const ParameterValues& values, Dim3 grid, Dim3 block);
/**
 * A launch's parameter values from `parameters` or `extra`; `valid` false when they do not fit the
 * kernel, `tooLong` when an `extra` buffer holds more bytes than the parameters span.
 */
ParameterValues launchValues(const FakeKernel& kernel, void** parameters, void** extra, bool& valid, bool& tooLong);

}  // namespace kreplay_fake
