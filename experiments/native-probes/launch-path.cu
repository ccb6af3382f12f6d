// Does the way a kernel is launched or where its memory lives change its gpu__time_duration (issue
// 16: `kreplay profile capture:` reads short captured kernels 200-300 ns longer than ncu reads them in
// the program)? One small kernel with a by-value parameter struct of 64 B or 2 KiB writes 1 MiB, 4
// MiB or 16 MiB; it is launched ROUNDS times each way, alternating:
//   params: cuLaunchKernel with kernelParams (as programs launch),
//   extra:  cuLaunchKernel with the same bytes in an extra buffer (as kreplay replays a capture),
//   vmm:    kernelParams, writing memory of cuMemCreate + cuMemMap instead of cuMemAlloc.
//   nvcc -O2 -std=c++17 -arch=sm_90 launch-path.cu -o launch-path -lcuda
//   ncu --clock-control none --cache-control all --csv --page raw --metrics gpu__time_duration.sum ./launch-path 10
// Each launch's NVTX-free name is its kernel's: launch_path_<bytes of parameters>; the order of
// the launches is printed, so the CSV's rows can be told apart (see summarize-launch-path.py).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                              \
  do {                                                                           \
    CUresult result_ = (call);                                                   \
    if (result_ != CUDA_SUCCESS) {                                               \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #call, result_, __LINE__); \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

template <int PadBytes>
struct Parameters {
  float* out;
  unsigned count;
  unsigned char pad[PadBytes];
};

template <int PadBytes>
__global__ void launchPath(Parameters<PadBytes> parameters) {
  const unsigned index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index < parameters.count) parameters.out[index] = parameters.pad[index % PadBytes] + 1.0f;
}

/** Device memory of cuMemCreate mapped at an address cuMemAddressReserve chose. */
CUdeviceptr vmmAllocate(std::size_t bytes, int device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  std::size_t granularity = 0;
  CHECK(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  bytes = (bytes + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle handle;
  CHECK(cuMemCreate(&handle, bytes, &prop, 0));
  CUdeviceptr address = 0;
  CHECK(cuMemAddressReserve(&address, bytes, 0, 0, 0));
  CHECK(cuMemMap(address, bytes, 0, handle, 0));
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK(cuMemSetAccess(address, bytes, &access, 1));
  return address;
}

template <int PadBytes>
void launchEachWay(CUdeviceptr plain, CUdeviceptr vmm, unsigned count, int rounds) {
  CUfunction function;
  if (cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t*>(&function), reinterpret_cast<const void*>(&launchPath<PadBytes>)) != cudaSuccess) {
    std::fprintf(stderr, "cudaGetFuncBySymbol failed\n");
    std::exit(1);
  }
  Parameters<PadBytes> parameters{};
  for (int i = 0; i < PadBytes; ++i) parameters.pad[i] = static_cast<unsigned char>(i);
  parameters.count = count;
  const unsigned block = 256;
  const unsigned grid = (count + block - 1) / block;
  for (int round = 0; round < rounds; ++round) {
    for (const char* way : {"params", "extra", "vmm"}) {
      parameters.out = reinterpret_cast<float*>(way[0] == 'v' ? vmm : plain);
      void* kernelParams[] = {&parameters};
      std::size_t size = sizeof parameters;
      void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &parameters, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
      if (way[0] == 'e')
        CHECK(cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, nullptr, nullptr, extra));
      else
        CHECK(cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, nullptr, kernelParams, nullptr));
      CHECK(cuCtxSynchronize());
      std::printf("%d %u %s\n", static_cast<int>(sizeof parameters), count * 4, way);
    }
  }
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
  cudaFree(nullptr);  // the primary context
  CUdevice device;
  CHECK(cuCtxGetDevice(&device));
  const std::size_t most = 16u << 20;
  CUdeviceptr plain = 0;
  CHECK(cuMemAlloc(&plain, most));
  const CUdeviceptr vmm = vmmAllocate(most, device);
  for (unsigned bytes : {1u << 20, 4u << 20, 16u << 20}) {
    launchEachWay<48>(plain, vmm, bytes / 4, rounds);
    launchEachWay<2032>(plain, vmm, bytes / 4, rounds);
  }
  return 0;
}
