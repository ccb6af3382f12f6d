// A program of two tiny kernels, for the fixed cost each tool's duration holds around a kernel: an
// empty one-block kernel and a store over 256 blocks, each launched 10 times between
// cudaProfilerStart and cudaProfilerStop after a warm-up. counter-experiment.sh runs it with
//   nvcc -O2 -arch=sm_90 -o /tmp/launch-overhead launch-overhead.cu
//   PROGRAM=/tmp/launch-overhead LAUNCHES=20 counter-experiment.sh
#include <cstdio>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

__global__ void emptyKernel() {}

__global__ void storeKernel(float* values) { values[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

static int failed(cudaError_t error, const char* what) {
  std::fprintf(stderr, "launch-overhead: %s failed: %s\n", what, cudaGetErrorString(error));
  return 1;
}

int main() {
  float* values = nullptr;
  if (cudaError_t error = cudaMalloc(&values, 256 * 128 * sizeof(float)); error != cudaSuccess) return failed(error, "cudaMalloc");
  for (int round = 0; round < 3; ++round) {
    emptyKernel<<<1, 32>>>();
    storeKernel<<<256, 128>>>(values);
  }
  if (cudaError_t error = cudaDeviceSynchronize(); error != cudaSuccess) return failed(error, "warm-up");
  cudaProfilerStart();
  for (int round = 0; round < 10; ++round) {
    emptyKernel<<<1, 32>>>();
    storeKernel<<<256, 128>>>(values);
  }
  if (cudaError_t error = cudaDeviceSynchronize(); error != cudaSuccess) return failed(error, "the profiled launches");
  cudaProfilerStop();
  std::printf("{\"launches\": 20}\n");
  return 0;
}
