// stencil, in place with Jacobi semantics (every new value from the old ones), bit-exact with the
// host: x[i] = ((x[i-1] + x[i]) + x[i+1]) / 3 for 0 < i < count-1. The interior is cut into tiles;
// a first kernel saves the old value just outside each tile, then one block per tile reads its
// tile, computes from it and the saved halo values, and writes it back. A tile's own elements are
// written only by its block, so no block reads a value another block has overwritten.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

__device__ __forceinline__ float oldValue(const uint8_t* buffer, uint64_t index) {
  return __uint_as_float(loadUint32(buffer + 4 * index));
}

struct Tile {
  uint64_t first;  // index of its first element
  uint64_t size;
};

__device__ __forceinline__ Tile tileOf(uint64_t tile, uint64_t count) {
  const uint64_t first = 1 + tile * KREPLAY_STENCIL_TILE;
  const uint64_t end = first + KREPLAY_STENCIL_TILE < count - 1 ? first + KREPLAY_STENCIL_TILE : count - 1;
  return {first, end - first};
}

}  // namespace kreplay_device

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_stencil_save(const uint8_t* buffer, uint64_t count, uint64_t tiles, float* halos,
                         const KreplayQueueState* state) {
  using namespace kreplay_device;
  if (skipped(state)) return;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t tile = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; tile < tiles;
       tile += stride) {
    const Tile span = tileOf(tile, count);
    halos[2 * tile] = oldValue(buffer, span.first - 1);
    halos[2 * tile + 1] = oldValue(buffer, span.first + span.size);
  }
}

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_stencil(uint8_t* buffer, uint64_t count, uint64_t tiles, const float* halos,
                    const KreplayQueueState* state) {
  using namespace kreplay_device;
  if (skipped(state)) return;
  __shared__ float values[KREPLAY_STENCIL_TILE + 2];
  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const Tile span = tileOf(tile, count);
    if (threadIdx.x == 0) {
      values[0] = halos[2 * tile];
      values[span.size + 1] = halos[2 * tile + 1];
    }
    for (uint64_t index = threadIdx.x; index < span.size; index += blockDim.x)
      values[index + 1] = oldValue(buffer, span.first + index);
    __syncthreads();
    for (uint64_t index = threadIdx.x; index < span.size; index += blockDim.x) {
      const float sum = __fadd_rn(__fadd_rn(values[index], values[index + 1]), values[index + 2]);
      storeUint32(buffer + 4 * (span.first + index), __float_as_uint(__fdiv_rn(sum, 3.0f)));
    }
    __syncthreads();
  }
}
