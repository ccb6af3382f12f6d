// Checks drivers/cuda/cupti-pass-ranges.hpp: how many CUPTI ranges a window's pass records and
// which one holds each dispatch (a flush kernel between dispatches is a range of its own), and the
// user ranges' names (one name for a single dispatch, one per dispatch in a range).
// Built and run by src/drivers/cuda/cupti-pass-ranges.test.ts; prints what failed and exits 1.
#include <string>

#include "drivers/cuda/cupti-pass-ranges.hpp"
#include "expect.hpp"

using kreplay::cuda::PassRanges;
using kreplay::test::expect;

int main() {
  PassRanges ranges;
  ranges.open(1, true);
  expect(ranges.dispatches() == 1 && ranges.perPass() == 1 && ranges.of(0) == 0, "one dispatch: one range, whatever flushes");
  expect(std::string(ranges.name(0)) == "kreplay-dispatch", "one dispatch: the plain name");
  ranges.open(0, false);
  expect(ranges.dispatches() == 1 && ranges.perPass() == 1, "no dispatches counts as one");

  ranges.open(4, true);
  expect(ranges.perPass() == 7, "four dispatches with flush kernels between them: seven ranges");
  expect(ranges.of(0) == 0 && ranges.of(1) == 2 && ranges.of(3) == 6, "each dispatch's range skips the flushes'");
  ranges.open(4, false);
  expect(ranges.perPass() == 4 && ranges.of(3) == 3, "four dispatches with no flush kernel between them: four ranges");
  expect(std::string(ranges.name(0)) == "kreplay-dispatch-0" && std::string(ranges.name(3)) == "kreplay-dispatch-3",
         "each dispatch of a range has a name of its own");
  ranges.open(2, false);
  expect(std::string(ranges.name(1)) == "kreplay-dispatch-1", "a shorter window keeps the names");
  return kreplay::test::exitStatus();
}
