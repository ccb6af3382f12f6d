// A list of spans laid end to end, so work can be split by bytes across span boundaries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace kreplay {

class ByteSpans {
 public:
  explicit ByteSpans(const std::vector<std::uint64_t>& lengths);

  std::uint64_t total() const { return starts_.back(); }

  /** Calls `piece(span, offset, bytes)` for every part of a span inside [begin, end), in order. */
  void forEachPiece(
      std::uint64_t begin, std::uint64_t end,
      const std::function<void(std::size_t span, std::uint64_t offset, std::uint64_t bytes)>& piece) const;

 private:
  std::vector<std::uint64_t> starts_;  // starts_[i] = Σ lengths[0..i); one extra entry: the total
};

}  // namespace kreplay
