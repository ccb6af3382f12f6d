// The work between launches and captured sequences, over the fake device: memsets and copies
// recorded per stream as `workBefore` (copy, upload, download by what the capture tracks),
// allocations and frees, and each reason a launch starts a new captured sequence.
#include "capture/json-text.hpp"
#include "capture/test/session-fixture.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;
using namespace kreplay::capture::test;

namespace {

constexpr std::uint64_t kPage = kCapturePageBytes;

std::string address(std::uint64_t value) {
  return jsonAddress(value);
}

std::string follows(int sequence) {
  return "\"follows\":" + std::to_string(sequence) + ",\"sequenceBreak\":null";
}

std::string starts(const std::string& reason) {
  return "\"follows\":null,\"sequenceBreak\":\"" + reason + "\"";
}

}  // namespace

TEST("capture work: memsets and copies are recorded on their stream, with allocations and frees, as the next launch's workBefore") {
  SessionFixture fixture;
  const std::uint64_t a = fixture.addRange(2), b = fixture.addRange(1);
  fixture.launch();
  std::vector<std::uint8_t> host(64, 3), other(64, 4);
  const auto hostAddress = reinterpret_cast<std::uint64_t>(host.data());
  const auto otherAddress = reinterpret_cast<std::uint64_t>(other.data());
  fixture.session->memsetIssued(0, a, 100, 7, 1);
  fixture.session->copyIssued(0, a + kPage, b, 64);               // tracked to tracked
  fixture.session->copyIssued(0, b, hostAddress, 64);             // from memory the capture does not track
  fixture.session->copyIssued(0, hostAddress, a, 64);             // to memory it does not track
  fixture.session->copyIssued(0, hostAddress, otherAddress, 64);  // neither: nothing recorded
  fixture.session->copyIssued(0x10, a, b, 8);                     // another stream's
  const std::uint64_t c = fixture.addRange(1);
  fixture.session->allocationRemoved(c);
  fixture.launch();
  const std::string expected =
      "\"workBefore\":[{\"kind\":\"memset\",\"stream\":\"0x0\",\"address\":" + address(a) +
      ",\"bytes\":100,\"value\":7,\"elementBytes\":1},{\"kind\":\"copy\",\"stream\":\"0x0\",\"destination\":" +
      address(a + kPage) + ",\"source\":" + address(b) +
      ",\"bytes\":64},{\"kind\":\"upload\",\"stream\":\"0x0\",\"destination\":" + address(b) +
      ",\"bytes\":64},{\"kind\":\"download\",\"stream\":\"0x0\",\"source\":" + address(a) +
      ",\"bytes\":64},{\"kind\":\"allocation\",\"address\":" + address(c) +
      ",\"bytes\":65536,\"memoryKind\":\"device\"},{\"kind\":\"free\",\"address\":" + address(c) + "}]";
  CHECK(contains(fixture.record(1), expected));
  // The first launch's work: the allocations before it.
  CHECK(contains(fixture.record(0), "\"workBefore\":[{\"kind\":\"allocation\",\"address\":" + address(a)));
  // Stream 0x10's list: its copy, then the allocation and free made after it.
  fixture.launch({}, 0x10);
  CHECK(contains(fixture.record(2), "\"workBefore\":[{\"kind\":\"copy\",\"stream\":\"0x10\",\"destination\":" + address(a) +
                                     ",\"source\":" + address(b) + ",\"bytes\":8},{\"kind\":\"allocation\""));
  // Launch 1 continues launch 0's sequence: what changed was written by recorded work.
  CHECK(contains(fixture.record(1), follows(0)));
}

