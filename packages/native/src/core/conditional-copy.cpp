#include "core/conditional-copy.hpp"

#include <string>

#include "core/copy-segments.hpp"
#include "core/hash-pages.hpp"
#include "core/page-layout.hpp"

namespace kreplay {

namespace {

PageLayout layoutOf(const std::vector<Segment>& segments, std::uint64_t pageBytes) {
  std::vector<std::uint64_t> lengths;
  lengths.reserve(segments.size());
  for (const auto& segment : segments) lengths.push_back(segment.bytes);
  return PageLayout(lengths, pageBytes);
}

/** The copy segment of each listed page. */
std::vector<Segment> pageSegments(const std::vector<Segment>& segments, const PageLayout& layout,
                                  const std::vector<std::uint32_t>& pages) {
  std::vector<Segment> copies;
  copies.reserve(pages.size());
  for (const auto index : pages) {
    const auto page = layout.page(index);
    const Segment& segment = segments[page.span];
    copies.push_back({segment.source + page.offset, segment.destination + page.offset, page.bytes});
  }
  return copies;
}

void hashSide(ThreadPool& pool, const std::vector<Segment>& segments, const PageLayout& layout,
              const std::vector<std::uint32_t>* only, bool destination, std::vector<std::uint64_t>& hashes) {
  const std::uint64_t count = only ? only->size() : layout.pageCount();
  hashes.assign(count, 0);
  hashPages(
      pool, count, layout.pageBytes(),
      [&](std::uint64_t index) {
        const auto page = layout.page(only ? (*only)[index] : index);
        const Segment& segment = segments[page.span];
        return PageRef{pointerOf((destination ? segment.destination : segment.source) + page.offset),
                       page.bytes};
      },
      hashes.data());
}

}  // namespace

void copyChangedPages(ThreadPool& pool, const ConditionalCopy& options) {
  const PageLayout layout = layoutOf(options.segments, options.pageBytes);
  std::vector<std::uint64_t> hashes;
  hashSide(pool, options.segments, layout, nullptr, options.hashDestination, hashes);

  std::uint8_t* stored = pointerOf(options.storedHashesAddress);
  std::vector<std::uint32_t> changed;
  for (std::uint64_t index = 0; index < hashes.size(); ++index) {
    if (hashes[index] != loadWord(stored + 8 * index)) changed.push_back(static_cast<std::uint32_t>(index));
  }
  copySegments(pool, pageSegments(options.segments, layout, changed));

  if (options.updateStoredHashes && !changed.empty()) {
    std::vector<std::uint64_t> copiedHashes;
    if (options.hashDestination) hashSide(pool, options.segments, layout, &changed, false, copiedHashes);
    for (std::size_t position = 0; position < changed.size(); ++position) {
      const std::uint32_t index = changed[position];
      storeWord(stored + 8 * std::uint64_t{index},
                options.hashDestination ? copiedHashes[position] : hashes[index]);
    }
  }
  std::uint8_t* list = pointerOf(options.pageListAddress);
  for (std::size_t position = 0; position < changed.size(); ++position)
    storeUint32(list + 4 * position, changed[position]);
  storeUint32(pointerOf(options.pageCountAddress), static_cast<std::uint32_t>(changed.size()));
}

void copyPageList(ThreadPool& pool, const PageListCopy& options) {
  const PageLayout layout = layoutOf(options.segments, options.pageBytes);
  const std::uint32_t count = loadUint32(pointerOf(options.pageCountAddress));
  if (count > layout.pageCount()) {
    throw OperationFailure("invalid-page-list", "the page count " + std::to_string(count) + " exceeds the " +
                                                    std::to_string(layout.pageCount()) +
                                                    " pages of the segments");
  }
  const std::uint8_t* list = pointerOf(options.pageListAddress);
  std::vector<std::uint32_t> pages(count);
  for (std::uint32_t position = 0; position < count; ++position) {
    pages[position] = loadUint32(list + 4 * std::uint64_t{position});
    if (pages[position] >= layout.pageCount()) {
      throw OperationFailure("invalid-page-list", "page index " + std::to_string(pages[position]) +
                                                      " at position " + std::to_string(position) +
                                                      " is not below the page count " +
                                                      std::to_string(layout.pageCount()));
    }
  }
  std::vector<Segment> copies = pageSegments(options.segments, layout, pages);
  const CompactPages& compact = options.compact;
  if (compact.address != 0) {
    for (std::size_t position = 0; position < copies.size() && position < compact.pages; ++position) {
      const std::uint64_t slot = compact.address + position * options.pageBytes;
      (compact.isDestination ? copies[position].destination : copies[position].source) = slot;
    }
    if (compact.isDestination && copies.size() > compact.pages) copies.resize(compact.pages);
  }
  copySegments(pool, copies);
  if (options.storedHashesAddress == 0 || pages.empty()) return;
  std::vector<std::uint64_t> copiedHashes;
  hashSide(pool, options.segments, layout, &pages, true, copiedHashes);
  std::uint8_t* stored = pointerOf(options.storedHashesAddress);
  for (std::size_t position = 0; position < pages.size(); ++position)
    storeWord(stored + 8 * std::uint64_t{pages[position]}, copiedHashes[position]);
}

}  // namespace kreplay
