#include "drivers/hsa/operation-plans.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "drivers/hsa/page-table.hpp"

namespace kreplay::hsa {

namespace {

constexpr std::uint64_t kNoBadIndex = ~std::uint64_t{0};
constexpr std::uint32_t kHashDestination = 1;
constexpr std::uint32_t kUpdateStoredHashes = 2;
/** Work-groups of an accumulate: fewer partial sums, fewer float atomics. */
constexpr std::uint32_t kAccumulateGroups = 1024;

std::vector<Segment> translated(const std::vector<Segment>& segments, const AddressTranslation& toDevice) {
  std::vector<Segment> result;
  result.reserve(segments.size());
  for (const auto& segment : segments)
    result.push_back({toDevice(segment.source), toDevice(segment.destination), segment.bytes});
  return result;
}

/** Copies the table into operation memory and returns its address. */
std::uint64_t placeTable(const PageTable& table, OperationMemory& memory) {
  const std::uint64_t bytes = std::max<std::uint64_t>(1, table.entries.size()) * sizeof(PageTableEntry);
  std::uint8_t* place = memory.allocate(bytes, 16);
  std::memset(place, 0, bytes);
  if (!table.entries.empty())
    std::memcpy(place, table.entries.data(), table.entries.size() * sizeof(PageTableEntry));
  return addressOf(place);
}

KernelStep fillStep(std::uint64_t destination, std::uint64_t bytes, std::uint32_t value) {
  return {DeviceKernel::Fill, {destination, bytes, value}, groupsFor((bytes + 15) / 16, kGroupSize)};
}

}  // namespace

std::uint32_t groupsFor(std::uint64_t items, std::uint64_t itemsPerGroup) {
  const std::uint64_t groups = (items + itemsPerGroup - 1) / itemsPerGroup;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(groups, 1, kMaximumGroups));
}

OperationPlan planHashPages(const std::vector<Range>& ranges, std::uint64_t pageBytes,
                            std::uint64_t hashesAddress, OperationMemory& memory,
                            const AddressTranslation& toDevice) {
  std::vector<Range> deviceRanges;
  deviceRanges.reserve(ranges.size());
  for (const auto& range : ranges) deviceRanges.push_back({toDevice(range.address), range.bytes});
  const PageTable table = buildPageTable(deviceRanges, pageBytes);
  OperationPlan plan;
  if (table.pageCount == 0) return plan;
  const std::uint32_t groups =
      pageBytes <= kSerialPageBytes ? groupsFor(table.pageCount, kGroupSize) : groupsFor(table.pageCount, 1);
  plan.steps.push_back(
      {DeviceKernel::HashPages,
       {placeTable(table, memory), table.entries.size(), pageBytes, table.pageCount, toDevice(hashesAddress)},
       groups});
  return plan;
}

OperationPlan planConditionalCopy(const ConditionalCopy& options, OperationMemory& memory,
                                  const AddressTranslation& toDevice) {
  const PageTable table = buildPageTable(translated(options.segments, toDevice), options.pageBytes);
  const std::uint64_t pageCountAddress = toDevice(options.pageCountAddress);
  OperationPlan plan;
  plan.steps.push_back(fillStep(pageCountAddress, 4, 0));
  if (table.pageCount == 0) return plan;
  const std::uint32_t flags = (options.hashDestination ? kHashDestination : 0) |
                              (options.updateStoredHashes ? kUpdateStoredHashes : 0);
  plan.steps.push_back(
      {DeviceKernel::CopyChangedPages,
       {placeTable(table, memory), table.entries.size(), options.pageBytes, table.pageCount,
        toDevice(options.storedHashesAddress), toDevice(options.pageListAddress), pageCountAddress, flags},
       groupsFor(table.pageCount, 1)});
  return plan;
}

