// The page table the page kernels read (page_table_entry in kernels-amdgpu/page-table.h): one entry
// per non-empty span with the number of its first page, numbered like core/page-layout.hpp. Plain C++.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace kreplay::hsa {

struct PageTableEntry {
  std::uint64_t source;
  std::uint64_t destination;
  std::uint64_t bytes;
  std::uint64_t firstPage;
};
static_assert(sizeof(PageTableEntry) == 32, "four uint64 words, as the kernels read them");

struct PageTable {
  std::vector<PageTableEntry> entries;
  std::uint64_t pageCount = 0;
};

/** The table of copy segments (empty segments contribute no page and no entry). */
PageTable buildPageTable(const std::vector<Segment>& segments, std::uint64_t pageBytes);
/** The table of ranges to hash (destination 0). */
PageTable buildPageTable(const std::vector<Range>& ranges, std::uint64_t pageBytes);

}  // namespace kreplay::hsa
