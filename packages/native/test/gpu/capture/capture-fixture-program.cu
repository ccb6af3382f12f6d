// A small CUDA program for the capture library's GPU test (capture-library.test.ts), not written for
// kreplay: it allocates device memory, launches the axpy fixture twice through the runtime API, a
// kernel taking a struct by value that reads a __device__ global, and the axpy fixture once more
// through cuLaunchKernel with `extra`. It prints what the test checks: "y <address> x <address>
// out <address> n <count>" and, at the end, "ok".
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "axpy.cu"  // test/capture-fixtures (the test passes -I)

struct Affine {
  float* out;
  float scale;
  int count;
  double bias;
};

__device__ float kreplay_capture_fixture_offset = 0.5f;

__global__ void kreplay_capture_fixture_affine(Affine affine) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < affine.count) affine.out[i] = affine.scale * i + static_cast<float>(affine.bias) + kreplay_capture_fixture_offset;
}

#define CHECK_CUDA(call)                                                              \
  do {                                                                                \
    const cudaError_t error = (call);                                                 \
    if (error != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(error));      \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

int main() {
  const unsigned n = 100000;  // 400 KB per array: 7 pages of 64 KiB
  std::vector<float> host(n);
  for (unsigned i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  float *y = nullptr, *x = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&y, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(y, 0, n * sizeof(float)));
  std::printf("y %p x %p out %p n %u\n", static_cast<void*>(y), static_cast<void*>(x), static_cast<void*>(out), n);

  const unsigned blocks = (n + 255) / 256;
  kreplay_capture_fixture_axpy<<<blocks, 256>>>(y, x, 2.0f, n);
  kreplay_capture_fixture_axpy<<<blocks, 256>>>(y, x, 3.0f, n);
  kreplay_capture_fixture_affine<<<blocks, 256>>>(Affine{out, 0.25f, static_cast<int>(n), 1.5});
  CHECK_CUDA(cudaGetLastError());

  // The same axpy through the driver API with its parameters in an `extra` buffer.
  cudaFunction_t function = nullptr;
  CHECK_CUDA(cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(&kreplay_capture_fixture_axpy)));
  struct {
    float* y;
    const float* x;
    float a;
    unsigned n;
  } buffer{y, x, 4.0f, n};
  std::size_t size = sizeof buffer;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  // cuLaunchKernel through cudaGetDriverEntryPointByVersion (cuGetProcAddress), as PyTorch resolves
  // driver calls: no link to libcuda.
  using LaunchKernel = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    CUstream, void**, void**);
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult status{};
  CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &entry, 12000, cudaEnableDefault, &status));
  if (entry == nullptr || status != cudaDriverEntryPointSuccess) {
    std::fprintf(stderr, "cuLaunchKernel was not found through cudaGetDriverEntryPointByVersion\n");
    return 1;
  }
  const CUresult launched = reinterpret_cast<LaunchKernel>(entry)(reinterpret_cast<CUfunction>(function), blocks, 1, 1,
                                                                  256, 1, 1, 0, nullptr, nullptr, extra);
  if (launched != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuLaunchKernel with extra failed: %d\n", static_cast<int>(launched));
    return 1;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(host.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  // y = (2 + 3 + 4) * x
  for (unsigned i = 0; i < n; i += 997) {
    if (host[i] != 9.0f * static_cast<float>(i)) {
      std::fprintf(stderr, "y[%u] = %f, expected %f\n", i, host[i], 9.0f * i);
      return 1;
    }
  }
  CHECK_CUDA(cudaFree(y));
  CHECK_CUDA(cudaFree(x));
  CHECK_CUDA(cudaFree(out));
  std::printf("ok\n");
  return 0;
}
