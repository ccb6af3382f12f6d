// Kernel launches on the stream: the built-in kernels (kernels-cuda/*.cu, bit-exact with
// core/kernels/) and user kernels loaded from a module file.
#include <cstring>

#include "core/kernels/builtin-kernel-memory.hpp"
#include "core/types.hpp"
#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/cuda-stream-work.hpp"

namespace kreplay::cuda {

namespace {

constexpr std::uint64_t kWarpPageBytes = 16 * 1024;
constexpr std::uint64_t kWarpsPerBlock = KREPLAY_BLOCK_THREADS / 32;
constexpr unsigned kStaticSharedLimit = 48 * 1024;

}  // namespace

void CudaStreamWork::builtinKernel(BuiltinKernel kernel, const std::vector<std::uint64_t>& a) {
  for (const auto& use : builtinPointerUses(kernel, a)) {
    if (driver_->memory.touchesPageable(a[use.argument], use.bytes)) return builtinKernelOnHost(kernel, a);
  }
  const CudaDevice& device = *device_;
  const BuiltinFunctions& functions = device.functions();
  constexpr unsigned threads = KREPLAY_BLOCK_THREADS;
  switch (kernel) {
    case BuiltinKernel::Fill:
      if (a[1] == 0) return;
      return launchKernel(device, functions.fill, gridFor(device, a[1], 16 * threads), threads, stream_, a[0],
                          a[1], static_cast<std::uint32_t>(a[2]), state_);
    case BuiltinKernel::ScatterWrite: {
      const std::uint64_t pageBytes = a[2];
      if (pageBytes == 0) return;
      if (a[6] >= 8) {
        launchKernel(device, functions.xorWords, gridFor(device, a[6] / 8, threads), threads, stream_, a[5],
                     a[6], state_);
      }
      // Launched even for an empty buffer: its last block resets the digest.
      const bool warp = pageBytes <= kWarpPageBytes;
      const std::uint64_t pages = (a[1] + pageBytes - 1) / pageBytes;
      return launchKernel(device, warp ? functions.scatterWrite.warp : functions.scatterWrite.block,
                          gridFor(device, pages, warp ? kWarpsPerBlock : 1), threads, stream_, a[0], a[1],
                          pageBytes, doubleOf(a[3]), a[4], state_);
    }
    case BuiltinKernel::Triad:
      if (a[4] == 0) return;
      return launchKernel(device, functions.triad, gridFor(device, a[4], 4 * threads), threads, stream_, a[0],
                          a[1], a[2], floatOf(a[3]), a[4], state_);
    case BuiltinKernel::Stencil: {
      const std::uint64_t count = a[1];
      if (count < 3) return;
      const std::uint64_t tiles = (count - 2 + KREPLAY_STENCIL_TILE - 1) / KREPLAY_STENCIL_TILE;
      const std::uint64_t halos = scratch_->reserve(2 * sizeof(float) * tiles);
      launchKernel(device, functions.stencilSave, gridFor(device, tiles, threads), threads, stream_, a[0],
                   count, tiles, halos, state_);
      return launchKernel(device, functions.stencil, gridFor(device, tiles, 1), threads, stream_, a[0], count,
                          tiles, halos, state_);
    }
    case BuiltinKernel::Accumulate: {
      // A new rotation each launch: the summation order, hence the rounding, changes from run to run.
      const std::uint64_t count = a[1];
      const std::uint64_t rotation = count == 0 ? 0 : random_() % count;
      return launchKernel(device, functions.accumulate, gridFor(device, count, threads), threads, stream_,
                          a[0], count, rotation, a[2], state_);
    }
  }
}

void CudaStreamWork::userKernel(std::uint32_t kernel, const LaunchShape& shape, UserKernelArguments arguments) {
  const std::shared_ptr<CudaUserKernel> loaded = driver_->userKernels.get(kernel);
  const CUfunction function = loaded->function(agent_);
  const CudaApi& api = device_->api();
  if (shape.sharedBytes > kStaticSharedLimit) {
    check(api,
          api.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 static_cast<int>(shape.sharedBytes)),
          "cuFuncSetAttribute");
  }
  // Words: each parameter is read from the start of its 64-bit word: little-endian, so a 4-byte
  // parameter is its low half. A buffer: passed whole, as cuLaunchKernel's `extra`.
  std::vector<void*> parameters(arguments.words.size() + 1, nullptr);
  for (std::size_t index = 0; index < arguments.words.size(); ++index) parameters[index] = &arguments.words[index];
  std::size_t bufferBytes = arguments.buffer.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, arguments.buffer.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &bufferBytes,
                   CU_LAUNCH_PARAM_END};
  void** kernelParameters = arguments.buffer.empty() ? parameters.data() : nullptr;
  void** kernelExtra = arguments.buffer.empty() ? nullptr : extra;
  if (shape.cluster[0] == 0) {
    check(api,
          api.cuLaunchKernel(function, shape.grid[0], shape.grid[1], shape.grid[2], shape.block[0], shape.block[1],
                             shape.block[2], shape.sharedBytes, stream_, kernelParameters, kernelExtra),
          "cuLaunchKernel");
    return;
  }
  if (!api.cuLaunchKernelEx) {
    throw OperationFailure("unsupported", "this libcuda has no cuLaunchKernelEx, which cluster launches need");
  }
  CUlaunchAttribute cluster{};
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = shape.cluster[0];
  cluster.value.clusterDim.y = shape.cluster[1];
  cluster.value.clusterDim.z = shape.cluster[2];
  CUlaunchConfig config{};
  config.gridDimX = shape.grid[0];
  config.gridDimY = shape.grid[1];
  config.gridDimZ = shape.grid[2];
  config.blockDimX = shape.block[0];
  config.blockDimY = shape.block[1];
  config.blockDimZ = shape.block[2];
  config.sharedMemBytes = shape.sharedBytes;
  config.hStream = stream_;
  config.attrs = &cluster;
  config.numAttrs = 1;
  check(api, api.cuLaunchKernelEx(&config, function, kernelParameters, kernelExtra), "cuLaunchKernelEx");
}

}  // namespace kreplay::cuda
