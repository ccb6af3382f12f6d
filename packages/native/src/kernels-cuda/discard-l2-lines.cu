// The profiler's write-discard L2 flush (drivers/cuda/cuda-l2-flush.cpp): after its buffer is
// written, its lines are dropped, so the L2 holds no valid line, as a hardware invalidation leaves it.
#include "kernels-cuda/device-common.cuh"

/**
 * Drops the L2 lines of `buffer` without writing them back (PTX `discard.global.L2`, compute
 * capability 8.0 and newer; nothing before), the lines spread over the grid's threads. The buffer's
 * contents are undefined afterwards.
 */
extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_discard_l2_lines(uint8_t* buffer, uint64_t bytes) {
#if !defined(KREPLAY_FAKE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const uint64_t first = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t line = first; line < bytes / 128; line += step) {
    asm volatile("discard.global.L2 [%0], 128;" : : "l"(buffer + 128 * line) : "memory");
  }
#else
  (void)buffer;
  (void)bytes;
#endif
}
