#include "capture/test/write-session-capture.hpp"

#include <cstring>
#include <exception>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "capture/inject/capture-session.hpp"
#include "capture/test/fake-device-memory.hpp"
#include "capture/test/synthetic-images.hpp"

namespace kreplay::capture::test {

namespace {

constexpr std::uint64_t kPage = kCapturePageBytes;

std::string fills(const std::vector<std::uint8_t>& memory) {
  std::string out = "[";
  for (std::uint64_t at = 0; at < memory.size(); at += kPage)
    out += (at ? "," : "") + std::to_string(memory[at]);
  return out + "]";
}

}  // namespace

int writeSessionCapture(const char* directory, std::uint64_t killOnCopy, std::ostream& out) {
  try {
    CaptureOptions options;
    options.directory = directory;
    options.everyLaunch = true;
    options.command = {"fake-program"};
    FakeDeviceMemory device;
    device.killOnCopy = killOnCopy;
    std::ostringstream log;
    CaptureSession session(options, device, log);
    const Bytes module = syntheticCubin().bytes;
    session.moduleLoaded(3, module.data(), module.size());
    std::vector<std::uint8_t> memory(2 * kPage + kPage / 2, 1);
    std::vector<std::uint8_t> counter(4, 5);
    const auto base = reinterpret_cast<std::uint64_t>(memory.data());
    const auto counterBase = reinterpret_cast<std::uint64_t>(counter.data());
    device.globals["counter"] = {counterBase, 4};
    session.allocationAdded(base, memory.size(), MemoryKind::Device);
    auto fill = [&](int page, std::uint8_t value) {
      std::memset(memory.data() + page * kPage, value,
                  std::min<std::uint64_t>(kPage, memory.size() - page * kPage));
    };
    std::string launches;
    auto launch = [&](int count, const std::function<void()>& kernel) {
      std::uint64_t pointer = base;
      void* params[] = {&pointer, &count};
      LaunchRequest request;
      request.function = "scale";
      request.functionHandle = 0x77;
      request.shape.grid = {static_cast<std::uint32_t>(count), 1, 1};
      request.kernelParams = params;
      const std::string before = fills(memory), counterBefore = std::to_string(counter[0]);
      auto pending = session.beforeLaunch(request);
      kernel();
      session.afterLaunch(std::move(pending), true);
      launches += std::string(launches.empty() ? "" : ",") + "{\"before\":" + before +
                  ",\"after\":" + fills(memory) + ",\"counterBefore\":" + counterBefore +
                  ",\"counterAfter\":" + std::to_string(counter[0]) + "}";
    };
    launch(1, [&] { fill(1, 2); });
    fill(0, 3);  // a memset the program makes between the launches
    session.memsetIssued(0, base, kPage, 3, 1);
    launch(2, [&] {
      fill(2, 4);
      std::memset(counter.data(), 6, 4);
    });
    launch(3, [&] { fill(0, 7); });
    session.finish();
    out << "{\"base\":" << base << ",\"counter\":" << counterBase << ",\"bytes\":" << memory.size()
        << ",\"launches\":[" << launches << "],\"log\":\"" << (session.stopped() ? "stopped" : "") << "\"}\n";
    return 0;
  } catch (const std::exception& error) {
    out << "failed: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace kreplay::capture::test
