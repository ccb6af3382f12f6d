// Touching memory before a profiled kernel: one load every `stride` bytes of a range, so the GPU's
// address translations of the range are cached when the kernel starts, as they are for a kernel
// whose memory was just restored in full (Nsight Compute's kernel replay writes all of it back
// before every pass). Each load is one sector; the loads' XOR goes to `state->digest`, which keeps
// them from being optimized away.
#include "kernels-cuda/device-common.cuh"

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_touch_pages(const uint8_t* start, uint64_t bytes, uint64_t stride, KreplayQueueState* state) {
  using namespace kreplay_device;
  const uint64_t first = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint32_t digest = 0;
  for (uint64_t offset = first * stride; offset < bytes; offset += step * stride) {
    digest ^= *reinterpret_cast<const volatile uint8_t*>(start + offset);
  }
  if (digest == 0xffffffffu) atomicXor(reinterpret_cast<unsigned long long*>(&state->digest), 1ull);
}