OperationPlan planPageListCopy(const PageListCopy& options, OperationMemory& memory,
                               const AddressTranslation& toDevice) {
  const PageTable table = buildPageTable(translated(options.segments, toDevice), options.pageBytes);
  auto* status = reinterpret_cast<std::uint64_t*>(memory.allocate(16, 8));
  status[0] = 0;
  status[1] = kNoBadIndex;
  const std::uint64_t list = toDevice(options.pageListAddress);
  const std::uint64_t count = toDevice(options.pageCountAddress);
  // 0 stays null: the kernel then stores no hashes.
  const std::uint64_t hashes = options.storedHashesAddress == 0 ? 0 : toDevice(options.storedHashesAddress);
  OperationPlan plan;
  plan.pageListStatus = status;
  plan.pageCount = table.pageCount;
  plan.steps.push_back({DeviceKernel::CheckPageList, {list, count, table.pageCount, addressOf(status)}, 1});
  plan.steps.push_back({DeviceKernel::CopyPageList,
                        {placeTable(table, memory), table.entries.size(), options.pageBytes, list, count,
                         hashes, addressOf(status)},
                        groupsFor(table.pageCount, 1)});
  return plan;
}

OperationPlan planBuiltinKernel(BuiltinKernel kernel, const std::vector<std::uint64_t>& a,
                                OperationMemory& memory, const AddressTranslation& toDevice,
                                std::uint64_t random) {
  OperationPlan plan;
  switch (kernel) {
    case BuiltinKernel::Fill:
      if (a[1] > 0) plan.steps.push_back(fillStep(toDevice(a[0]), a[1], static_cast<std::uint32_t>(a[2])));
      break;
    case BuiltinKernel::ScatterWrite: {
      const std::uint64_t bytes = a[1];
      const std::uint64_t pageBytes = a[2];
      if (bytes == 0 || pageBytes == 0) break;
      // The source's digest is computed once; its 8 bytes then stand for the source (their own digest).
      std::uint8_t* digest = memory.allocate(8, 8);
      plan.steps.push_back({DeviceKernel::XorDigest, {toDevice(a[5]), a[6], addressOf(digest)}, 1});
      plan.steps.push_back({DeviceKernel::ScatterWrite,
                            {toDevice(a[0]), bytes, pageBytes, a[3], a[4], addressOf(digest), 8},
                            groupsFor((bytes + pageBytes - 1) / pageBytes, 1)});
      break;
    }
    case BuiltinKernel::Triad:
      if (a[4] > 0) {
        plan.steps.push_back({DeviceKernel::Triad,
                              {toDevice(a[0]), toDevice(a[1]), toDevice(a[2]), a[3] & 0xffffffffu, a[4]},
                              groupsFor(a[4], kGroupSize)});
      }
      break;
    case BuiltinKernel::Stencil: {
      const std::uint64_t count = a[1];
      if (count < 3) break;
      const std::uint64_t blocks = (count - 2 + kStencilBlockElements - 1) / kStencilBlockElements;
      std::uint8_t* edges = memory.allocate(8 * blocks, 8);
      const std::uint64_t buffer = toDevice(a[0]);
      plan.steps.push_back(
          {DeviceKernel::StencilEdges, {buffer, count, addressOf(edges)}, groupsFor(blocks, kGroupSize)});
      plan.steps.push_back({DeviceKernel::Stencil, {buffer, count, addressOf(edges)}, groupsFor(blocks, 1)});
      break;
    }
    case BuiltinKernel::Accumulate: {
      const std::uint64_t output = toDevice(a[2]);
      plan.steps.push_back(fillStep(output, 4, 0));
      if (a[1] > 0) {
        plan.steps.push_back({DeviceKernel::Accumulate,
                              {toDevice(a[0]), a[1], output, random % a[1]},
                              std::min(groupsFor(a[1], kGroupSize), kAccumulateGroups)});
      }
      break;
    }
  }
  return plan;
}

OperationPlan planMarker() {
  OperationPlan plan;
  plan.steps.push_back({DeviceKernel::Marker, {}, 1});
  return plan;
}

std::optional<OperationFailure> pageListFailure(const std::uint64_t* status, std::uint64_t pageCount) {
  if (status[0] != 0) {
    return OperationFailure("invalid-page-list", "the page count " + std::to_string(status[0] - 1) +
                                                     " exceeds the " + std::to_string(pageCount) +
                                                     " pages of the segments");
  }
  if (status[1] != kNoBadIndex) {
    return OperationFailure("invalid-page-list", "page index " + std::to_string(status[1] & 0xffffffffu) +
                                                     " at position " + std::to_string(status[1] >> 32) +
                                                     " is not below the page count " +
                                                     std::to_string(pageCount));
  }
  return std::nullopt;
}

}  // namespace kreplay::hsa
