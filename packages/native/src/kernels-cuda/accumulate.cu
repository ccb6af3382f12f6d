// accumulate: a float32 sum whose bits are deliberately NOT deterministic, like a GPU reduction with
// float atomics: the elements are taken from a rotation chosen by the host for each launch, each
// block's partial sum is added to the queue state with an atomic (so in arrival order), and the
// block that finishes last stores the total and resets the state.
#include "kernels-cuda/device-common.cuh"

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_accumulate(const uint8_t* input, uint64_t count, uint64_t rotation, uint8_t* output,
                       KreplayQueueState* state) {
  using namespace kreplay_device;
  if (skipped(state)) return;
  __shared__ float partial[KREPLAY_BLOCK_THREADS];
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  float sum = 0.0f;
  for (uint64_t position = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; position < count;
       position += stride) {
    uint64_t index = position + rotation;
    if (index >= count) index -= count;
    sum = __fadd_rn(sum, __uint_as_float(loadUint32(input + 4 * index)));
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned half = KREPLAY_BLOCK_THREADS / 2; half > 0; half >>= 1) {
    if (threadIdx.x < half)
      partial[threadIdx.x] = __fadd_rn(partial[threadIdx.x], partial[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&state->floatSum, partial[0]);
  if (lastBlockDone(state)) {
    const float total = atomicExch(&state->floatSum, 0.0f);
    storeUint32(output, __float_as_uint(total));
  }
}
