// Copying a recorded page list again: the list is checked (recording the first problem in the queue
// state, which makes this and every later operation of the queue do nothing), by a kernel of its own
// before the copy or, for short lists, by the copy's own blocks; then the listed pages are copied:
// in chunks spread over the grid, or, when storedHashes is not null, a page per group, which stores
// the hash of each page it copies. A compact buffer (see KreplayCompact) stands in for one side of
// the first listed pages.
#include "kernels-cuda/device-common.cuh"

namespace kreplay_device {

__device__ void reportPageListError(KreplayQueueState* state, uint32_t code, int64_t workIndex,
                                    uint64_t value, uint64_t position, uint64_t pageCount) {
  if (atomicCAS(&state->errorCode, KREPLAY_ERROR_NONE, code) != KREPLAY_ERROR_NONE) return;
  state->workIndex = workIndex;
  state->errorValue = value;
  state->errorPosition = position;
  state->pageCount = pageCount;
}

/**
 * A buffer of listed pages in list order: the page at list position k < pages is at
 * address + k * pageBytes. It is the destination of those pages (listed pages past it are not
 * copied) or their source (listed pages past it come from their span). address 0: none.
 */
struct KreplayCompact {
  uint64_t address;
  uint64_t pages;
  uint32_t isDestination;
};

/**
 * The listed pages in chunks of KREPLAY_PAGE_LIST_CHUNK_BYTES_PER_THREAD * G bytes, one chunk per
 * group at a time: a list of a few large pages is spread over the whole grid instead of a group a page.
 */
template <unsigned G>
__device__ void copyPageListChunks(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes,
                                   const uint8_t* pageList, uint64_t count, KreplayCompact compact) {
  constexpr uint64_t chunkBytes = KREPLAY_PAGE_LIST_CHUNK_BYTES_PER_THREAD * G;
  const unsigned lane = Group<G>::lane();
  const uint64_t chunksPerPage = (pageBytes + chunkBytes - 1) / chunkBytes;
  for (uint64_t item = Group<G>::first(); item < count * chunksPerPage; item += Group<G>::stride()) {
    const uint64_t position = item / chunksPerPage;
    const uint64_t offset = (item - position * chunksPerPage) * chunkBytes;
    PageLocation location = locatePage(spans, spanCount, pageBytes, loadUint32(pageList + 4 * position));
    if (offset >= location.bytes) continue;  // the short last page of a span
    if (compact.address != 0) {
      const bool inCompact = position < compact.pages;
      if (!inCompact && compact.isDestination != 0) continue;
      uint8_t* slot = reinterpret_cast<uint8_t*>(compact.address + position * pageBytes);
      if (inCompact && compact.isDestination != 0) location.destination = slot;
      if (inCompact && compact.isDestination == 0) location.source = slot;
    }
    const uint64_t bytes = location.bytes - offset < chunkBytes ? location.bytes - offset : chunkBytes;
    copyBytes<G>(location.destination + offset, location.source + offset, bytes, lane);
  }
}

template <unsigned G>
__device__ void copyPageList(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes,
                             const uint8_t* pageList, const uint8_t* pageCountIn, uint8_t* storedHashes,
                             KreplayCompact compact, const KreplayQueueState* state) {
  if (skipped(state)) return;
  const uint64_t count = loadUint32(pageCountIn);
  // A compact buffer comes without stored hashes (the caller's checks see to it).
  if (storedHashes == nullptr) return copyPageListChunks<G>(spans, spanCount, pageBytes, pageList, count, compact);
  __shared__ uint64_t shared[kWarps];
  const unsigned lane = Group<G>::lane();
  for (uint64_t position = Group<G>::first(); position < count; position += Group<G>::stride()) {
    const uint64_t page = loadUint32(pageList + 4 * position);
    const PageLocation location = locatePage(spans, spanCount, pageBytes, page);
    // The hash of the source page, which the destination page holds once copied.
    const uint64_t part = copyPageAndSum<G>(location.destination, location.source, location.bytes, lane);
    const uint64_t sum = groupSum<G>(part, shared);
    if (lane == 0) storeWord(storedHashes + 8 * page, finishPageHash(sum, location.bytes));
  }
}

/**
 * Checks positions first, first + stride, ... of the list at `pageList` (count at `pageCountIn`)
 * against `pageCount`; a thread for which `reports` is true records what it finds in the queue
 * state. Returns whether this thread found the count or one of its indices out of range (the
 * count check gives every thread the same answer).
 */
__device__ bool checkPageList(const uint8_t* pageList, const uint8_t* pageCountIn, uint64_t pageCount,
                              uint64_t first, uint64_t stride, bool reports, int64_t workIndex,
                              KreplayQueueState* state) {
  const uint64_t count = loadUint32(pageCountIn);
  if (count > pageCount) {
    if (reports && first == 0) reportPageListError(state, KREPLAY_ERROR_PAGE_COUNT, workIndex, count, 0, pageCount);
    return true;
  }
  bool bad = false;
  for (uint64_t position = first; position < count; position += stride) {
    const uint64_t page = loadUint32(pageList + 4 * position);
    if (page < pageCount) continue;
    bad = true;
    if (reports) reportPageListError(state, KREPLAY_ERROR_PAGE_INDEX, workIndex, page, position, pageCount);
  }
  return bad;
}

/**
 * A page list of at most KREPLAY_FUSED_CHECK_PAGES possible pages, checked and copied in one launch:
 * every block checks the whole list (the same verdict in every block, so none copies when it is
 * bad; block 0 records it), then copies its share.
 */
template <unsigned G>
__device__ void checkAndCopyPageList(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes,
                                     uint64_t pageCount, const uint8_t* pageList, const uint8_t* pageCountIn,
                                     uint8_t* storedHashes, KreplayCompact compact, int64_t workIndex,
                                     KreplayQueueState* state) {
  if (skipped(state)) return;
  __shared__ int bad;
  if (threadIdx.x == 0) bad = 0;
  __syncthreads();
  if (checkPageList(pageList, pageCountIn, pageCount, threadIdx.x, blockDim.x, blockIdx.x == 0, workIndex, state))
    bad = 1;
  __syncthreads();
  if (bad != 0) return;
  copyPageList<G>(spans, spanCount, pageBytes, pageList, pageCountIn, storedHashes, compact, state);
}

}  // namespace kreplay_device

extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)
    kreplay_check_page_list(const uint8_t* pageList, const uint8_t* pageCountIn, uint64_t pageCount,
                            int64_t workIndex, KreplayQueueState* state) {
  using namespace kreplay_device;
  if (skipped(state)) return;
  const uint64_t thread = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  checkPageList(pageList, pageCountIn, pageCount, thread, static_cast<uint64_t>(gridDim.x) * blockDim.x, true,
                workIndex, state);
}

#define KREPLAY_CHECK_AND_COPY_PAGE_LIST(name, G)                                                          \
  extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)                                      \
      name(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes, uint64_t pageCount,           \
           const uint8_t* pageList, const uint8_t* pageCountIn, uint8_t* storedHashes,                     \
           uint64_t compactAddress, uint64_t compactPages, uint32_t compactIsDestination, int64_t workIndex,  \
           KreplayQueueState* state) {                                                                     \
    kreplay_device::checkAndCopyPageList<G>(spans, spanCount, pageBytes, pageCount, pageList, pageCountIn, \
                                            storedHashes, {compactAddress, compactPages, compactIsDestination}, \
                                            workIndex, state);                                             \
  }

KREPLAY_CHECK_AND_COPY_PAGE_LIST(kreplay_check_and_copy_page_list_warp, 32)
KREPLAY_CHECK_AND_COPY_PAGE_LIST(kreplay_check_and_copy_page_list_block, KREPLAY_BLOCK_THREADS)

#define KREPLAY_COPY_PAGE_LIST(name, G)                                                               \
  extern "C" __global__ void __launch_bounds__(KREPLAY_BLOCK_THREADS)                                 \
      name(const KreplaySpan* spans, uint32_t spanCount, uint64_t pageBytes, const uint8_t* pageList, \
           const uint8_t* pageCountIn, uint8_t* storedHashes, uint64_t compactAddress,                \
           uint64_t compactPages, uint32_t compactIsDestination, const KreplayQueueState* state) {     \
    kreplay_device::copyPageList<G>(spans, spanCount, pageBytes, pageList, pageCountIn, storedHashes, \
                                    {compactAddress, compactPages, compactIsDestination}, state);     \
  }

KREPLAY_COPY_PAGE_LIST(kreplay_copy_page_list_warp, 32)
KREPLAY_COPY_PAGE_LIST(kreplay_copy_page_list_block, KREPLAY_BLOCK_THREADS)
