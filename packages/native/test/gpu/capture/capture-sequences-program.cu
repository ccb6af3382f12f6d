// A CUDA program whose launches form captured sequences of every kind, for the capture library's GPU
// test (capture-library.test.ts): launches on two streams with memsets, copies from the host, a host
// function, an event wait across streams, a launch the selection leaves out and a copy to the host
// between them. Each launch's comment says how the capture should link it to the one before.
// Prints `ok` and the first host float at the end.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t result = (call);                                                     \
    if (result != cudaSuccess) {                                                     \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(result));             \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

__global__ void kreplay_sequence_touch(float* data, size_t count, float value) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    data[i] = data[i] * 0.5f + value;
}

__global__ void kreplay_sequence_other(float* data, size_t count) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) data[i] += 1.0f;
}

void hostFunction(void*) {}

int main() {
  float *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, 8 << 20));
  CHECK(cudaMalloc(&b, 8 << 20));
  CHECK(cudaMemset(a, 0, 8 << 20));
  CHECK(cudaMemset(b, 0, 8 << 20));
  cudaStream_t first, second;
  CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  cudaEvent_t event;
  CHECK(cudaEventCreate(&event));
  std::vector<float> host(16384, 2.0f);
  kreplay_sequence_touch<<<64, 256, 0, first>>>(a, 1 << 20, 1.0f);                    // 0: first-launch
  CHECK(cudaMemsetAsync(b, 3, 1 << 20, first));
  kreplay_sequence_touch<<<64, 256, 0, first>>>(b, 1 << 18, 2.0f);                    // 1: follows 0 (a memset before)
  CHECK(cudaMemcpyAsync(a + (1 << 20), host.data(), 65536, cudaMemcpyHostToDevice, first));
  kreplay_sequence_touch<<<64, 256, 0, first>>>(a, 1 << 21, 3.0f);                    // 2: follows 1 (an upload before)
  kreplay_sequence_touch<<<64, 256, 0, second>>>(b, 1 << 20, 4.0f);                   // 3: other-stream
  CHECK(cudaLaunchHostFunc(second, hostFunction, nullptr));
  kreplay_sequence_touch<<<64, 256, 0, second>>>(b, 1 << 20, 5.0f);                   // 4: host-function
  CHECK(cudaEventRecord(event, first));
  CHECK(cudaStreamWaitEvent(second, event, 0));
  kreplay_sequence_touch<<<64, 256, 0, second>>>(a, 1 << 20, 6.0f);                   // 5: cross-stream-wait
  kreplay_sequence_other<<<64, 256, 0, second>>>(a, 1 << 20);                         // left out by the selection
  kreplay_sequence_touch<<<64, 256, 0, second>>>(a, 1 << 20, 7.0f);                   // 6: uncaptured-launch
  kreplay_sequence_touch<<<64, 256, 0, second>>>(a, 1 << 20, 8.0f);                   // 7: follows 6
  CHECK(cudaMemcpyAsync(host.data(), a, 65536, cudaMemcpyDeviceToHost, second));      // a download
  kreplay_sequence_touch<<<64, 256, 0, second>>>(a, 1 << 20, 9.0f);                   // 8: follows 7
  CHECK(cudaDeviceSynchronize());
  std::printf("ok host[0] %f\n", host[0]);
  return 0;
}
