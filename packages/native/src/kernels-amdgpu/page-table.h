// The page table the driver writes for the page kernels: one entry per non-empty span, in page
// order. Pages are numbered across spans, each span contributing ceil(bytes / pageBytes) pages.
// The layout is fixed by PageTableEntry in src/drivers/hsa/page-table.hpp (four uint64 words).
#pragma once
#include "common.h"

typedef struct {
  u64 source;       // the hashed range, or a copy's source
  u64 destination;  // a copy's destination (0 for plain hashing)
  u64 bytes;
  u64 first_page;   // the number of the span's first page
} page_table_entry;

typedef struct {
  __global u8* source;
  __global u8* destination;
  u64 bytes;  // page_bytes, or less for a span's last page
} page_ref;

/** Page `page` (< the table's page count): the entry with the largest first_page <= page. */
static inline page_ref find_page(const __global page_table_entry* table, u32 entries, u64 page_bytes, u64 page) {
  u32 low = 0;
  u32 high = entries;  // table[low].first_page <= page < table[high].first_page
  while (high - low > 1) {
    const u32 middle = low + (high - low) / 2;
    if (table[middle].first_page <= page) low = middle;
    else high = middle;
  }
  const page_table_entry entry = table[low];
  const u64 offset = (page - entry.first_page) * page_bytes;
  const u64 left = entry.bytes - offset;
  page_ref ref;
  ref.source = (__global u8*)(entry.source + offset);
  ref.destination = (__global u8*)(entry.destination + offset);
  ref.bytes = left < page_bytes ? left : page_bytes;
  return ref;
}
