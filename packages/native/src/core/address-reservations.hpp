// Placeholders in the process's address space: ranges mapped PROT_NONE (mmap with
// MAP_FIXED_NOREPLACE) so that nothing else (a driver initializing, malloc, thread stacks) takes
// them before memory is mapped at exactly those addresses (a capture replayed at its own
// addresses). One registry for the process; a part taken out for a mapping can be put back.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace kreplay {

/** What reserving one range found. */
struct ReservationOutcome {
  std::uint64_t start = 0;  // the range as reserved (widened)
  std::uint64_t end = 0;
  bool reserved = false;
  /** When not reserved: why, and the /proc/self/maps lines that hold the range. */
  std::string failure;
  std::vector<std::string> holders;
};

class AddressReservations {
 public:
  /** The registry of the process. */
  static AddressReservations& process();

  /**
   * Reserves [address, address + bytes) widened to `granule` (a power of two) with PROT_NONE
   * placeholders; the parts already reserved here are kept as they are. Nothing is reserved when a
   * part is taken by another mapping.
   */
  ReservationOutcome reserve(std::uint64_t address, std::uint64_t bytes, std::uint64_t granule);
  /**
   * Marks a reserved range as one for device memory: a range a placeholder holds while CUDA
   * initializes is never granted to cuMemAddressReserve afterwards (an H200 with driver 580), so
   * the driver gives up these placeholders just before it starts (releaseForDevice) and reserves the
   * ranges itself right after.
   */
  void markForDevice(std::uint64_t start, std::uint64_t end);
  /** Releases the placeholders of the ranges marked for device memory (call it before cuInit). */
  void releaseForDevice();
  /** The ranges releaseForDevice released, once: for the driver to reserve right after it started. */
  std::vector<std::pair<std::uint64_t, std::uint64_t>> takeReleasedForDevice();
  /**
   * Unmaps the placeholder parts inside [start, end), so that a mapping can be made there.
   * @returns whether all of [start, end) was reserved here.
   */
  bool release(std::uint64_t start, std::uint64_t end);
  /** Maps placeholders again over the released parts inside [start, end) (best effort). */
  void restore(std::uint64_t start, std::uint64_t end);
  /** Whether a placeholder of this registry holds part of [start, end) now. */
  bool holdsAny(std::uint64_t start, std::uint64_t end) const;
  /** Whether all of [start, end) is held by a placeholder of this registry now. */
  bool holds(std::uint64_t start, std::uint64_t end) const;

  /** The lines of /proc/self/maps that overlap [start, end). */
  static std::vector<std::string> mappingsOverlapping(std::uint64_t start, std::uint64_t end);

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::uint64_t> placeholders_;  // start -> end, disjoint, mapped PROT_NONE
  std::map<std::uint64_t, std::uint64_t> released_;      // start -> end: ours, unmapped for a mapping
  std::map<std::uint64_t, std::uint64_t> forDevice_;     // start -> end: to be released when the driver starts
  std::map<std::uint64_t, std::uint64_t> releasedForDevice_;  // start -> end: released, not yet taken by the driver
};

/** The parts of [start, end) that `intervals` (start -> end, disjoint) covers. */
std::vector<std::pair<std::uint64_t, std::uint64_t>> coveredParts(
    const std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start, std::uint64_t end);
/** The parts of [start, end) that `intervals` does not cover. */
std::vector<std::pair<std::uint64_t, std::uint64_t>> uncoveredParts(
    const std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start, std::uint64_t end);
/** Adds [start, end) to `intervals`, merging neighbours. */
void addInterval(std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start, std::uint64_t end);
/** Removes [start, end) from `intervals`, splitting what straddles it. */
void removeInterval(std::map<std::uint64_t, std::uint64_t>& intervals, std::uint64_t start, std::uint64_t end);

}  // namespace kreplay
