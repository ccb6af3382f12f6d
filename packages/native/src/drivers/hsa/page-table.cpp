#include "drivers/hsa/page-table.hpp"

namespace kreplay::hsa {

PageTable buildPageTable(const std::vector<Segment>& segments, std::uint64_t pageBytes) {
  PageTable table;
  for (const auto& segment : segments) {
    if (segment.bytes == 0) continue;
    table.entries.push_back({segment.source, segment.destination, segment.bytes, table.pageCount});
    table.pageCount += (segment.bytes + pageBytes - 1) / pageBytes;
  }
  return table;
}

PageTable buildPageTable(const std::vector<Range>& ranges, std::uint64_t pageBytes) {
  std::vector<Segment> segments;
  segments.reserve(ranges.size());
  for (const auto& range : ranges) segments.push_back({range.address, 0, range.bytes});
  return buildPageTable(segments, pageBytes);
}

}  // namespace kreplay::hsa
