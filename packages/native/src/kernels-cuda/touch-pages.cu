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

#if !defined(KREPLAY_FAKE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/** Calls `apply` with the address of each 128-byte L2 line of `buffer`, the lines spread over the grid's threads. */
template <typename Apply>
__device__ void forEachL2Line(const uint8_t* buffer, uint64_t bytes, Apply apply) {
  const uint64_t first = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t line = first; line < bytes / 128; line += step) apply(buffer + 128 * line);
}
#endif

/**
 * The same touch made by every block: each walks the whole range, one load every `stride` bytes, so
 * that with one block per multiprocessor each of them holds the range's translations, as a kernel
 * that ran over the memory on all of them (the program's previous kernel, or the profiled kernel's
 * previous pass under ncu) leaves them.
 */
extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_touch_pages_every_block(const uint8_t* start, uint64_t bytes, uint64_t stride, KreplayQueueState* state) {
  uint32_t digest = 0;
  for (uint64_t offset = threadIdx.x * stride; offset < bytes; offset += static_cast<uint64_t>(blockDim.x) * stride) {
    digest ^= *reinterpret_cast<const volatile uint8_t*>(start + offset);
  }
  if (digest == 0xffffffffu) atomicXor(reinterpret_cast<unsigned long long*>(&state->digest), 1ull);
}

/**
 * Drops the L2 lines of `buffer` without writing them back (PTX `discard.global.L2`, compute
 * capability 8.0 and newer; nothing before): run after a flush has read the buffer, it leaves the
 * L2 holding no valid line, as a hardware invalidation does, where the read alone leaves it full
 * of the buffer's clean lines. The buffer's contents are undefined afterwards.
 */
extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_discard_l2_lines(uint8_t* buffer, uint64_t bytes) {
#if !defined(KREPLAY_FAKE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  forEachL2Line(buffer, bytes,
                [](const uint8_t* line) { asm volatile("discard.global.L2 [%0], 128;" : : "l"(line) : "memory"); });
#else
  (void)buffer;
  (void)bytes;
#endif
}

/**
 * An L2 flush whose lines are not evicted first: `buffer` read with the evict_last priority (so
 * that it displaces lines of normal priority, where plain streaming reads may displace only
 * each other), then set back to normal priority. Where the device has no L2 priorities
 * (before compute capability 8.0) it is a plain read.
 */
extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_flush_l2_evict_last(const uint8_t* buffer, uint64_t bytes, KreplayQueueState* state) {
  const uint64_t first = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint64_t digest = 0;
  for (uint64_t line = first; line < bytes / 128; line += step) {
    const uint8_t* address = buffer + 128 * line;
#if !defined(KREPLAY_FAKE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    uint64_t word;
    asm volatile(
        "{\n\t.reg .b64 policy;\n\t"
        "createpolicy.fractional.L2::evict_last.b64 policy, 1.0;\n\t"
        "ld.global.L2::cache_hint.u64 %0, [%1], policy;\n\t}"
        : "=l"(word)
        : "l"(address));
    digest ^= word;
#else
    digest ^= *reinterpret_cast<const volatile uint64_t*>(address);
#endif
  }
  if (digest == 0x9e3779b97f4a7c15ull) atomicXor(reinterpret_cast<unsigned long long*>(&state->digest), 1ull);
}

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_l2_normal_priority(const uint8_t* buffer, uint64_t bytes) {
#if !defined(KREPLAY_FAKE_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  forEachL2Line(buffer, bytes, [](const uint8_t* line) {
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" : : "l"(line) : "memory");
  });
#else
  (void)buffer;
  (void)bytes;
#endif
}
