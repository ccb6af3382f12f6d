// How a producer hands AQL packets to a user-mode queue (HSA Runtime 1.2, section 2.8.5), on any
// ring in memory: the driver wraps an hsa_queue_t, the tests a fake queue. Plain C++.
#pragma once

#include <cstdint>
#include <functional>

#include "drivers/hsa/aql-packet.hpp"

namespace kreplay::hsa {

/** What submission needs from a queue. */
class AqlRing {
 public:
  virtual ~AqlRing() = default;
  /** The ring: size() slots of 64 bytes. */
  virtual std::uint8_t* slots() = 0;
  /** Slots in the ring, a power of two. */
  virtual std::uint32_t size() const = 0;
  /** The packet processor's read index (acquire). */
  virtual std::uint64_t loadReadIndex() = 0;
  /** Adds `count` to the write index (release) and returns the previous value. */
  virtual std::uint64_t addWriteIndex(std::uint64_t count) = 0;
  /** Tells the packet processor that packets up to `index` are ready (doorbell store, release). */
  virtual void ringDoorbell(std::uint64_t index) = 0;
};

/**
 * Submits one packet: reserves slot index = write index (incremented), waits while the ring is full
 * (index - read index >= size; `whileFull` runs between checks), writes bytes 4-63 into slot
 * index % size, publishes bytes 0-3 (header and setup) with one release store so the packet
 * processor never sees a half-written packet, and rings the doorbell with the index.
 * Returns the packet's index.
 */
std::uint64_t submitPacket(AqlRing& ring, const PacketBytes& packet, const std::function<void()>& whileFull);

}  // namespace kreplay::hsa
