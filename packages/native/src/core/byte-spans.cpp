#include "core/byte-spans.hpp"

#include <algorithm>

namespace kreplay {

ByteSpans::ByteSpans(const std::vector<std::uint64_t>& lengths) {
  starts_.reserve(lengths.size() + 1);
  std::uint64_t start = 0;
  for (const auto length : lengths) {
    starts_.push_back(start);
    start += length;
  }
  starts_.push_back(start);
}

void ByteSpans::forEachPiece(
    std::uint64_t begin, std::uint64_t end,
    const std::function<void(std::size_t span, std::uint64_t offset, std::uint64_t bytes)>& piece) const {
  if (begin >= end) return;
  const std::size_t spans = starts_.size() - 1;
  // The last span starting at or before `begin` (empty spans share a start with the next one).
  std::size_t span = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end() - 1, begin) -
                                              starts_.begin()) -
                     1;
  for (std::uint64_t position = begin; position < end && span < spans; ++span) {
    const std::uint64_t spanEnd = starts_[span + 1];
    if (spanEnd <= position) continue;
    const std::uint64_t pieceEnd = std::min(spanEnd, end);
    piece(span, position - starts_[span], pieceEnd - position);
    position = pieceEnd;
  }
}

}  // namespace kreplay
