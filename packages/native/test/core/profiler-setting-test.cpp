// Checks drivers/cuda/profiler-setting.hpp, the readers of the profiler's experiment settings: a
// named choice (unset or empty gives the fallback, each name its value, any other value an error
// listing the names) and a whole number (the fallback, a value, a refused value).
// Built and run by src/drivers/cuda/profiler-setting.test.ts; prints what failed and exits 1.
#include <cstdlib>
#include <string>

#include "drivers/cuda/profiler-setting.hpp"
#include "expect.hpp"

using kreplay::OperationFailure;
using kreplay::cuda::profilerChoice;
using kreplay::cuda::profilerSetting;
using kreplay::test::expect;

namespace {

enum class Flush { None, Read, Copy };
constexpr const char* kName = "KREPLAY_TEST_PROFILER_SETTING";

Flush flush() { return profilerChoice(kName, Flush::Read, {{"on", Flush::Read}, {"off", Flush::None}, {"copy", Flush::Copy}}); }

/** The message of what `read` throws, or "" when it throws nothing. */
template <typename Read>
std::string refusal(Read read) {
  try {
    read();
  } catch (const OperationFailure& failure) {
    return std::string(failure.code()) + ": " + failure.what();
  }
  return "";
}

}  // namespace

int main() {
  unsetenv(kName);
  expect(flush() == Flush::Read, "unset gives the fallback");
  setenv(kName, "", 1);
  expect(flush() == Flush::Read, "empty gives the fallback");
  setenv(kName, "off", 1);
  expect(flush() == Flush::None, "off");
  setenv(kName, "copy", 1);
  expect(flush() == Flush::Copy, "copy");
  setenv(kName, "Copy", 1);
  expect(refusal(flush) == "invalid-argument: KREPLAY_TEST_PROFILER_SETTING=Copy is not on, off or copy",
         "another value is refused, naming every choice");
  setenv(kName, "x", 1);
  expect(refusal([] { return profilerChoice(kName, true, {{"off", false}, {"evict", true}}); }) ==
             "invalid-argument: KREPLAY_TEST_PROFILER_SETTING=x is not off or evict",
         "two choices are listed with or");

  const auto number = [] { return profilerSetting(kName, 7, [](std::uint64_t value) { return value <= 100; }, "not at most 100"); };
  unsetenv(kName);
  expect(number() == 7, "an unset number gives the fallback");
  setenv(kName, "42", 1);
  expect(number() == 42, "a number");
  setenv(kName, "101", 1);
  expect(refusal(number) == "invalid-argument: KREPLAY_TEST_PROFILER_SETTING=101 is not at most 100", "a refused number");
  setenv(kName, "4x", 1);
  expect(refusal(number) == "invalid-argument: KREPLAY_TEST_PROFILER_SETTING=4x is not at most 100", "not a number");
  return kreplay::test::exitStatus();
}
