// AQL packets (HSA Platform System Architecture 1.2, section 2.9) encoded as the 64 bytes a packet
// processor reads: kernel dispatch and barrier-AND packets. Plain C++: no HSA call.
#pragma once

#include <array>
#include <cstdint>

namespace kreplay::hsa {

using PacketBytes = std::array<std::uint8_t, 64>;

enum class PacketType : std::uint8_t { VendorSpecific = 0, Invalid = 1, KernelDispatch = 2, BarrierAnd = 3 };
enum class FenceScope : std::uint8_t { None = 0, Agent = 1, System = 2 };

/** What a packet header says besides the type. */
struct PacketControl {
  /** The packet processor starts this packet only once every earlier packet of the queue completed. */
  bool barrier = true;
  FenceScope acquire = FenceScope::System;
  FenceScope release = FenceScope::System;
};

/** The 16-bit header: type in bits 0-7, barrier bit 8, acquire scope 9-10, release scope 11-12. */
std::uint16_t packetHeader(PacketType type, const PacketControl& control);

struct KernelDispatch {
  PacketControl control;
  std::uint16_t dimensions = 1;  // 1 to 3, stored in the setup field's bits 0-1
  std::array<std::uint16_t, 3> workgroupSize{1, 1, 1};
  std::array<std::uint32_t, 3> gridSize{1, 1, 1};  // in work-items
  std::uint32_t privateSegmentBytes = 0;           // per work-item
  std::uint32_t groupSegmentBytes = 0;             // per work-group
  std::uint64_t kernelObject = 0;                  // the kernel descriptor's address
  std::uint64_t kernargAddress = 0;
  std::uint64_t completionSignal = 0;  // a signal handle, 0 for none
};

struct BarrierAnd {
  PacketControl control;
  std::array<std::uint64_t, 5> dependencies{};  // signal handles; 0 counts as satisfied
  std::uint64_t completionSignal = 0;
};

/**
 * The packet's 64 bytes. Bytes 0-3 (header and setup) are what a producer stores last, atomically
 * with release order, to hand the packet to the packet processor (see firstWord).
 * @throws std::invalid_argument when the dimensions are not 1-3, a size is 0, a grid is smaller
 * than its work-group, or an unused dimension is not 1.
 */
PacketBytes encodeKernelDispatch(const KernelDispatch& dispatch);
PacketBytes encodeBarrierAnd(const BarrierAnd& barrier);

/** Bytes 0-3 of a packet as one little-endian uint32 (header | setup << 16). */
std::uint32_t firstWord(const PacketBytes& packet);

/** The header of a slot the packet processor has consumed or never used: type INVALID. */
std::uint16_t invalidPacketHeader();

}  // namespace kreplay::hsa
