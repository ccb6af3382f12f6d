// fill(destination, bytes, value): the 32-bit little-endian pattern repeated from the destination's
// first byte; a short tail gets the pattern's first bytes (the host driver's fillKernel).
#include "common.h"

static inline u8 pattern_byte(u32 value, u64 offset) {
  return (u8)(value >> (8 * (offset & 3)));
}

KERNEL void kreplay_fill(__global u8* destination, u64 bytes, u32 value) {
  // Bytes before the first 16-byte aligned address and after the last whole 16-byte chunk are stored
  // one by one; the chunks in between get the pattern rotated to their phase.
  const u64 misalignment = (u64)destination & 15;
  const u64 head = misalignment == 0 ? 0 : (16 - misalignment < bytes ? 16 - misalignment : bytes);
  const u64 chunks = (bytes - head) / 16;
  const u64 tail = head + 16 * chunks;
  const u64 id = global_id();
  if (id < head) destination[id] = pattern_byte(value, id);
  if (tail + id < bytes) destination[tail + id] = pattern_byte(value, tail + id);
  const u32 phase = (u32)(head & 3);
  const u32 word = phase == 0 ? value : (value >> (8 * phase)) | (value << (32 - 8 * phase));
  const u64 pair = ((u64)word << 32) | word;
  for (u64 chunk = id; chunk < chunks; chunk += global_count()) {
    __global u64* at = (__global u64*)(destination + head + 16 * chunk);
    at[0] = pair;
    at[1] = pair;
  }
}
