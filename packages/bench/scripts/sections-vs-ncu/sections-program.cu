// The kernel sections-vs-ncu.sh profiles with ncu and with kreplay: one launch of a templated kernel
// in a namespace (so that ncu's --kernel-name-base function and kreplay's name it alike), reading two
// vectors and writing one, with a loop of arithmetic, so that every section has something to count.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

namespace demo {

template <int Unroll>
__global__ void saxpy_kernel(float a, const float* x, float* y, int n) {
  const int first = (blockIdx.x * blockDim.x + threadIdx.x) * Unroll;
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const int i = first + k;
    if (i < n) {
      float value = y[i];
      for (int step = 0; step < 8; ++step) value = a * x[i] + value * 0.5f;
      y[i] = value;
    }
  }
}

}  // namespace demo

static void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

int main() {
  const int n = 1 << 24;
  const int unroll = 4;
  const int block = 256;
  const int grid = (n / unroll + block - 1) / block;
  std::vector<float> host(n, 1.0f);
  float* x = nullptr;
  float* y = nullptr;
  check(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc");
  check(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(y, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  demo::saxpy_kernel<unroll><<<grid, block>>>(2.0f, x, y, n);
  check(cudaGetLastError(), "the launch");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check(cudaMemcpy(host.data(), y, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  std::printf("saxpy done: y[0] = %g\n", host[0]);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
