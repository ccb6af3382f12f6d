// Device helpers shared by the built-in kernels: the page hash of API.md (bit-exact with
// core/page-hash.hpp), loads and stores at any alignment, and reductions over a group of threads
// (a warp, G = 32, or the whole block, G = 256) that works on one page.
#pragma once

#include <stdint.h>

#include "kernels-cuda/kernel-abi.h"

namespace kreplay_device {

constexpr uint64_t kWordMultiplier = 0x9E3779B97F4A7C15ULL;
constexpr uint64_t kLengthMultiplier = 0xD6E8FEB86659FD93ULL;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kWarps = KREPLAY_BLOCK_THREADS / 32;

__device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

__device__ __forceinline__ uint64_t finishPageHash(uint64_t sum, uint64_t bytes) {
  return mix64(sum ^ (bytes * kLengthMultiplier));
}

__device__ __forceinline__ bool aligned(const void* pointer, uintptr_t alignment) {
  return (reinterpret_cast<uintptr_t>(pointer) & (alignment - 1)) == 0;
}

/** The little-endian 64-bit word at any address. */
__device__ __forceinline__ uint64_t loadWord(const uint8_t* pointer) {
  if (aligned(pointer, 8)) return *reinterpret_cast<const uint64_t*>(pointer);
  uint64_t word = 0;
  for (int byte = 0; byte < 8; ++byte) word |= static_cast<uint64_t>(pointer[byte]) << (8 * byte);
  return word;
}

/** The first `bytes` (< 8) bytes at `pointer` as a little-endian word, zero-padded. */
__device__ __forceinline__ uint64_t loadPartialWord(const uint8_t* pointer, unsigned bytes) {
  uint64_t word = 0;
  for (unsigned byte = 0; byte < bytes; ++byte) word |= static_cast<uint64_t>(pointer[byte]) << (8 * byte);
  return word;
}

__device__ __forceinline__ void storeWord(uint8_t* pointer, uint64_t word) {
  if (aligned(pointer, 8)) {
    *reinterpret_cast<uint64_t*>(pointer) = word;
    return;
  }
  for (int byte = 0; byte < 8; ++byte) pointer[byte] = static_cast<uint8_t>(word >> (8 * byte));
}

__device__ __forceinline__ uint32_t loadUint32(const uint8_t* pointer) {
  if (aligned(pointer, 4)) return *reinterpret_cast<const uint32_t*>(pointer);
  uint32_t value = 0;
  for (int byte = 0; byte < 4; ++byte) value |= static_cast<uint32_t>(pointer[byte]) << (8 * byte);
  return value;
}

__device__ __forceinline__ void storeUint32(uint8_t* pointer, uint32_t value) {
  if (aligned(pointer, 4)) {
    *reinterpret_cast<uint32_t*>(pointer) = value;
    return;
  }
  for (int byte = 0; byte < 4; ++byte) pointer[byte] = static_cast<uint8_t>(value >> (8 * byte));
}

__device__ __forceinline__ const uint8_t* bytesAt(uint64_t address) {
  return reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(address));
}

__device__ __forceinline__ uint8_t* writableBytesAt(uint64_t address) {
  return reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(address));
}

/** Whether an earlier operation of the queue failed on the device, so this one must do nothing. */
__device__ __forceinline__ bool skipped(const KreplayQueueState* state) {
  return *reinterpret_cast<const volatile uint32_t*>(&state->errorCode) != KREPLAY_ERROR_NONE;
}

/**
 * The groups of G threads of a block: each group works on one item (page, chunk) at a time, the
 * items of the whole grid taken in turn (item = group, group + groups of the grid, ...). For
 * G = KREPLAY_BLOCK_THREADS every thread of a block walks the same items, so block barriers are
 * safe inside the loop.
 */
template <unsigned G>
struct Group {
  static_assert(G == 32 || G == KREPLAY_BLOCK_THREADS, "a group is a warp or a block");
  __device__ static unsigned lane() { return threadIdx.x % G; }
  __device__ static uint64_t first() {
    return static_cast<uint64_t>(blockIdx.x) * (KREPLAY_BLOCK_THREADS / G) + threadIdx.x / G;
  }
  __device__ static uint64_t stride() {
    return static_cast<uint64_t>(gridDim.x) * (KREPLAY_BLOCK_THREADS / G);
  }
};

