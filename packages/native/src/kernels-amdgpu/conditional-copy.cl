// The conditional-copy primitives of API.md, entirely on the device.

#include "page-table.h"

#define HASH_DESTINATION 1u
#define UPDATE_STORED_HASHES 2u

// Hashes each page on the hashed side, compares with stored_hashes[page], and when they differ
// copies the page source -> destination, appends its index to page_list (order unspecified) and
// counts it in *copied_count, which the driver zeroes first. With UPDATE_STORED_HASHES the stored
// hash becomes the hash of the copied bytes (the source page).
KERNEL void kreplay_copy_changed_pages(const __global page_table_entry* table, u32 entries, u64 page_bytes,
                                       u64 page_count, __global u64* stored_hashes, __global u32* page_list,
                                       __global u32* copied_count, u32 flags) {
  GROUP_SHARED u64 scratch[GROUP_SIZE];
  for (u64 page = group_id(); page < page_count; page += group_count()) {
    const page_ref ref = find_page(table, entries, page_bytes, page);
    // Read before the barriers inside page_hash_group, so no work-item sees the update below.
    const u64 stored = stored_hashes[page];
    const __global u8* hashed = (flags & HASH_DESTINATION) ? ref.destination : ref.source;
    const u64 hash = page_hash_group(hashed, ref.bytes, scratch);
    if (hash == stored) continue;  // uniform across the work-group
    group_copy(ref.destination, ref.source, ref.bytes);
    u64 copied_hash = hash;
    if ((flags & (HASH_DESTINATION | UPDATE_STORED_HASHES)) == (HASH_DESTINATION | UPDATE_STORED_HASHES))
      copied_hash = page_hash_group(ref.source, ref.bytes, scratch);
    if (local_id() == 0) {
      const u32 slot = __scoped_atomic_fetch_add(copied_count, 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
      page_list[slot] = (u32)page;
      if (flags & UPDATE_STORED_HASHES) stored_hashes[page] = copied_hash;
    }
  }
}

// Validates a recorded page list before kreplay_copy_page_list runs (one work-group). status[0]
// becomes count + 1 when the count exceeds page_count; status[1] (set to ~0 by the driver) becomes
// (position << 32) | index of the first index that is not below page_count.
KERNEL void kreplay_check_page_list(const __global u32* page_list, const __global u32* list_count, u64 page_count,
                                    __global u64* status) {
  GROUP_SHARED u64 scratch[GROUP_SIZE];
  const u32 count = *list_count;
  if (count > page_count) {
    if (local_id() == 0) status[0] = (u64)count + 1;
    return;
  }
  u64 first_bad = ~0UL;
  for (u32 position = local_id(); position < count; position += GROUP_SIZE) {
    const u32 index = page_list[position];
    if (index >= page_count) {
      const u64 bad = ((u64)position << 32) | index;
      first_bad = bad < first_bad ? bad : first_bad;
    }
  }
  scratch[local_id()] = first_bad;
  group_barrier();
  for (u32 stride = GROUP_SIZE / 2; stride > 0; stride /= 2) {
    if (local_id() < stride && scratch[local_id() + stride] < scratch[local_id()])
      scratch[local_id()] = scratch[local_id() + stride];
    group_barrier();
  }
  if (local_id() == 0) status[1] = scratch[0];
}

// Copies again the pages listed at page_list (count at *list_count), unless kreplay_check_page_list
// found the list invalid, in which case nothing is copied (like the host driver). When stored_hashes
// is not null, stored_hashes[page] becomes the hash of each copied page (of its source, which the
// destination holds once copied); the other pages' hashes are left alone.
KERNEL void kreplay_copy_page_list(const __global page_table_entry* table, u32 entries, u64 page_bytes,
                                   const __global u32* page_list, const __global u32* list_count,
                                   __global u64* stored_hashes, const __global u64* status) {
  GROUP_SHARED u64 scratch[GROUP_SIZE];
  if (status[0] != 0 || status[1] != ~0UL) return;
  const u32 count = *list_count;
  for (u32 position = group_id(); position < count; position += group_count()) {
    const u32 page = page_list[position];
    const page_ref ref = find_page(table, entries, page_bytes, page);
    if (stored_hashes) {  // uniform across the work-group, as page_hash_group's barriers need
      const u64 hash = page_hash_group(ref.source, ref.bytes, scratch);
      if (local_id() == 0) stored_hashes[page] = hash;
    }
    group_copy(ref.destination, ref.source, ref.bytes);
  }
}
