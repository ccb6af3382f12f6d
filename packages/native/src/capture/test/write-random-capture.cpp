#include "capture/test/write-random-capture.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "capture/json-text.hpp"
#include "capture/test/session-fixture.hpp"
#include "core/page-hash.hpp"

namespace kreplay::capture::test {

namespace {

constexpr std::uint64_t kPage = kCapturePageBytes;
const std::uintptr_t kStreams[] = {0x0, 0x10, 0x20};

struct LiveRange {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  bool host = false;
};

/** A range's true memory as JSON: its page blob ids, or its page hashes. */
std::string pagesJson(const LiveRange& range, bool blobs) {
  std::string out = "[";
  for (std::uint64_t at = 0; at < range.bytes; at += kPage) {
    const std::uint8_t* page = SessionFixture::at(range.base + at);
    const std::uint64_t length = std::min(kPage, range.bytes - at);
    out += (at ? "," : "") + (blobs ? jsonString(blobId(page, length)) : jsonHash(kreplay::pageHash(page, length)));
  }
  return out + "]";
}

class RandomProgram {
 public:
  RandomProgram(const char* directory, std::uint64_t seed) : random_(seed), fixture_(options(directory)) {}

  void run(std::uint64_t operations) {
    allocate(false);
    allocate(true);
    for (std::uint64_t i = 0; i < operations; ++i) step();
    fixture_.session->finish();
  }
  std::string launches() const { return launches_; }
  bool stopped() const { return fixture_.session->stopped(); }

 private:
  static CaptureOptions options(const char* directory) {
    CaptureOptions options = everyLaunchOptions();
    options.directory = directory;
    options.kernelName = "scale";
    options.stagingBytes = 4 * kPage;  // small: launches wait for the writer at times
    return options;
  }
  std::uint64_t below(std::uint64_t limit) { return std::uniform_int_distribution<std::uint64_t>(0, limit - 1)(random_); }
  std::uintptr_t stream() { return kStreams[below(3)]; }
  const LiveRange& anyRange() { return live_[below(live_.size())]; }
  /** A random piece [offset, offset + bytes) of a range. */
  std::pair<std::uint64_t, std::uint64_t> piece(const LiveRange& range) {
    const std::uint64_t offset = below(range.bytes);
    return {offset, 1 + below(std::min<std::uint64_t>(range.bytes - offset, 2 * kPage))};
  }

  void allocate(bool host) {
    const std::uint64_t pages = 1 + below(3);
    const std::uint64_t last = below(2) == 0 ? 0 : 1 + below(kPage - 1);
    const std::uint64_t base = fixture_.addRange(pages, static_cast<std::uint8_t>(below(256)),
                                                 host ? MemoryKind::HostPinned : MemoryKind::Device, last);
    live_.push_back({base, (pages - (last ? 1 : 0)) * kPage + last, host});
  }

  /** What a kernel does: writes a few random pieces of device ranges (or of host ranges, mapped). */
  void kernelWrites() {
    for (std::uint64_t n = below(4); n > 0; --n) {
      const LiveRange& range = anyRange();
      const auto [offset, bytes] = piece(range);
      std::fill_n(SessionFixture::at(range.base + offset), bytes, static_cast<std::uint8_t>(below(256)));
    }
  }

  void launchCaptured() {
    const std::uintptr_t on = stream();
    std::vector<std::string> ranges;
    for (const LiveRange& range : live_) {
      ranges.push_back("{\"base\":" + std::to_string(range.base) + ",\"bytes\":" + std::to_string(range.bytes) +
                       ",\"pagesBefore\":" + pagesJson(range, true) + ",\"hashesBefore\":" + pagesJson(range, false));
    }
    if (!fixture_.launch([&] { kernelWrites(); }, on)) return;
    std::string out;
    for (std::size_t i = 0; i < live_.size(); ++i)
      out += (i ? "," : "") + ranges[i] + ",\"hashesAfter\":" + pagesJson(live_[i], false) + "}";
    launches_ += std::string(launches_.empty() ? "" : ",") + "{\"stream\":" + jsonAddress(on) + ",\"ranges\":[" +
                 out + "]}";
  }

  void step() {
    switch (below(12)) {
      case 0:
      case 1:
      case 2:
      case 3:
        return launchCaptured();
      case 4:
        fixture_.launch([&] { kernelWrites(); }, stream(), 0, "not_selected");
        return;
      case 5: {  // a memset
        const LiveRange& range = anyRange();
        const auto [offset, bytes] = piece(range);
        const auto value = static_cast<std::uint8_t>(below(256));
        std::fill_n(SessionFixture::at(range.base + offset), bytes, value);
        fixture_.session->memsetIssued(stream(), range.base + offset, bytes, value, 1);
        return;
      }
      case 6: {  // a copy between two ranges
        const LiveRange& from = anyRange();
        const LiveRange& to = anyRange();
        const auto [offset, bytes] = piece(from);
        const std::uint64_t length = std::min(bytes, to.bytes);
        const std::uint64_t target = below(to.bytes - length + 1);
        std::memmove(SessionFixture::at(to.base + target), SessionFixture::at(from.base + offset), length);
        fixture_.session->copyIssued(stream(), to.base + target, from.base + offset, length);
        return;
      }
      case 7: {  // an upload from memory the capture does not track
        const LiveRange& to = anyRange();
        const auto [offset, bytes] = piece(to);
        std::vector<std::uint8_t> source(bytes, static_cast<std::uint8_t>(below(256)));
        std::memcpy(SessionFixture::at(to.base + offset), source.data(), bytes);
        fixture_.session->copyIssued(stream(), to.base + offset, reinterpret_cast<std::uint64_t>(source.data()), bytes);
        return;
      }
      case 8:
        if (live_.size() < 6) allocate(below(3) == 0);
        return;
      case 9:
        if (live_.size() > 1) {
          const std::size_t index = below(live_.size());
          fixture_.session->allocationRemoved(live_[index].base);
          live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(index));
        }
        return;
      case 10: {  // the CPU writes a host range
        for (const LiveRange& range : live_) {
          if (!range.host || below(2) == 0) continue;
          const auto [offset, bytes] = piece(range);
          std::fill_n(SessionFixture::at(range.base + offset), bytes, static_cast<std::uint8_t>(below(256)));
        }
        return;
      }
      default: {
        const std::uintptr_t on = stream();
        if (below(2) == 0) return fixture_.session->hostFunctionIssued(on);
        const std::uintptr_t event = 0xe0 + below(2);
        fixture_.session->eventRecorded(event, stream());
        fixture_.session->eventWaited(on, event);
        return;
      }
    }
  }

  std::mt19937_64 random_;
  SessionFixture fixture_;
  std::vector<LiveRange> live_;
  std::string launches_;
};

}  // namespace

int writeRandomCapture(const char* directory, std::uint64_t seed, std::uint64_t operations, std::ostream& out) {
  try {
    RandomProgram program(directory, seed);
    program.run(operations);
    out << "{\"stopped\":" << (program.stopped() ? "true" : "false") << ",\"launches\":[" << program.launches()
        << "]}\n";
    return 0;
  } catch (const std::exception& error) {
    out << "failed: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace kreplay::capture::test
