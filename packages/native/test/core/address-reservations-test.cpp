// Checks core/address-reservations.cpp on this machine's own address space: the interval helpers,
// reserving (widened to the granule, kept on a second call), a range something else holds (with
// the /proc/self/maps line that holds it), release and restore around a mapping made there, and
// ranges marked for device memory, released before the driver starts.
// Built and run by src/core/address-reservations.test.ts; prints what failed and exits 1.
#include <sys/mman.h>

#include <cstring>
#include <string>

#include "core/address-reservations.hpp"
#include "expect.hpp"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

using kreplay::AddressReservations;
using kreplay::test::expect;

namespace {

/** What /proc/self/maps says of [start, end): one line, or "". */
std::string mapping(std::uint64_t start, std::uint64_t end) {
  const auto lines = AddressReservations::mappingsOverlapping(start, end);
  return lines.size() == 1 ? lines[0] : "";
}

}  // namespace

int main() {
  std::map<std::uint64_t, std::uint64_t> intervals;
  kreplay::addInterval(intervals, 10, 20);
  kreplay::addInterval(intervals, 30, 40);
  kreplay::addInterval(intervals, 20, 25);
  expect(intervals.size() == 2 && intervals[10] == 25 && intervals[30] == 40, "addInterval merges touching intervals");
  const auto covered = kreplay::coveredParts(intervals, 15, 35);
  expect(covered.size() == 2 && covered[0] == std::make_pair<std::uint64_t, std::uint64_t>(15, 25) &&
             covered[1] == std::make_pair<std::uint64_t, std::uint64_t>(30, 35),
         "coveredParts clips to the range");
  const auto gaps = kreplay::uncoveredParts(intervals, 0, 50);
  expect(gaps.size() == 3 && gaps[0].second == 10 && gaps[1].first == 25 && gaps[2].first == 40, "uncoveredParts lists the gaps");
  kreplay::removeInterval(intervals, 12, 32);
  expect(intervals.size() == 2 && intervals[10] == 12 && intervals[32] == 40, "removeInterval splits what straddles it");

  AddressReservations reservations;
  const std::uint64_t granule = 2u << 20;
  const std::uint64_t base = 0x3d0000000000ull;
  const auto first = reservations.reserve(base + 4096, 3 * granule, granule);
  expect(first.reserved, "a free range is reserved");
  expect(first.start == base && first.end == base + 4 * granule, "the range is widened to whole granules");
  expect(mapping(base, base + 4 * granule).find("---p") != std::string::npos, "the placeholder is PROT_NONE");
  expect(reservations.reserve(base, granule, granule).reserved, "a range reserved here already is kept");
  expect(reservations.holds(base, base + 4 * granule), "the registry holds the whole range");

  // Something else's mapping in a range: refused, naming it, and nothing of the range kept.
  const std::uint64_t other = base + 64 * granule;
  void* taken = mmap(reinterpret_cast<void*>(other + granule), 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  expect(taken == reinterpret_cast<void*>(other + granule), "the test's own mapping is made");
  const auto refused = reservations.reserve(other, 3 * granule, granule);
  expect(!refused.reserved, "a range another mapping holds is refused");
  expect(refused.holders.size() == 1 && refused.holders[0].find(" r--p ") != std::string::npos, "the holder's maps line is named");
  expect(!refused.failure.empty(), "the refusal says why");
  expect(AddressReservations::mappingsOverlapping(other, other + granule).empty(), "nothing of a refused range stays reserved");

  // Release for a mapping, map something there, then put the placeholder back.
  expect(reservations.release(base + granule, base + 2 * granule), "releasing a reserved part reports it was ours");
  expect(!reservations.holds(base + granule, base + 2 * granule), "a released part is no longer held");
  void* placed = mmap(reinterpret_cast<void*>(base + granule), granule, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  expect(placed == reinterpret_cast<void*>(base + granule), "a mapping can be made exactly where the part was released");
  expect(reservations.reserve(base, 4 * granule, granule).reserved, "a released part still counts as ours when reserving again");
  munmap(placed, granule);
  reservations.restore(base + granule, base + 2 * granule);
  expect(reservations.holds(base, base + 4 * granule), "restore puts the placeholder back");
  expect(!reservations.release(base + 8 * granule, base + 9 * granule), "releasing a range never reserved reports it was not ours");

  // A range for device memory: its placeholder goes when the driver is about to start, once, and
  // the driver takes the range over; a placeholder beside it stays.
  const std::uint64_t device = base + 128 * granule;
  const auto forDevice = reservations.reserve(device, granule + 1, granule);
  expect(forDevice.reserved, "a range for device memory is reserved like any other");
  reservations.markForDevice(forDevice.start, forDevice.end);
  expect(reservations.holds(device, device + 2 * granule), "a range marked for device memory keeps its placeholder until the driver starts");
  reservations.releaseForDevice();
  expect(AddressReservations::mappingsOverlapping(device, device + 2 * granule).empty(), "releaseForDevice unmaps the placeholder");
  expect(reservations.holds(base, base + 4 * granule), "ranges not marked for device memory keep theirs");
  expect(reservations.holdsAny(base + 3 * granule, device), "holdsAny sees a placeholder in part of a range");
  expect(!reservations.holdsAny(device, device + 2 * granule), "holdsAny sees none where it was released");
  const auto released = reservations.takeReleasedForDevice();
  expect(released.size() == 1 && released[0].first == device && released[0].second == device + 2 * granule, "the driver takes the released range");
  expect(reservations.takeReleasedForDevice().empty(), "and takes it once");
  reservations.releaseForDevice();
  expect(reservations.takeReleasedForDevice().empty(), "a second release finds nothing marked");
  return kreplay::test::exitStatus();
}
