// scatterWrite(buffer, bytes, pageBytes, fraction, seed, source, sourceBytes) of the host driver's
// scatterWriteKernel: page p is chosen when (mix64(seed ^ mix64(p)) >> 11) < fraction * 2^53, and
// every whole 64-bit word i (from the buffer's start) of a chosen page becomes
// w * 0x5851F42D4C957F2D + (digest ^ seed ^ i), digest being the XOR of the source's whole words.
#include "common.h"

#define SCATTER_MULTIPLIER 0x5851F42D4C957F2DUL
#define TWO_TO_53 9007199254740992.0

/** The XOR of the whole 64-bit words of `bytes` bytes at `source`, computed by the work-group. */
static inline u64 group_xor_of_words(const __global u8* source, u64 bytes, __local u64* scratch) {
  u64 digest = 0;
  for (u64 word = local_id(); word < bytes / 8; word += GROUP_SIZE) digest ^= load_u64(source + 8 * word);
  return group_xor_u64(digest, scratch);
}

// One work-group computes the digest of a large source for kreplay_scatter_write (the driver then
// passes the 8-byte digest as the source, whose digest is itself), so work-groups do not each read it.
KERNEL void kreplay_xor_digest(const __global u8* source, u64 source_bytes, __global u64* digest) {
  GROUP_SHARED u64 scratch[GROUP_SIZE];
  const u64 value = group_xor_of_words(source, source_bytes, scratch);
  if (local_id() == 0) *digest = value;
}

KERNEL void kreplay_scatter_write(__global u8* buffer, u64 bytes, u64 page_bytes, double fraction, u64 seed,
                                  const __global u8* source, u64 source_bytes) {
  GROUP_SHARED u64 scratch[GROUP_SIZE];
  if (page_bytes == 0) return;
  const u64 digest = group_xor_of_words(source, source_bytes, scratch);
  const double threshold = fraction * TWO_TO_53;
  const u64 pages = (bytes + page_bytes - 1) / page_bytes;
  for (u64 page = group_id(); page < pages; page += group_count()) {
    if (!((double)(mix64(seed ^ mix64(page)) >> 11) < threshold)) continue;
    const u64 page_start = page * page_bytes;
    const u64 page_end = bytes - page_start < page_bytes ? bytes : page_start + page_bytes;
    for (u64 word = (page_start + 7) / 8 + local_id(); 8 * word + 8 <= page_end; word += GROUP_SIZE) {
      __global u8* at = buffer + 8 * word;
      store_u64(at, load_u64(at) * SCATTER_MULTIPLIER + (digest ^ seed ^ word));
    }
  }
}