/** Σ of `value` over the group, known to every thread of it (mod 2^64, so the order does not matter). */
template <unsigned G>
__device__ __forceinline__ uint64_t groupSum(uint64_t value, uint64_t* shared) {
  for (unsigned offset = 16; offset > 0; offset >>= 1) value += __shfl_xor_sync(kFullMask, value, offset);
  if (G == 32) return value;
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = value;
  __syncthreads();
  uint64_t total = 0;
  for (unsigned warp = 0; warp < kWarps; ++warp) total += shared[warp];
  __syncthreads();
  return total;
}

/** Thread 0 of the group's `value`, known to every thread of the group (a barrier of the group too). */
template <unsigned G>
__device__ __forceinline__ uint64_t groupBroadcast(uint64_t value, uint64_t* shared) {
  if (G == 32) return __shfl_sync(kFullMask, value, 0);
  if (threadIdx.x == 0) shared[0] = value;
  __syncthreads();
  const uint64_t result = shared[0];
  __syncthreads();
  return result;
}

/**
 * This thread's part of Σ mix64(w_i + (i + 1) * K) over the first `pairCount` word pairs of a
 * 16-byte-aligned page: pairs lane, lane + G, ... With Copy, each pair is also stored at `copyTo`
 * (16-byte aligned too), so a page that is copied and hashed is read once.
 */
template <unsigned G, bool Copy>
__device__ __forceinline__ uint64_t pairWordSum(const uint8_t* page, uint8_t* copyTo, uint64_t pairCount,
                                                unsigned lane) {
  const ulonglong2* pairs = reinterpret_cast<const ulonglong2*>(page);
  ulonglong2* copies = reinterpret_cast<ulonglong2*>(copyTo);
  uint64_t sum = 0;
  // (2 * pair + 1) * K, advanced by addition (a 64-bit multiply per pair is measurable).
  uint64_t position = (2 * static_cast<uint64_t>(lane) + 1) * kWordMultiplier;
  const uint64_t step = 2 * static_cast<uint64_t>(G) * kWordMultiplier;
#pragma unroll 8
  for (uint64_t pair = lane; pair < pairCount; pair += G) {
    const ulonglong2 words = pairs[pair];
    if (Copy) copies[pair] = words;
    sum += mix64(words.x + position);
    sum += mix64(words.y + position + kWordMultiplier);
    position += step;
  }
  return sum;
}

/**
 * The words of a page of `bytes` bytes from word `firstWord` on (at most one whole word), the last
 * one zero-padded: one thread's work.
 */
__device__ __forceinline__ uint64_t pageTailSum(const uint8_t* page, uint64_t bytes, uint64_t firstWord) {
  const uint64_t whole = bytes / 8;
  uint64_t sum = 0;
  if (firstWord < whole) sum += mix64(loadWord(page + 8 * firstWord) + (firstWord + 1) * kWordMultiplier);
  const unsigned tail = static_cast<unsigned>(bytes & 7);
  if (tail != 0) sum += mix64(loadPartialWord(page + 8 * whole, tail) + (whole + 1) * kWordMultiplier);
  return sum;
}

/**
 * This thread's part of Σ mix64(w_i + (i + 1) * K) over the words of a page of `bytes` bytes (the
 * last word zero-padded): words lane, lane + G, ... (pairs of words when the page is 16-byte aligned).
 */
template <unsigned G>
__device__ __forceinline__ uint64_t pageWordSum(const uint8_t* page, uint64_t bytes, unsigned lane) {
  const uint64_t whole = bytes / 8;
  if (aligned(page, 16)) {
    const uint64_t pairCount = whole / 2;
    const uint64_t sum = pairWordSum<G, false>(page, nullptr, pairCount, lane);
    return lane == 0 ? sum + pageTailSum(page, bytes, 2 * pairCount) : sum;
  }
  uint64_t sum = 0;
  if (aligned(page, 8)) {
    const uint64_t* words = reinterpret_cast<const uint64_t*>(page);
#pragma unroll 4
    for (uint64_t index = lane; index < whole; index += G)
      sum += mix64(words[index] + (index + 1) * kWordMultiplier);
  } else {
    for (uint64_t index = lane; index < whole; index += G)
      sum += mix64(loadWord(page + 8 * index) + (index + 1) * kWordMultiplier);
  }
  return lane == 0 ? sum + pageTailSum(page, bytes, whole) : sum;
}

