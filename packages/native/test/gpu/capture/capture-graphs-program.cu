// A CUDA program that runs its kernels inside a graph, for the capture library's GPU test
// (capture-graphs.test.ts): a memset and two kernels captured from a stream into a graph, launched
// three times; then the same work launched plainly on copies of the buffers (kernels of other names,
// which the test's selection leaves out). Prints `ok` when the graph's results equal the plain ones
// bit for bit (the capture changed nothing the program computes), else `mismatch`.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                      \
  do {                                                                   \
    cudaError_t result = (call);                                         \
    if (result != cudaSuccess) {                                         \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(result)); \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

__device__ void scaleBody(float* data, size_t count, float factor) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    data[i] = __fadd_rn(__fmul_rn(data[i], factor), 1.0f);
}
__device__ void sumBody(float* out, const float* in, size_t count) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    out[i] = __fadd_rn(out[i], in[i]);
}
__global__ void kreplay_graph_scale(float* data, size_t count, float factor) { scaleBody(data, count, factor); }
__global__ void kreplay_graph_sum(float* out, const float* in, size_t count) { sumBody(out, in, count); }
__global__ void kreplay_plain_scale(float* data, size_t count, float factor) { scaleBody(data, count, factor); }
__global__ void kreplay_plain_sum(float* out, const float* in, size_t count) { sumBody(out, in, count); }

int main() {
  const size_t count = 1 << 20, bytes = count * sizeof(float);
  std::vector<float> initial(count);
  for (size_t i = 0; i < count; ++i) initial[i] = static_cast<float>(i % 7) * 0.5f;
  float *a = nullptr, *b = nullptr, *plainA = nullptr, *plainB = nullptr;
  for (float** buffer : {&a, &b, &plainA, &plainB}) CHECK(cudaMalloc(buffer, bytes));
  for (float* buffer : {a, plainA}) CHECK(cudaMemcpy(buffer, initial.data(), bytes, cudaMemcpyHostToDevice));
  for (float* buffer : {b, plainB}) CHECK(cudaMemset(buffer, 0x3f, bytes));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(b, 0, bytes, stream));
  kreplay_graph_scale<<<128, 256, 0, stream>>>(a, count, 1.5f);
  kreplay_graph_sum<<<128, 256, 0, stream>>>(b, a, count);
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 3; ++launch) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));

  for (int launch = 0; launch < 3; ++launch) {
    CHECK(cudaMemsetAsync(plainB, 0, bytes, stream));
    kreplay_plain_scale<<<128, 256, 0, stream>>>(plainA, count, 1.5f);
    kreplay_plain_sum<<<128, 256, 0, stream>>>(plainB, plainA, count);
  }
  CHECK(cudaStreamSynchronize(stream));
  std::vector<float> left(count), right(count);
  bool same = true;
  for (auto [graphBuffer, plainBuffer] : {std::pair{a, plainA}, std::pair{b, plainB}}) {
    CHECK(cudaMemcpy(left.data(), graphBuffer, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(right.data(), plainBuffer, bytes, cudaMemcpyDeviceToHost));
    same = same && std::memcmp(left.data(), right.data(), bytes) == 0;
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  std::printf("%s\n", same ? "ok" : "mismatch");
  return same ? 0 : 1;
}
