#include "drivers/hsa/aql-packet.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "drivers/hsa/hsa-api.hpp"

namespace kreplay::hsa {

namespace {

template <class T>
void put(PacketBytes& packet, std::size_t offset, T value) {
  std::memcpy(packet.data() + offset, &value, sizeof value);
}

void validate(const KernelDispatch& dispatch) {
  if (dispatch.dimensions < 1 || dispatch.dimensions > 3)
    throw std::invalid_argument("a kernel dispatch has 1 to 3 dimensions, not " +
                                std::to_string(dispatch.dimensions));
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const auto group = dispatch.workgroupSize[axis];
    const auto grid = dispatch.gridSize[axis];
    if (group == 0 || grid == 0) throw std::invalid_argument("work-group and grid sizes must be positive");
    if (grid < group) throw std::invalid_argument("a grid dimension is smaller than its work-group");
    if (axis >= dispatch.dimensions && (group != 1 || grid != 1))
      throw std::invalid_argument("an unused dispatch dimension must have size 1");
  }
}

}  // namespace

std::uint16_t packetHeader(PacketType type, const PacketControl& control) {
  return static_cast<std::uint16_t>(
      (static_cast<unsigned>(type) << HSA_PACKET_HEADER_TYPE) |
      (static_cast<unsigned>(control.barrier) << HSA_PACKET_HEADER_BARRIER) |
      (static_cast<unsigned>(control.acquire) << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
      (static_cast<unsigned>(control.release) << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

std::uint16_t invalidPacketHeader() {
  return packetHeader(PacketType::Invalid, {false, FenceScope::None, FenceScope::None});
}

PacketBytes encodeKernelDispatch(const KernelDispatch& dispatch) {
  validate(dispatch);
  PacketBytes packet{};
  put<std::uint16_t>(packet, offsetof(hsa_kernel_dispatch_packet_t, header),
                     packetHeader(PacketType::KernelDispatch, dispatch.control));
  put<std::uint16_t>(
      packet, offsetof(hsa_kernel_dispatch_packet_t, setup),
      static_cast<std::uint16_t>(dispatch.dimensions << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS));
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, workgroup_size_x), dispatch.workgroupSize[0]);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, workgroup_size_y), dispatch.workgroupSize[1]);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, workgroup_size_z), dispatch.workgroupSize[2]);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, grid_size_x), dispatch.gridSize[0]);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, grid_size_y), dispatch.gridSize[1]);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, grid_size_z), dispatch.gridSize[2]);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, private_segment_size), dispatch.privateSegmentBytes);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, group_segment_size), dispatch.groupSegmentBytes);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, kernel_object), dispatch.kernelObject);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, kernarg_address), dispatch.kernargAddress);
  put(packet, offsetof(hsa_kernel_dispatch_packet_t, completion_signal), dispatch.completionSignal);
  return packet;
}

PacketBytes encodeBarrierAnd(const BarrierAnd& barrier) {
  PacketBytes packet{};
  put<std::uint16_t>(packet, offsetof(hsa_barrier_and_packet_t, header),
                     packetHeader(PacketType::BarrierAnd, barrier.control));
  for (std::size_t index = 0; index < barrier.dependencies.size(); ++index)
    put(packet, offsetof(hsa_barrier_and_packet_t, dep_signal) + 8 * index, barrier.dependencies[index]);
  put(packet, offsetof(hsa_barrier_and_packet_t, completion_signal), barrier.completionSignal);
  return packet;
}

std::uint32_t firstWord(const PacketBytes& packet) {
  std::uint32_t word;
  std::memcpy(&word, packet.data(), sizeof word);
  return word;
}

}  // namespace kreplay::hsa
