#include "core/copy-segments.hpp"

#include <cstring>

#include "core/byte-spans.hpp"
#include "core/parallel-blocks.hpp"

namespace kreplay {

void copySegments(ThreadPool& pool, const std::vector<Segment>& segments) {
  if (segments.empty()) return;
  if (segments.size() == 1) {
    const Segment& only = segments.front();
    forEachBlock(pool, only.bytes, kInlineBytes, [&](std::uint64_t begin, std::uint64_t end) {
      std::memmove(pointerOf(only.destination + begin), pointerOf(only.source + begin), end - begin);
    });
    return;
  }
  std::vector<std::uint64_t> lengths;
  lengths.reserve(segments.size());
  for (const auto& segment : segments) lengths.push_back(segment.bytes);
  const ByteSpans spans(lengths);
  forEachBlock(pool, spans.total(), kInlineBytes, [&](std::uint64_t begin, std::uint64_t end) {
    spans.forEachPiece(begin, end, [&](std::size_t span, std::uint64_t offset, std::uint64_t bytes) {
      const Segment& segment = segments[span];
      std::memmove(pointerOf(segment.destination + offset), pointerOf(segment.source + offset), bytes);
    });
  });
}

}  // namespace kreplay
