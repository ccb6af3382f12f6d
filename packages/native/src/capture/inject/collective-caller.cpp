#include "capture/inject/collective-caller.hpp"

#include <link.h>
#include <unwind.h>

#include <cstddef>
#include <memory>
#include <mutex>

#include "capture/inject/collective-library.hpp"

namespace kreplay::capture {

namespace {

/** The loader's counts of objects loaded and unloaded so far: they change when the set of objects does. */
struct LoadCounts {
  unsigned long long adds = 0;
  unsigned long long subs = 0;
  bool known = false;
  bool operator==(const LoadCounts& other) const {
    return known && other.known && adds == other.adds && subs == other.subs;
  }
};

LoadCounts loadCounts() {
  LoadCounts counts;
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t size, void* data) {
        auto* out = static_cast<LoadCounts*>(data);
        if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs))
          *out = LoadCounts{info->dlpi_adds, info->dlpi_subs, true};
        return 1;  // the counters are the same in every object's info: the first one says
      },
      &counts);
  return counts;
}

struct RangeSearch {
  std::optional<std::string> (*pick)(const std::string& path);
  std::vector<CodeRange> ranges;
};

struct CollectiveRanges {
  std::mutex mutex;
  LoadCounts seen;
  std::shared_ptr<const std::vector<CodeRange>> ranges = std::make_shared<const std::vector<CodeRange>>();
};

std::optional<std::string> collectiveLibraryOf(const std::string& path) {
  return path.empty() ? std::nullopt : collectiveLibraryName(path);
}

/** The collective libraries' executable ranges, read again when the loaded objects changed. */
std::shared_ptr<const std::vector<CodeRange>> collectiveRanges() {
  static CollectiveRanges* cache = new CollectiveRanges();  // never destroyed: launches may come at exit
  const LoadCounts now = loadCounts();
  std::lock_guard<std::mutex> lock(cache->mutex);
  if (!(now == cache->seen)) {
    cache->ranges = std::make_shared<const std::vector<CodeRange>>(executableRanges(collectiveLibraryOf));
    cache->seen = now;
  }
  return cache->ranges;
}

}  // namespace

std::optional<std::string> libraryHoldingCaller(const std::vector<CodeRange>& ranges,
                                                const std::vector<std::uintptr_t>& returnAddresses) {
  for (const std::uintptr_t address : returnAddresses) {
    if (address == 0) continue;
    for (const CodeRange& range : ranges)
      if (address - 1 >= range.begin && address - 1 < range.end) return range.library;
  }
  return std::nullopt;
}

std::vector<CodeRange> executableRanges(std::optional<std::string> (*pick)(const std::string& path)) {
  RangeSearch search{pick, {}};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* search = static_cast<RangeSearch*>(data);
        const auto library = search->pick(info->dlpi_name == nullptr ? std::string() : info->dlpi_name);
        if (!library) return 0;
        for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD || (segment.p_flags & PF_X) == 0) continue;
          const std::uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
          search->ranges.push_back(CodeRange{begin, begin + segment.p_memsz, *library});
        }
        return 0;
      },
      &search);
  return search.ranges;
}

std::vector<std::uintptr_t> callerReturnAddresses(int frames) {
  struct Walk {
    std::vector<std::uintptr_t> addresses;
    std::size_t limit;
  } walk{{}, static_cast<std::size_t>(frames)};
  walk.addresses.reserve(walk.limit);
  // libgcc's unwinder, which glibc's backtrace() would load libgcc_s for on its first call.
  _Unwind_Backtrace(
      [](_Unwind_Context* context, void* data) {
        auto* walk = static_cast<Walk*>(data);
        if (walk->addresses.size() >= walk->limit) return _URC_END_OF_STACK;
        walk->addresses.push_back(static_cast<std::uintptr_t>(_Unwind_GetIP(context)));
        return _URC_NO_REASON;
      },
      &walk);
  return walk.addresses;
}

std::optional<std::string> collectiveCaller() {
  const std::shared_ptr<const std::vector<CodeRange>> ranges = collectiveRanges();
  if (ranges->empty()) return std::nullopt;
  return libraryHoldingCaller(*ranges, callerReturnAddresses(kCallerFrames));
}

}  // namespace kreplay::capture
