#include "core/hash-pages.hpp"

#include <algorithm>
#include <cstring>

#include "core/page-hash.hpp"
#include "core/page-layout.hpp"
#include "core/parallel-blocks.hpp"

namespace kreplay {

namespace {

constexpr std::uint64_t kPartWords = kInlineBytes / 8;

void hashLargePages(ThreadPool& pool, std::uint64_t count, std::uint64_t maxPageBytes,
                    const std::function<PageRef(std::uint64_t)>& pageAt, std::uint64_t* hashes) {
  const std::uint64_t parts = (pageWordCount(maxPageBytes) + kPartWords - 1) / kPartWords;
  std::vector<std::uint64_t> sums(count * parts, 0);
  forEachBlock(pool, count * parts, 1, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t task = begin; task < end; ++task) {
      const PageRef page = pageAt(task / parts);
      const std::uint64_t words = pageWordCount(page.bytes);
      const std::uint64_t first = (task % parts) * kPartWords;
      if (first < words)
        sums[task] = pageWordSum(page.data, page.bytes, first, std::min(words, first + kPartWords));
    }
  });
  for (std::uint64_t index = 0; index < count; ++index) {
    std::uint64_t sum = 0;
    for (std::uint64_t part = 0; part < parts; ++part) sum += sums[index * parts + part];
    hashes[index] = finishPageHash(sum, pageAt(index).bytes);
  }
}

}  // namespace

void hashPages(ThreadPool& pool, std::uint64_t count, std::uint64_t maxPageBytes,
               const std::function<PageRef(std::uint64_t)>& pageAt, std::uint64_t* hashes) {
  if (maxPageBytes > kInlineBytes) {
    hashLargePages(pool, count, maxPageBytes, pageAt, hashes);
    return;
  }
  forEachBlock(pool, count, grainFor(maxPageBytes), [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t index = begin; index < end; ++index) {
      const PageRef page = pageAt(index);
      hashes[index] = pageHash(page.data, page.bytes);
    }
  });
}

void hashRanges(ThreadPool& pool, const std::vector<Range>& ranges, std::uint64_t pageBytes,
                std::uint8_t* destination) {
  std::vector<std::uint64_t> lengths;
  lengths.reserve(ranges.size());
  for (const auto& range : ranges) lengths.push_back(range.bytes);
  const PageLayout layout(lengths, pageBytes);
  std::vector<std::uint64_t> hashes(layout.pageCount());
  hashPages(
      pool, layout.pageCount(), pageBytes,
      [&](std::uint64_t index) {
        const auto page = layout.page(index);
        return PageRef{pointerOf(ranges[page.span].address + page.offset), page.bytes};
      },
      hashes.data());
  if (!hashes.empty()) std::memcpy(destination, hashes.data(), hashes.size() * sizeof(std::uint64_t));
}

}  // namespace kreplay
