// Pages numbered across spans in order, each span contributing ceil(bytes / pageBytes) pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kreplay {

class PageLayout {
 public:
  struct Page {
    std::size_t span;
    std::uint64_t offset;  // from the span's start
    std::uint64_t bytes;   // pageBytes, or less for a span's last page
  };

  PageLayout(const std::vector<std::uint64_t>& spanBytes, std::uint64_t pageBytes);

  std::uint64_t pageCount() const { return firstPages_.back(); }
  std::uint64_t pageBytes() const { return pageBytes_; }
  /** Page `index` (< pageCount()). */
  Page page(std::uint64_t index) const;

 private:
  std::vector<std::uint64_t> spanBytes_;
  std::vector<std::uint64_t> firstPages_;  // one extra entry: the page count
  std::uint64_t pageBytes_;
};

}  // namespace kreplay