TEST("capture sequences: each reason a launch starts a new captured sequence, and the manifest's counts") {
  CaptureOptions options = everyLaunchOptions();
  options.kernelName = "scale";
  options.fromStart = false;
  SessionFixture fixture(options);
  fixture.session->profilerStarted();
  const std::uint64_t device = fixture.addRange(2), host = fixture.addRange(1, 1, MemoryKind::HostPinned);
  std::vector<std::string> expected;
  auto launch = [&](const std::string& place, std::uintptr_t stream = 0, std::uintptr_t context = 0) {
    CHECK(fixture.launch({}, stream, context));
    expected.push_back(place);
  };
  launch(starts("first-launch"));
  launch(follows(0));
  launch(starts("other-stream"), 0x10);
  launch(starts("other-stream"), 0x10, 0xc1);  // another context
  launch(follows(3), 0x10, 0xc1);
  fixture.session->hostFunctionIssued(0x10);
  launch(starts("host-function"), 0x10, 0xc1);
  fixture.session->eventRecorded(0xe1, 0x10);
  fixture.session->eventWaited(0x10, 0xe1);  // an event of its own stream: no break
  launch(follows(5), 0x10, 0xc1);
  fixture.session->eventRecorded(0xe2, 0x20);
  fixture.session->eventWaited(0x10, 0xe2);
  launch(starts("cross-stream-wait"), 0x10, 0xc1);
  fixture.session->unboundedWriteIssued();
  launch(starts("unbounded-write"), 0x10, 0xc1);
  CHECK(!fixture.launch({}, 0x30, 0xc1, "not_scale"));
  launch(starts("uncaptured-launch"), 0x10, 0xc1);
  SessionFixture::fillPage(host, 0, 5);  // the CPU writes a host range
  launch(starts("host-write"), 0x10, 0xc1);
  SessionFixture::fillPage(device, 0, 9);  // explained by the memset
  fixture.session->memsetIssued(0x10, device, kPage, 9, 1);
  launch(follows(10), 0x10, 0xc1);
  SessionFixture::fillPage(device, 0, 8);
  fixture.session->memsetIssued(0x10, device, kPage, 8, 1);
  SessionFixture::fillPage(device, 1, 6);  // a write nobody recorded
  launch(starts("unrecorded-write"), 0x10, 0xc1);
  SessionFixture::fillPage(device, 1, 4);  // a memset on another stream, not ordered before the launch
  fixture.session->memsetIssued(0x20, device + kPage, kPage, 4, 1);
  launch(starts("other-stream-work"), 0x10, 0xc1);
  fixture.session->profilerStopped();
  fixture.session->profilerStarted();
  launch(starts("capture-stopped"), 0x10, 0xc1);
  for (std::size_t sequence = 0; sequence < expected.size(); ++sequence) {
    const std::string record = fixture.record(static_cast<int>(sequence));
    CHECK(contains(record, expected[sequence]));
  }
  CHECK(contains(fixture.record(3), "\"stream\":\"0x10\",\"context\":\"0xc1\""));
  fixture.session->finish();
  const std::string manifest = readFile(fixture.directory + "/manifest.json");
  CHECK(contains(manifest, "\"sequences\":11,\"sequenceBreaks\":{\"other-stream\":2,\"uncaptured-launch\":1,"
                        "\"host-function\":1,\"cross-stream-wait\":1,\"unbounded-write\":1,\"other-stream-work\":1,"
                        "\"host-write\":1,\"unrecorded-write\":1,\"capture-stopped\":1,\"graph-launch\":0}"));
  CHECK(contains(manifest, "\"launches\":15,\"programWaitSeconds\":"));
  CHECK(contains(manifest, "\"complete\":true"));
}

TEST("capture work: more work on a stream than the capture keeps drops the oldest and breaks the sequence") {
  BetweenLaunchWork work(2);
  for (std::uint64_t i = 0; i < 3; ++i) work.record({WorkKind::Memset, 0, 0x1000 + i, 0, 1, 0, 1});
  const WorkBefore taken = work.takeForLaunch(0);
  CHECK_EQ(taken.work.size(), std::size_t{2});
  CHECK_EQ(taken.work[0].address, std::uint64_t{0x1001});
  CHECK(taken.workLost);
  const SequencePlace place = decideSequence(PreviousLaunch{4, 0, 0}, 0, 0, taken, {}, kPage);
  CHECK(!place.follows.has_value());
  CHECK_EQ(place.sequenceBreak, std::string("unrecorded-write"));
  CHECK(!work.takeForLaunch(0).workLost);  // counting starts anew
}
