// stencil(buffer, count): float32 in place, as if from a copy of the old values:
// x[i] = ((x[i-1] + x[i]) + x[i+1]) / 3 for 0 < i < count-1 (the host driver's stencilKernel).
// Elements 1 .. count-2 are cut into blocks of BLOCK_ELEMENTS; kreplay_stencil_edges first saves the
// old values just outside each block, then kreplay_stencil updates each block from a local copy.
#include "common.h"

#define ELEMENTS_PER_ITEM 4
#define BLOCK_ELEMENTS (GROUP_SIZE * ELEMENTS_PER_ITEM)

static inline u64 block_count(u64 count) {
  return count < 3 ? 0 : (count - 2 + BLOCK_ELEMENTS - 1) / BLOCK_ELEMENTS;
}

/** edges[2b] = old x[first - 1] and edges[2b + 1] = old x[last + 1] of block b. */
KERNEL void kreplay_stencil_edges(const __global float* buffer, u64 count, __global float* edges) {
  const u64 blocks = block_count(count);
  for (u64 block = global_id(); block < blocks; block += global_count()) {
    const u64 first = 1 + block * BLOCK_ELEMENTS;
    const u64 end = first + BLOCK_ELEMENTS < count - 1 ? first + BLOCK_ELEMENTS : count - 1;
    edges[2 * block] = load_f32((const __global u8*)(buffer + first - 1));
    edges[2 * block + 1] = load_f32((const __global u8*)(buffer + end));
  }
}

KERNEL void kreplay_stencil(__global float* buffer, u64 count, const __global float* edges) {
  GROUP_SHARED float values[BLOCK_ELEMENTS + 2];
  const u64 blocks = block_count(count);
  for (u64 block = group_id(); block < blocks; block += group_count()) {
    const u64 first = 1 + block * BLOCK_ELEMENTS;
    const u64 end = first + BLOCK_ELEMENTS < count - 1 ? first + BLOCK_ELEMENTS : count - 1;
    const u32 length = (u32)(end - first);
    // values[0] and values[length + 1] are the saved neighbours; values[1 + k] is old x[first + k].
    for (u32 k = local_id(); k < length; k += GROUP_SIZE) values[1 + k] = load_f32((const __global u8*)(buffer + first + k));
    if (local_id() == 0) {
      values[0] = edges[2 * block];
      values[length + 1] = edges[2 * block + 1];
    }
    group_barrier();
    for (u32 k = local_id(); k < length; k += GROUP_SIZE) {
      const float sum = values[k] + values[k + 1];
      const float result = (sum + values[k + 2]) / 3.0f;
      store_f32((__global u8*)(buffer + first + k), result);
    }
    group_barrier();  // values is refilled for the next block
  }
}
