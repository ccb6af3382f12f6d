// The first half of a conditional copy: per page, hash the hashed side and compare it with the
// stored hash; a page that differs is recorded (order unspecified) and, when the source side is
// hashed and stored hashes are updated, its new hash is stored. The block that finishes last writes
// the count of recorded pages. The driver then copies the recorded pages with a page-list copy,
// which spreads them over the whole grid instead of leaving each to the group that found it.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

template <unsigned G>
__device__ void findChangedPages(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes,
                                 uint64_t pageCount, uint32_t hashDestination, uint8_t* storedHashes,
                                 uint32_t updateStoredHashes, uint8_t* pageList, uint8_t* pageCountOut,
                                 KreplayQueueState* state) {
  if (skipped(state)) return;
  __shared__ uint64_t shared[kWarps];
  const unsigned lane = Group<G>::lane();
  // The hash of a page recorded from the source side is the hash its destination holds once copied.
  const bool storeHashes = updateStoredHashes && !hashDestination;
  for (uint64_t page = Group<G>::first(); page < pageCount; page += Group<G>::stride()) {
    const PageLocation location = locatePage(spans, spanCount, pageBytes, page);
    const uint8_t* hashed = hashDestination ? location.destination : location.source;
    // One load, issued before the page is read so that its latency hides behind the page's, and
    // broadcast: no thread may compare after thread 0 has stored the page's new hash.
    const uint64_t storedWord = lane == 0 ? loadWord(storedHashes + 8 * page) : 0;
    const uint64_t sum = groupSum<G>(pageWordSum<G>(hashed, location.bytes, lane), shared);
    const uint64_t hash = finishPageHash(sum, location.bytes);
    const uint64_t stored = groupBroadcast<G>(storedWord, shared);
    if (hash == stored || lane != 0) continue;
    if (storeHashes) storeWord(storedHashes + 8 * page, hash);
    const uint32_t position = atomicAdd(&state->pageCounter, 1u);
    storeUint32(pageList + 4 * static_cast<uint64_t>(position), static_cast<uint32_t>(page));
  }
  if (lastBlockDone(state)) {
    storeUint32(pageCountOut, atomicExch(&state->pageCounter, 0u));
  }
}

}  // namespace kreplay_device

#define KREPLAY_FIND_CHANGED_PAGES(name, G)                                                                 \
  extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)                                       \
      name(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes, uint64_t pageCount,            \
           uint32_t hashDestination, uint8_t* storedHashes, uint32_t updateStoredHashes, uint8_t* pageList, \
           uint8_t* pageCountOut, KreplayQueueState* state) {                                               \
    kreplay_device::findChangedPages<G>(spans, spanCount, pageBytes, pageCount, hashDestination,            \
                                        storedHashes, updateStoredHashes, pageList, pageCountOut, state);   \
  }

KREPLAY_FIND_CHANGED_PAGES(kreplay_find_changed_pages_warp, 32)
KREPLAY_FIND_CHANGED_PAGES(kreplay_find_changed_pages_block, KREPLAY_BLOCK_THREADS)
