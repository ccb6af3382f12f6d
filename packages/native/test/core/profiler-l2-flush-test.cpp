// Checks drivers/cuda/profiler-l2-flush.hpp: which L2 flush KREPLAY_PROFILER_L2_FLUSH picks (unset,
// `on` and `write-discard` the write-and-drop flush that leaves the L2 empty, `read` the read of the
// buffer, `off` none) and that any other value is refused with every name it takes.
// Built and run by src/drivers/cuda/profiler-l2-flush.test.ts; prints what failed and exits 1.
#include <cstdlib>
#include <string>

#include "drivers/cuda/profiler-l2-flush.hpp"
#include "expect.hpp"

using kreplay::OperationFailure;
using kreplay::cuda::L2Flush;
using kreplay::cuda::l2FlushBeforeEachPass;
using kreplay::test::expect;

namespace {

constexpr const char* kName = "KREPLAY_PROFILER_L2_FLUSH";

L2Flush flushWith(const char* value) {
  setenv(kName, value, 1);
  return l2FlushBeforeEachPass();
}

}  // namespace

int main() {
  unsetenv(kName);
  expect(l2FlushBeforeEachPass() == L2Flush::WriteDiscard, "unset: write and drop, the L2 left empty");
  expect(flushWith("") == L2Flush::WriteDiscard, "empty: the default");
  expect(flushWith("on") == L2Flush::WriteDiscard, "on: the default");
  expect(flushWith("write-discard") == L2Flush::WriteDiscard, "write-discard");
  expect(flushWith("read") == L2Flush::Read, "read: the buffer read, the L2 left full of clean lines");
  expect(flushWith("write") == L2Flush::WriteDiscardRead, "write: written, dropped and read");
  expect(flushWith("off") == L2Flush::None, "off: no flush");
  std::string refused;
  try {
    flushWith("twice");
  } catch (const OperationFailure& failure) {
    refused = std::string(failure.code()) + ": " + failure.what();
  }
  expect(refused ==
             "invalid-argument: KREPLAY_PROFILER_L2_FLUSH=twice is not on, write-discard, read, off, evict-last, "
             "copy, discard or write",
         "another value is refused, naming every choice");
  return kreplay::test::exitStatus();
}
