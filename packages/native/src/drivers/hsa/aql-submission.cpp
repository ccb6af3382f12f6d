#include "drivers/hsa/aql-submission.hpp"

#include <cstring>

namespace kreplay::hsa {

std::uint64_t submitPacket(AqlRing& ring, const PacketBytes& packet, const std::function<void()>& whileFull) {
  const std::uint64_t index = ring.addWriteIndex(1);
  while (index - ring.loadReadIndex() >= ring.size()) {
    if (whileFull) whileFull();
  }
  std::uint8_t* slot = ring.slots() + 64 * (index & (ring.size() - 1));
  std::memcpy(slot + 4, packet.data() + 4, packet.size() - 4);
  __atomic_store_n(reinterpret_cast<std::uint32_t*>(slot), firstWord(packet), __ATOMIC_RELEASE);
  ring.ringDoorbell(index);
  return index;
}

}  // namespace kreplay::hsa
