// A user kernel for the cuda driver's tests (compiled to scale-floats.ptx by
// scripts/build-cuda-ptx.sh): data[i] = data[i] * factor for i < count, one thread per element.
#include <stdint.h>

extern "C" __global__ void kreplay_test_scale_floats(float* data, uint32_t count, float factor) {
  const uint64_t index = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index < count) data[index] = __fmul_rn(data[index], factor);
}
