// Kernel launches in the fake libcuda: the parameter values are copied when the launch is made (from
// `kernelParams` or an `extra` buffer), then the grid runs block after block on the stream's worker
// (a captured launch becomes a kernel node instead). cuLaunchKernelEx checks clusters as CUDA does.
#include "fake-launches.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>

#include "fake-cuda-results.hpp"
#include "fake-graphs.hpp"
#include "fake-streams.hpp"

using kreplay_fake::CUresult;
using kreplay_fake::kInvalidClusterSize;
using kreplay_fake::kInvalidValue;
using kreplay_fake::kSuccess;

namespace kreplay_fake {

/**
 * The parameter values of a launch: from `parameters` (one pointer per parameter), or from the
 * buffer `extra` passes (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE), laid out as the C ABI lays out the
 * kernel's parameters. Empty (with `valid` false) when the buffer is shorter than the parameters;
 * `tooLong` when it holds more than they span (the last one's end, no padding after it), which CUDA
 * refuses with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (seen on an H100 with a 32-byte buffer for 28 bytes
 * of parameters).
 */
ParameterValues launchValues(const FakeKernel& kernel, void** parameters, void** extra, bool& valid, bool& tooLong) {
  std::vector<std::vector<unsigned char>> values;
  valid = true;
  tooLong = false;
  const unsigned char* buffer = nullptr;
  std::size_t bufferBytes = 0;
  bool hasSize = false;
  for (std::size_t index = 0; extra && extra[index]; index += 2) {
    const auto key = reinterpret_cast<std::uintptr_t>(extra[index]);
    if (key == 1) buffer = static_cast<const unsigned char*>(extra[index + 1]);
    if (key == 2) {
      bufferBytes = *static_cast<const std::size_t*>(extra[index + 1]);
      hasSize = true;
    }
  }
  if (!buffer) {
    if (!parameters && !kernel.parameterBytes.empty()) valid = false;
    for (std::size_t index = 0; valid && index < kernel.parameterBytes.size(); ++index) {
      const auto* bytes = static_cast<const unsigned char*>(parameters[index]);
      values.emplace_back(bytes, bytes + kernel.parameterBytes[index]);
    }
    return values;
  }
  std::size_t offset = 0;
  for (std::size_t index = 0; index < kernel.parameterBytes.size(); ++index) {
    const std::size_t alignment = kernel.parameterAlignments[index];
    offset = (offset + alignment - 1) / alignment * alignment;
    if (offset + kernel.parameterBytes[index] > bufferBytes) break;
    values.emplace_back(buffer + offset, buffer + offset + kernel.parameterBytes[index]);
    offset += kernel.parameterBytes[index];
  }
  valid = hasSize && values.size() == kernel.parameterBytes.size();
  tooLong = valid && bufferBytes > offset;
  return values;
}

void runKernel(const FakeKernel& kernel, const ParameterValues& values, Dim3 grid, Dim3 block) {
  const std::function<void()> body = [&] { kernel.run(values); };
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) runBlock(body, {x, y, z}, block, grid);
}

}  // namespace kreplay_fake

namespace {

CUresult launch(CUfunc_st* function, kreplay_fake::Dim3 grid, kreplay_fake::Dim3 block, unsigned sharedBytes,
                CUstream_st* stream, void** parameters, void** extra) {
  const kreplay_fake::FakeKernel* kernel = function->kernel;
  bool valid = false;
  bool tooLong = false;
  kreplay_fake::ParameterValues values = kreplay_fake::launchValues(*kernel, parameters, extra, valid, tooLong);
  if (!valid) return kInvalidValue;
  if (tooLong) return kreplay_fake::kLaunchOutOfResources;
  if (kreplay_fake::captureKernel(stream, function, grid, block, sharedBytes, values)) return kSuccess;
  kreplay_fake::runOn(stream, [kernel, values = std::move(values), grid, block] {
    kreplay_fake::runKernel(*kernel, values, grid, block);
  });
  return kSuccess;
}

/** The part of CUlaunchConfig and CUlaunchAttribute the fake reads (cuda.h's layout). */
struct LaunchAttribute {
  int id;
  char pad[4];
  union alignas(8) {  // cuda.h's holds pointers
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream_st* hStream;
  LaunchAttribute* attrs;
  unsigned numAttrs;
};

}  // namespace

extern "C" {

CUresult cuLaunchKernel(CUfunc_st* function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                        unsigned blockY, unsigned blockZ, unsigned sharedBytes, CUstream_st* stream, void** parameters,
                        void** extra) {
  return launch(function, {gridX, gridY, gridZ}, {blockX, blockY, blockZ}, sharedBytes, stream, parameters, extra);
}

// Clusters, as CUDA checks them: each dimension divides the grid's, at most 8 blocks in all. The
// blocks of a cluster run one after another like any others (no distributed shared memory).
CUresult cuLaunchKernelEx(const LaunchConfig* config, CUfunc_st* function, void** parameters, void** extra) {
  for (unsigned index = 0; index < config->numAttrs; ++index) {
    const LaunchAttribute& attribute = config->attrs[index];
    if (attribute.id != 4) continue;  // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    const auto& cluster = attribute.value.clusterDim;
    if (cluster.x == 0 || cluster.y == 0 || cluster.z == 0 || config->gridDimX % cluster.x != 0 ||
        config->gridDimY % cluster.y != 0 || config->gridDimZ % cluster.z != 0 ||
        cluster.x * cluster.y * cluster.z > 8)
      return kInvalidClusterSize;
  }
  return launch(function, {config->gridDimX, config->gridDimY, config->gridDimZ},
                {config->blockDimX, config->blockDimY, config->blockDimZ}, config->sharedMemBytes, config->hStream,
                parameters, extra);
}

}  // extern "C"
