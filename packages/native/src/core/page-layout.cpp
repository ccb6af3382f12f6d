#include "core/page-layout.hpp"

#include <algorithm>

namespace kreplay {

PageLayout::PageLayout(const std::vector<std::uint64_t>& spanBytes, std::uint64_t pageBytes)
    : spanBytes_(spanBytes), pageBytes_(pageBytes) {
  firstPages_.reserve(spanBytes.size() + 1);
  std::uint64_t first = 0;
  for (const auto bytes : spanBytes) {
    firstPages_.push_back(first);
    first += (bytes + pageBytes - 1) / pageBytes;
  }
  firstPages_.push_back(first);
}

PageLayout::Page PageLayout::page(std::uint64_t index) const {
  const auto found = std::upper_bound(firstPages_.begin(), firstPages_.end() - 1, index);
  const auto span = static_cast<std::size_t>(found - firstPages_.begin()) - 1;
  const std::uint64_t offset = (index - firstPages_[span]) * pageBytes_;
  return {span, offset, std::min(pageBytes_, spanBytes_[span] - offset)};
}

}  // namespace kreplay
