// A capture fixture whose kernel writes host memory: each block of 256 threads reduces
// a[i] + b[i] over its 256 elements in shared memory (a tree, halving the stride, each step rounded
// on its own) and thread 0 stores the block's sum in sums[blockIdx.x], which the tests place in
// mapped pinned host memory. Deterministic: the tree's order is fixed. Compiled for the CPU into
// the fake libcuda (test/fake-cuda/fake-kernels.cpp), and to PTX
// (test/gpu/kernels/capture-fixture-block-sums.ptx) by nvcc. Launch it with 256-thread blocks.
// Its parameter buffer: a at 0, b at 8, sums at 16, n at 24; 28 bytes (where the last parameter
// ends: CUDA refuses a longer buffer with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).

extern "C" {

__global__ void kreplay_capture_fixture_block_sums(const float* a, const float* b, float* sums, unsigned n) {
  __shared__ float partial[256];
  const unsigned index = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = index < n ? __fadd_rn(a[index], b[index]) : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] = __fadd_rn(partial[threadIdx.x], partial[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

}  // extern "C"
