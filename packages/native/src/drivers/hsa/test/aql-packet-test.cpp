// AQL packet encoding against the byte layout of the HSA specification (System Architecture 1.2,
// 2.9.6 kernel dispatch packet, 2.9.7 barrier-AND packet).
#include <cstring>

#include "drivers/hsa/aql-packet.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;

namespace {

template <class T>
T at(const PacketBytes& packet, std::size_t offset) {
  T value;
  std::memcpy(&value, packet.data() + offset, sizeof value);
  return value;
}

}  // namespace

TEST("aql: header bits are type 0-7, barrier 8, acquire scope 9-10, release scope 11-12") {
  CHECK_EQ(packetHeader(PacketType::KernelDispatch, {true, FenceScope::System, FenceScope::System}), 0x1502);
  CHECK_EQ(packetHeader(PacketType::KernelDispatch, {false, FenceScope::Agent, FenceScope::Agent}), 0x0A02);
  CHECK_EQ(packetHeader(PacketType::BarrierAnd, {true, FenceScope::None, FenceScope::System}), 0x1103);
  CHECK_EQ(packetHeader(PacketType::KernelDispatch, {false, FenceScope::None, FenceScope::None}), 0x0002);
  CHECK_EQ(invalidPacketHeader(), 0x0001);
}

TEST("aql: a kernel dispatch packet puts every field at its spec offset") {
  KernelDispatch dispatch;
  dispatch.control = {true, FenceScope::System, FenceScope::Agent};
  dispatch.dimensions = 2;
  dispatch.workgroupSize = {256, 4, 1};
  dispatch.gridSize = {65536, 8, 1};
  dispatch.privateSegmentBytes = 48;
  dispatch.groupSegmentBytes = 2048;
  dispatch.kernelObject = 0x7f00'1234'5000;
  dispatch.kernargAddress = 0x7f00'aaaa'0040;
  dispatch.completionSignal = 0x5555'0000'0080;
  const PacketBytes packet = encodeKernelDispatch(dispatch);
  CHECK_EQ(packet.size(), 64u);
  CHECK_EQ(at<std::uint16_t>(packet, 0), 0x0D02);  // type 2 | barrier | acquire system | release agent
  CHECK_EQ(at<std::uint16_t>(packet, 2), 2);       // setup: dimensions in bits 0-1
  CHECK_EQ(at<std::uint16_t>(packet, 4), 256);
  CHECK_EQ(at<std::uint16_t>(packet, 6), 4);
  CHECK_EQ(at<std::uint16_t>(packet, 8), 1);
  CHECK_EQ(at<std::uint16_t>(packet, 10), 0);  // reserved
  CHECK_EQ(at<std::uint32_t>(packet, 12), 65536u);
  CHECK_EQ(at<std::uint32_t>(packet, 16), 8u);
  CHECK_EQ(at<std::uint32_t>(packet, 20), 1u);
  CHECK_EQ(at<std::uint32_t>(packet, 24), 48u);
  CHECK_EQ(at<std::uint32_t>(packet, 28), 2048u);
  CHECK_EQ(at<std::uint64_t>(packet, 32), 0x7f00'1234'5000ull);
  CHECK_EQ(at<std::uint64_t>(packet, 40), 0x7f00'aaaa'0040ull);
  CHECK_EQ(at<std::uint64_t>(packet, 48), 0ull);  // reserved
  CHECK_EQ(at<std::uint64_t>(packet, 56), 0x5555'0000'0080ull);
  CHECK_EQ(firstWord(packet), 0x0002'0D02u);
}

TEST("aql: the bytes of a one-dimensional dispatch, literally") {
  KernelDispatch dispatch;
  dispatch.workgroupSize = {256, 1, 1};
  dispatch.gridSize = {1024, 1, 1};
  dispatch.groupSegmentBytes = 0x800;
  dispatch.kernelObject = 0x1122334455667788;
  dispatch.kernargAddress = 0x0000'7000'0000'1000;
  dispatch.completionSignal = 0xAB;
  const PacketBytes expected{0x02, 0x15, 0x01, 0x00, 0x00, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
                             0x04, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22,
                             0x11, 0x00, 0x10, 0x00, 0x00, 0x00, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00, 0xAB, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  CHECK(encodeKernelDispatch(dispatch) == expected);
}

TEST("aql: invalid dispatch geometry is refused") {
  KernelDispatch dispatch;
  dispatch.dimensions = 0;
  CHECK_THROWS(encodeKernelDispatch(dispatch), "1 to 3 dimensions");
  dispatch.dimensions = 1;
  dispatch.workgroupSize = {256, 1, 1};
  dispatch.gridSize = {128, 1, 1};
  CHECK_THROWS(encodeKernelDispatch(dispatch), "smaller than its work-group");
  dispatch.gridSize = {256, 2, 1};
  dispatch.workgroupSize = {256, 1, 1};
  CHECK_THROWS(encodeKernelDispatch(dispatch), "unused dispatch dimension");
  dispatch.gridSize = {0, 1, 1};
  CHECK_THROWS(encodeKernelDispatch(dispatch), "positive");
}

TEST("aql: a barrier-AND packet has five dependency signals at 8-47 and its completion signal at 56") {
  BarrierAnd barrier;
  barrier.control = {true, FenceScope::System, FenceScope::System};
  barrier.dependencies = {0x10, 0, 0x30, 0, 0x50};
  barrier.completionSignal = 0x99;
  const PacketBytes packet = encodeBarrierAnd(barrier);
  CHECK_EQ(at<std::uint16_t>(packet, 0), 0x1503);
  CHECK_EQ(at<std::uint16_t>(packet, 2), 0);
  CHECK_EQ(at<std::uint32_t>(packet, 4), 0u);
  CHECK_EQ(at<std::uint64_t>(packet, 8), 0x10ull);
  CHECK_EQ(at<std::uint64_t>(packet, 16), 0ull);
  CHECK_EQ(at<std::uint64_t>(packet, 24), 0x30ull);
  CHECK_EQ(at<std::uint64_t>(packet, 40), 0x50ull);
  CHECK_EQ(at<std::uint64_t>(packet, 48), 0ull);
  CHECK_EQ(at<std::uint64_t>(packet, 56), 0x99ull);
}
