// Does memory made with cuMemCreate and mapped with cuMemMap (how kreplay re-creates a capture's
// memory) cross between the L2's two partitions in more, smaller requests than cudaMalloc memory
// (how the captured program made it)? Under ncu on an H200, kreplay's captured kernels made 1.27x
// the program's L2 fabric requests for 0.97x the sectors, while every request from the
// multiprocessors matched (experiments/results/counter-experiment-h200/run-11-source-units).
// The same kernel, under three names, reads and writes 64 MiB of: cudaMalloc memory
// (scale_malloc), one cuMemCreate handle mapped at once (scale_vmm_one), and 2 MiB handles mapped
// side by side (scale_vmm_chunks), each five times. Profile it with the L2's requests by unit:
//   nvcc -O2 -std=c++17 vmm-fabric.cu -lcuda -o vmm-fabric && ncu --cache-control all \
//     --clock-control none --csv --page raw --metrics gpu__time_duration.sum,\
// lts__t_requests_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric.sum,\
// lts__t_requests_srcunit_tex.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed ./vmm-fabric
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr std::size_t kBytes = std::size_t{64} << 20;
constexpr std::size_t kChunk = std::size_t{2} << 20;
constexpr int kLaunches = 5;

void check(CUresult result, const char* step) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s failed: %s\n", step, name ? name : "?");
  std::exit(1);
}

void check(cudaError_t result, const char* step) {
  if (result == cudaSuccess) return;
  std::fprintf(stderr, "%s failed: %s\n", step, cudaGetErrorString(result));
  std::exit(1);
}

/** The first half of `buffer` scaled into its second half. */
__device__ void scale(float* buffer) {
  const std::size_t half = kBytes / sizeof(float) / 2;
  for (std::size_t index = blockIdx.x * blockDim.x + threadIdx.x; index < half; index += gridDim.x * blockDim.x) {
    buffer[half + index] = 2.0f * buffer[index] + 1.0f;
  }
}

__global__ void scale_malloc(float* buffer) { scale(buffer); }
__global__ void scale_vmm_one(float* buffer) { scale(buffer); }
__global__ void scale_vmm_chunks(float* buffer) { scale(buffer); }

/** kBytes of device memory mapped from handles of `handleBytes` each, side by side. */
CUdeviceptr mapped(std::size_t handleBytes, std::vector<CUmemGenericAllocationHandle>& handles) {
  CUmemAllocationProp properties{};
  properties.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  properties.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUdeviceptr start = 0;
  check(cuMemAddressReserve(&start, kBytes, kChunk, 0, 0), "cuMemAddressReserve");
  for (std::size_t offset = 0; offset < kBytes; offset += handleBytes) {
    CUmemGenericAllocationHandle handle = 0;
    check(cuMemCreate(&handle, handleBytes, &properties, 0), "cuMemCreate");
    check(cuMemMap(start + offset, handleBytes, 0, handle, 0), "cuMemMap");
    handles.push_back(handle);
  }
  CUmemAccessDesc access{properties.location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  check(cuMemSetAccess(start, kBytes, &access, 1), "cuMemSetAccess");
  return start;
}

}  // namespace

int main() {
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaFree(nullptr), "cudaFree");  // the primary context, current for the driver calls below
  float* fromMalloc = nullptr;
  check(cudaMalloc(&fromMalloc, kBytes), "cudaMalloc");
  std::vector<CUmemGenericAllocationHandle> handles;
  auto* one = reinterpret_cast<float*>(mapped(kBytes, handles));
  auto* chunks = reinterpret_cast<float*>(mapped(kChunk, handles));
  for (float* buffer : {fromMalloc, one, chunks}) check(cudaMemset(buffer, 0x3f, kBytes), "cudaMemset");
  for (int launch = 0; launch < kLaunches; ++launch) {
    scale_malloc<<<528, 256>>>(fromMalloc);
    scale_vmm_one<<<528, 256>>>(one);
    scale_vmm_chunks<<<528, 256>>>(chunks);
  }
  check(cudaDeviceSynchronize(), "the kernels");
  std::printf("ok: %d launches each of scale_malloc, scale_vmm_one and scale_vmm_chunks over %zu MiB\n", kLaunches,
              kBytes >> 20);
  return 0;
}
