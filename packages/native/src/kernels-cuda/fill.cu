// fill: the 32-bit little-endian pattern repeated from the destination's first byte (bit-exact with
// core/kernels/fill-kernel.cpp), with 16-byte stores of the pattern rotated to the store's phase.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

__device__ __forceinline__ uint8_t patternByte(uint32_t value, uint64_t offset) {
  return static_cast<uint8_t>(value >> (8 * (offset & 3)));
}

}  // namespace kreplay_device

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_fill(uint8_t* destination, uint64_t bytes, uint32_t value, const KreplayQueueState* state) {
  using namespace kreplay_device;
  if (skipped(state)) return;
  const uint64_t thread = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint64_t head = (16 - (reinterpret_cast<uintptr_t>(destination) & 15)) & 15;
  if (head > bytes) head = bytes;
  if (thread < head) destination[thread] = patternByte(value, thread);
  const unsigned phase = static_cast<unsigned>(head & 3);
  const uint32_t rotated = phase == 0 ? value : (value >> (8 * phase)) | (value << (32 - 8 * phase));
  const uint4 pattern = make_uint4(rotated, rotated, rotated, rotated);
  uint4* vectors = reinterpret_cast<uint4*>(destination + head);
  const uint64_t vectorCount = (bytes - head) / 16;
  for (uint64_t index = thread; index < vectorCount; index += stride) vectors[index] = pattern;
  const uint64_t tail = head + 16 * vectorCount;
  if (thread < bytes - tail) destination[tail + thread] = patternByte(value, tail + thread);
}
