// Page hashing (API.md "Page hash"): one group of threads per page, the word sums reduced in the group.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

template <unsigned G>
__device__ void hashPages(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes,
                          uint64_t pageCount, uint8_t* hashes, const KreplayQueueState* state) {
  if (skipped(state)) return;
  __shared__ uint64_t shared[kWarps];
  const unsigned lane = Group<G>::lane();
  for (uint64_t page = Group<G>::first(); page < pageCount; page += Group<G>::stride()) {
    const PageLocation location = locatePage(spans, spanCount, pageBytes, page);
    const uint64_t sum = groupSum<G>(pageWordSum<G>(location.source, location.bytes, lane), shared);
    if (lane == 0) storeWord(hashes + 8 * page, finishPageHash(sum, location.bytes));
  }
}

}  // namespace kreplay_device

#define KREPLAY_HASH_PAGES(name, G)                                                              \
  extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)                            \
      name(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes, uint64_t pageCount, \
           uint8_t* hashes, const KreplayQueueState* state) {                                    \
    kreplay_device::hashPages<G>(spans, spanCount, pageBytes, pageCount, hashes, state);         \
  }

KREPLAY_HASH_PAGES(kreplay_hash_pages_warp, 32)
KREPLAY_HASH_PAGES(kreplay_hash_pages_block, KREPLAY_BLOCK_THREADS)