/** One page of a span table: where its bytes are on each side and how many there are. */
struct PageLocation {
  const uint8_t* source;
  uint8_t* destination;
  uint64_t bytes;
};

/** Page `page` of spans numbered in order (spans sorted by firstPage, none empty). */
__device__ __forceinline__ PageLocation locatePage(const KreplaySpan* spans, uint32_t spanCount,
                                                   uint64_t pageBytes, uint64_t page) {
  uint32_t low = 0;
  uint32_t high = spanCount;
  while (high - low > 1) {
    const uint32_t middle = low + (high - low) / 2;
    if (spans[middle].firstPage <= page)
      low = middle;
    else
      high = middle;
  }
  const KreplaySpan span = spans[low];
  const uint64_t offset = (page - span.firstPage) * pageBytes;
  const uint64_t remaining = span.bytes - offset;
  return {bytesAt(span.source + offset), writableBytesAt(span.destination + offset),
          remaining < pageBytes ? remaining : pageBytes};
}

/**
 * Copies `bytes` from `source` to `destination` with the G threads of a group, as wide as alignment
 * allows. (Loading a batch of units before storing them measured slower on an H200 than this loop,
 * and no faster in a page list's chunks or in a copy that sums what it copies.)
 */
template <unsigned G, typename Unit>
__device__ __forceinline__ void copyUnits(uint8_t* destination, const uint8_t* source, uint64_t bytes,
                                          unsigned lane) {
  constexpr uint64_t width = sizeof(Unit);
  uint64_t head = (width - (reinterpret_cast<uintptr_t>(source) & (width - 1))) & (width - 1);
  if (head > bytes) head = bytes;
  if (lane < head) destination[lane] = source[lane];
  const uint64_t units = (bytes - head) / width;
  const Unit* from = reinterpret_cast<const Unit*>(source + head);
  Unit* to = reinterpret_cast<Unit*>(destination + head);
#pragma unroll 4
  for (uint64_t index = lane; index < units; index += G) to[index] = from[index];
  const uint64_t tail = head + units * width;
  if (lane < bytes - tail) destination[tail + lane] = source[tail + lane];
}

/** copyUnits at the widest unit the two addresses' alignments allow. */
template <unsigned G>
__device__ __forceinline__ void copyBytes(uint8_t* destination, const uint8_t* source, uint64_t bytes,
                                          unsigned lane) {
  const uintptr_t mismatch = reinterpret_cast<uintptr_t>(source) ^ reinterpret_cast<uintptr_t>(destination);
  if ((mismatch & 15) == 0) return copyUnits<G, uint4>(destination, source, bytes, lane);
  if ((mismatch & 7) == 0) return copyUnits<G, uint64_t>(destination, source, bytes, lane);
  if ((mismatch & 3) == 0) return copyUnits<G, uint32_t>(destination, source, bytes, lane);
  for (uint64_t index = lane; index < bytes; index += G) destination[index] = source[index];
}

/**
 * Copies a page and returns this thread's part of the source page's word sum (pageWordSum): when
 * both sides are 16-byte aligned the sum is taken from the copy's own loads, so the page is read
 * once; otherwise it is summed, then copied.
 */
template <unsigned G>
__device__ __forceinline__ uint64_t copyPageAndSum(uint8_t* destination, const uint8_t* source, uint64_t bytes,
                                                   unsigned lane) {
  if (!aligned(source, 16) || !aligned(destination, 16)) {
    const uint64_t sum = pageWordSum<G>(source, bytes, lane);
    copyBytes<G>(destination, source, bytes, lane);
    return sum;
  }
  const uint64_t pairCount = bytes / 16;
  const uint64_t sum = pairWordSum<G, true>(source, destination, pairCount, lane);
  for (uint64_t index = 16 * pairCount + lane; index < bytes; index += G) destination[index] = source[index];
  return lane == 0 ? sum + pageTailSum(source, bytes, 2 * pairCount) : sum;
}

/**
 * Called by every thread of every block at the end of a kernel: true in one thread of the block
 * that finishes last, after every other block's atomics on the state are visible.
 */
__device__ __forceinline__ bool lastBlockDone(KreplayQueueState* state) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(&state->blocksDone, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (threadIdx.x != 0 || !last) return false;
  __threadfence();
  state->blocksDone = 0;
  return true;
}

}  // namespace kreplay_device
