// The checks of the C++ test programs beside it: each failed expectation is printed and counted, and
// main returns exitStatus() (1 when any failed), which src/addon/cpp-test-program.ts reads.
#pragma once

#include <cstdio>

namespace kreplay::test {

inline int failures = 0;

/** Prints "FAILED: <what>" and counts it when `condition` is false. */
inline void expect(bool condition, const char* what) {
  if (condition) return;
  std::printf("FAILED: %s\n", what);
  ++failures;
}

/** 0 when every expectation held, else 1. */
inline int exitStatus() { return failures == 0 ? 0 : 1; }

}  // namespace kreplay::test
