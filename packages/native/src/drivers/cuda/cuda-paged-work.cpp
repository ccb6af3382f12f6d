// Paged operations on the stream: page hashing, the conditional copy (find the changed pages, then
// copy them as a page list), and page-list copies.
// Spans (ranges or segments with their first page number) are uploaded as a table; a page is
// worked on by a warp (pages up to kWarpPageBytes) or by a whole block.
#include "drivers/cuda/cuda-launch.hpp"
#include "drivers/cuda/cuda-stream-work.hpp"

namespace kreplay::cuda {

namespace {

constexpr std::uint64_t kWarpPageBytes = 16 * 1024;
constexpr std::uint64_t kWarpsPerBlock = KREPLAY_BLOCK_THREADS / 32;

/**
 * The grid of a kernel that reads every page: twice as many blocks as fit at once, which measured
 * 7-10% faster on an H200 at 256-819 MiB than one wave (the last pages are spread thinner).
 */
unsigned pagedGridFor(const CudaDevice& device, std::uint64_t pages, bool warp) {
  return gridFor(device, pages, warp ? kWarpsPerBlock : 1, 16);
}

/**
 * The grid of a page-list copy: a group per page when it stores hashes, else a group per chunk of
 * a page (see copy-page-list.cu).
 */
unsigned pageListGridFor(const CudaDevice& device, std::uint64_t pages, std::uint64_t pageBytes, bool storesHashes) {
  const bool warp = pageBytes <= kWarpPageBytes;
  const std::uint64_t chunkBytes = KREPLAY_PAGE_LIST_CHUNK_BYTES_PER_THREAD * (warp ? 32 : KREPLAY_BLOCK_THREADS);
  const std::uint64_t items = storesHashes ? pages : pages * ((pageBytes + chunkBytes - 1) / chunkBytes);
  return gridFor(device, items, warp ? kWarpsPerBlock : 1);
}

/** The non-empty segments as spans, numbered by page; the page count through `pages`. */
std::vector<KreplaySpan> spansOf(const std::vector<Segment>& segments, std::uint64_t pageBytes,
                                 std::uint64_t& pages) {
  std::vector<KreplaySpan> spans;
  pages = 0;
  for (const auto& segment : segments) {
    if (segment.bytes == 0) continue;
    spans.push_back({segment.source, segment.destination, segment.bytes, pages});
    pages += (segment.bytes + pageBytes - 1) / pageBytes;
  }
  return spans;
}

bool segmentsTouchPageable(const CudaMemoryRegistry& memory, const std::vector<Segment>& segments) {
  for (const auto& segment : segments) {
    if (memory.touchesPageable(segment.source, segment.bytes) ||
        memory.touchesPageable(segment.destination, segment.bytes))
      return true;
  }
  return false;
}

}  // namespace

void CudaStreamWork::hash(const std::vector<Range>& ranges, std::uint64_t pageBytes,
                          std::uint64_t hashesAddress, bool hostArray) {
  std::vector<Segment> segments;
  for (const auto& range : ranges) segments.push_back({range.address, 0, range.bytes});
  std::uint64_t pages = 0;
  const std::vector<KreplaySpan> spans = spansOf(segments, pageBytes, pages);
  const CudaMemoryRegistry& memory = driver_->memory;
  bool pageable = !hostArray && memory.touchesPageable(hashesAddress, 8 * pages);
  for (const auto& range : ranges) pageable = pageable || memory.touchesPageable(range.address, range.bytes);
  if (pageable) return hashOnHost(ranges, pageBytes, hashesAddress);
  if (pages == 0) return;
  std::uint64_t destination = hashesAddress;
  if (hostArray) {
    std::uint8_t* staging = driver_->pinned->acquire(8 * pages);
    deliveries_.push_back({staging, pointerOf(hashesAddress), 8 * pages});
    destination = addressOf(staging);
  }
  const std::uint64_t table = uploadSpans(spans);
  const bool warp = pageBytes <= kWarpPageBytes;
  const auto& functions = device_->functions().hashPages;
  launchKernel(*device_, warp ? functions.warp : functions.block, pagedGridFor(*device_, pages, warp),
               KREPLAY_BLOCK_THREADS, stream_, table, static_cast<std::uint32_t>(spans.size()), pageBytes, pages,
               destination, state_);
}

void CudaStreamWork::copyChangedPages(const ConditionalCopy& options) {
  std::uint64_t pages = 0;
  const std::vector<KreplaySpan> spans = spansOf(options.segments, options.pageBytes, pages);
  const CudaMemoryRegistry& memory = driver_->memory;
  if (segmentsTouchPageable(memory, options.segments) ||
      memory.touchesPageable(options.storedHashesAddress, 8 * pages) ||
      memory.touchesPageable(options.pageListAddress, 4 * pages) ||
      memory.touchesPageable(options.pageCountAddress, 4)) {
    return copyChangedPagesOnHost(options);
  }
  const std::uint64_t table = spans.empty() ? 0 : uploadSpans(spans);
  const bool warp = options.pageBytes <= kWarpPageBytes;
  const auto spanCount = static_cast<std::uint32_t>(spans.size());
  const auto& find = device_->functions().findChangedPages;
  // Launched even for no pages: its last block sets the count to 0.
  launchKernel(*device_, warp ? find.warp : find.block, pagedGridFor(*device_, pages, warp), KREPLAY_BLOCK_THREADS,
               stream_, table, spanCount, options.pageBytes, pages,
               static_cast<std::uint32_t>(options.hashDestination ? 1 : 0), options.storedHashesAddress,
               static_cast<std::uint32_t>(options.updateStoredHashes ? 1 : 0), options.pageListAddress,
               options.pageCountAddress, state_);
  if (pages == 0) return;
  // Then the recorded pages are copied; the list was written just now, so it needs no check. A page
  // copied into the hashed side gets the hash of what it now holds.
  const std::uint64_t hashCopies =
      options.hashDestination && options.updateStoredHashes ? options.storedHashesAddress : 0;
  copyListedPages(table, spanCount, options.pageBytes, pages, options.pageListAddress, options.pageCountAddress,
                  hashCopies);
}

void CudaStreamWork::copyPageList(const PageListCopy& options, std::int64_t workIndex) {
  std::uint64_t pages = 0;
  const std::vector<KreplaySpan> spans = spansOf(options.segments, options.pageBytes, pages);
  const CudaMemoryRegistry& memory = driver_->memory;
  if (segmentsTouchPageable(memory, options.segments) ||
      memory.touchesPageable(options.pageListAddress, 4 * pages) ||
      memory.touchesPageable(options.pageCountAddress, 4) ||
      (options.storedHashesAddress != 0 && memory.touchesPageable(options.storedHashesAddress, 8 * pages))) {
    return copyPageListOnHost(options);
  }
  const std::uint64_t table = spans.empty() ? 0 : uploadSpans(spans);
  // The list is checked on the device; a bad one is recorded in the queue state, which makes the
  // copy (and every later built-in operation until the next marker) do nothing. A short list is
  // checked by the copy's own blocks (one launch), a longer one by a kernel of its own first.
  armed_ = true;
  if (pages <= KREPLAY_FUSED_CHECK_PAGES) {
    const auto& fused = device_->functions().checkAndCopyPageList;
    const unsigned grid = pageListGridFor(*device_, pages, options.pageBytes, options.storedHashesAddress != 0);
    launchKernel(*device_, options.pageBytes <= kWarpPageBytes ? fused.warp : fused.block, grid,
                 KREPLAY_BLOCK_THREADS, stream_, table,
                 static_cast<std::uint32_t>(spans.size()), options.pageBytes, pages, options.pageListAddress,
                 options.pageCountAddress, options.storedHashesAddress, options.compact.address,
                 options.compact.pages, static_cast<std::uint32_t>(options.compact.isDestination ? 1 : 0),
                 workIndex, state_);
    return;
  }
  launchKernel(*device_, device_->functions().checkPageList, gridFor(*device_, pages, KREPLAY_BLOCK_THREADS),
               KREPLAY_BLOCK_THREADS, stream_, options.pageListAddress, options.pageCountAddress, pages,
               workIndex, state_);
  copyListedPages(table, static_cast<std::uint32_t>(spans.size()), options.pageBytes, pages, options.pageListAddress,
                  options.pageCountAddress, options.storedHashesAddress, options.compact);
}

void CudaStreamWork::copyListedPages(std::uint64_t table, std::uint32_t spanCount, std::uint64_t pageBytes,
                                     std::uint64_t pages, std::uint64_t pageListAddress,
                                     std::uint64_t pageCountAddress, std::uint64_t storedHashesAddress,
                                     const CompactPages& compact) {
  const auto& copy = device_->functions().copyPageList;
  launchKernel(*device_, pageBytes <= kWarpPageBytes ? copy.warp : copy.block,
               pageListGridFor(*device_, pages, pageBytes, storedHashesAddress != 0), KREPLAY_BLOCK_THREADS, stream_,
               table, spanCount, pageBytes, pageListAddress, pageCountAddress, storedHashesAddress, compact.address,
               compact.pages, static_cast<std::uint32_t>(compact.isDestination ? 1 : 0), state_);
}

}  // namespace kreplay::cuda
