// scatterWrite (bit-exact with core/kernels/scatter-write-kernel.cpp): the digest of the source is
// XOR-reduced into the queue state first; then one group per page rewrites the chosen pages' whole
// words. The last block resets the digest.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

constexpr uint64_t kScatterMultiplier = 0x5851F42D4C957F2DULL;
constexpr double kTwoTo53 = 9007199254740992.0;

template <unsigned G>
__device__ void scatterWrite(uint8_t* buffer, uint64_t bytes, uint64_t pageBytes, double fraction,
                             uint64_t seed, KreplayQueueState* state) {
  if (skipped(state)) return;
  const uint64_t digest = *reinterpret_cast<volatile uint64_t*>(&state->digest);
  const double threshold = fraction * kTwoTo53;
  const uint64_t pages = (bytes + pageBytes - 1) / pageBytes;
  const unsigned lane = Group<G>::lane();
  for (uint64_t page = Group<G>::first(); page < pages; page += Group<G>::stride()) {
    if (!(static_cast<double>(mix64(seed ^ mix64(page)) >> 11) < threshold)) continue;
    const uint64_t pageStart = page * pageBytes;
    const uint64_t pageEnd = bytes - pageStart < pageBytes ? bytes : pageStart + pageBytes;
    for (uint64_t word = (pageStart + 7) / 8 + lane; 8 * word + 8 <= pageEnd; word += G) {
      uint8_t* at = buffer + 8 * word;
      storeWord(at, loadWord(at) * kScatterMultiplier + (digest ^ seed ^ word));
    }
  }
  if (lastBlockDone(state)) state->digest = 0;
}

}  // namespace kreplay_device

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_xor_words(const uint8_t* source, uint64_t bytes, KreplayQueueState* state) {
  using namespace kreplay_device;
  if (skipped(state)) return;
  const uint64_t thread = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint64_t digest = 0;
  for (uint64_t word = thread; word < bytes / 8; word += stride) digest ^= loadWord(source + 8 * word);
  for (unsigned offset = 16; offset > 0; offset >>= 1) digest ^= __shfl_xor_sync(kFullMask, digest, offset);
  if (threadIdx.x % 32 == 0 && digest != 0) {
    atomicXor(reinterpret_cast<unsigned long long*>(&state->digest), static_cast<unsigned long long>(digest));
  }
}

#define KREPLAY_SCATTER_WRITE(name, G)                                                          \
  extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)                           \
      name(uint8_t* buffer, uint64_t bytes, uint64_t pageBytes, double fraction, uint64_t seed, \
           KreplayQueueState* state) {                                                          \
    kreplay_device::scatterWrite<G>(buffer, bytes, pageBytes, fraction, seed, state);           \
  }

KREPLAY_SCATTER_WRITE(kreplay_scatter_write_warp, 32)
KREPLAY_SCATTER_WRITE(kreplay_scatter_write_block, KREPLAY_BLOCK_THREADS)
