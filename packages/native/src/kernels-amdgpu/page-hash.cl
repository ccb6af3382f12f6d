// Page hashing: one uint64 per page, identical to pageHash of API.md.
#include "page-table.h"

// Pages up to this size are hashed by one work-item each; larger ones by a whole work-group.
#define SERIAL_PAGE_BYTES 256

KERNEL void kreplay_hash_pages(const __global page_table_entry* table, u32 entries, u64 page_bytes, u64 page_count,
                               __global u64* hashes) {
  GROUP_SHARED u64 scratch[GROUP_SIZE];
  if (page_bytes <= SERIAL_PAGE_BYTES) {
    for (u64 page = global_id(); page < page_count; page += global_count()) {
      const page_ref ref = find_page(table, entries, page_bytes, page);
      hashes[page] = page_hash_serial(ref.source, ref.bytes);
    }
    return;
  }
  for (u64 page = group_id(); page < page_count; page += group_count()) {
    const page_ref ref = find_page(table, entries, page_bytes, page);
    const u64 hash = page_hash_group(ref.source, ref.bytes, scratch);
    if (local_id() == 0) hashes[page] = hash;
  }
}
