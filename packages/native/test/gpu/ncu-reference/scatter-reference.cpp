// The scatter workload of `kreplay profile` (the default: @kreplay/bench's createScatterWorkload
// with a 1 GiB footprint, writeFraction 0.25, inputShare 0) as a standalone CUDA program, for
// comparing kreplay's CUPTI counters with `ncu --section SpeedOfLight`: it loads the cuda driver's
// committed PTX and launches kreplay_scatter_write_block exactly as the driver does (same grid,
// block, arguments), `launches` times (default 3), over `footprint` GiB (default 1, as `kreplay
// profile --footprint`), writing `write fraction` of it (default 0.25, as `--write-fraction`).
//   nvcc -o scatter-reference scatter-reference.cpp -lcuda
//   ncu --section SpeedOfLight ./scatter-reference <kreplay-kernels.compute_90.ptx>
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#define CHECK(call)                                         \
  do {                                                      \
    CUresult result = (call);                               \
    if (result != CUDA_SUCCESS) {                           \
      const char* name = nullptr;                           \
      cuGetErrorName(result, &name);                        \
      std::fprintf(stderr, "%s failed: %s\n", #call, name); \
      return 1;                                             \
    }                                                       \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: scatter-reference <ptx> [launches] [footprint GiB] [write fraction]\n");
    return 2;
  }
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  const std::string ptx = text.str();
  const int launches = argc > 2 ? std::atoi(argv[2]) : 3;

  const std::uint64_t footprint = (argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1ull) << 30;
  const std::uint64_t pageBytes = 65536;
  const double writeFraction = argc > 4 ? std::atof(argv[4]) : 0.25;
  const std::uint64_t stateBytes = std::max<std::uint64_t>(
      pageBytes, static_cast<std::uint64_t>(std::floor(footprint * 0.8 / pageBytes)) * pageBytes);
  const double fraction = std::min(1.0, writeFraction * footprint / stateBytes);

  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CUmodule module;
  CHECK(cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr));
  CUfunction scatter;
  CHECK(cuModuleGetFunction(&scatter, module, "kreplay_scatter_write_block"));
  CUfunction fill;
  CHECK(cuModuleGetFunction(&fill, module, "kreplay_fill"));
  int multiprocessors = 0;
  CHECK(cuDeviceGetAttribute(&multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));

  CUdeviceptr buffer, rest, state;
  CHECK(cuMemAlloc(&buffer, stateBytes));
  CHECK(cuMemAlloc(&rest, footprint - stateBytes));
  CHECK(cuMemAlloc(&state, 4096));
  CHECK(cuMemsetD8(state, 0, 4096));
  CHECK(cuMemsetD32(buffer, 0x9e3779b9u, stateBytes / 4));
  CHECK(cuMemsetD32(rest, 0x9e3779b9u + 1, (footprint - stateBytes) / 4));
  CHECK(cuCtxSynchronize());

  const std::uint64_t pages = (stateBytes + pageBytes - 1) / pageBytes;
  const unsigned grid = static_cast<unsigned>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(pages, static_cast<std::uint64_t>(multiprocessors) * 8)));
  for (int launch = 0; launch < launches; ++launch) {
    std::uint64_t seed = 0x5eed + launch;
    void* arguments[] = {&buffer,
                         const_cast<std::uint64_t*>(&stateBytes),
                         const_cast<std::uint64_t*>(&pageBytes),
                         const_cast<double*>(&fraction),
                         &seed,
                         &state};
    CUevent start, end;
    CHECK(cuEventCreate(&start, 0));
    CHECK(cuEventCreate(&end, 0));
    CHECK(cuEventRecord(start, nullptr));
    CHECK(cuLaunchKernel(scatter, grid, 1, 1, 256, 1, 1, 0, nullptr, arguments, nullptr));
    CHECK(cuEventRecord(end, nullptr));
    CHECK(cuEventSynchronize(end));
    float milliseconds = 0;
    CHECK(cuEventElapsedTime(&milliseconds, start, end));
    std::printf("launch %d: grid %u x 256, %llu pages, fraction %.9f, %.3f ms (events)\n", launch, grid,
                static_cast<unsigned long long>(pages), fraction, milliseconds);
  }
  (void)fill;
  return 0;
}
