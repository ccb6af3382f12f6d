// triad: float32 a[i] = b[i] + scalar * c[i], the product and the sum each rounded to nearest
// (explicit _rn intrinsics: never contracted to a fused multiply-add), bit-exact with the host.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

__device__ __forceinline__ float triadValue(float b, float c, float scalar) {
  return __fadd_rn(b, __fmul_rn(scalar, c));
}

__device__ __forceinline__ float loadFloat(const uint8_t* base, uint64_t index) {
  return __uint_as_float(loadUint32(base + 4 * index));
}

__device__ __forceinline__ void storeFloat(uint8_t* base, uint64_t index, float value) {
  storeUint32(base + 4 * index, __float_as_uint(value));
}

}  // namespace kreplay_device

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_triad(uint8_t* a, const uint8_t* b, const uint8_t* c, float scalar, uint64_t count,
                  const KreplayQueueState* state) {
  using namespace kreplay_device;
  if (skipped(state)) return;
  const uint64_t thread = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint64_t done = 0;
  if (aligned(a, 16) && aligned(b, 16) && aligned(c, 16)) {
    const float4* left = reinterpret_cast<const float4*>(b);
    const float4* right = reinterpret_cast<const float4*>(c);
    float4* out = reinterpret_cast<float4*>(a);
    done = count / 4 * 4;
    for (uint64_t index = thread; index < count / 4; index += stride) {
      const float4 x = left[index];
      const float4 y = right[index];
      out[index] = make_float4(triadValue(x.x, y.x, scalar), triadValue(x.y, y.y, scalar),
                               triadValue(x.z, y.z, scalar), triadValue(x.w, y.w, scalar));
    }
  }
  for (uint64_t index = done + thread; index < count; index += stride) {
    storeFloat(a, index, triadValue(loadFloat(b, index), loadFloat(c, index), scalar));
  }
}
