// A minimal test harness for the hsa driver's C++ tests: TEST registers a case, CHECK* record a
// failure and stop the case. test-main.cpp runs them and prints one TAP-like line per case, which
// hsa-layout.test.ts turns into vitest cases.
#pragma once

#include <cstdint>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kreplay::hsa::test {

struct TestCase {
  std::string name;
  std::function<void()> run;
};

std::vector<TestCase>& registry();

struct Registration {
  Registration(const char* name, std::function<void()> run) { registry().push_back({name, std::move(run)}); }
};

/** Thrown by a failed check. */
struct CheckFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** Thrown to skip a case (e.g. no ROCm runtime installed). */
struct Skip : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
std::string show(const T& value) {
  std::ostringstream text;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    text << +value << " (0x" << std::hex << +value << ")";
  } else {
    text << value;
  }
  return text.str();
}

[[noreturn]] inline void fail(const char* file, int line, const std::string& message) {
  throw CheckFailure(std::string(file) + ":" + std::to_string(line) + ": " + message);
}

}  // namespace kreplay::hsa::test

#define KREPLAY_JOIN2(a, b) a##b
#define KREPLAY_JOIN(a, b) KREPLAY_JOIN2(a, b)
#define TEST(name)                                                                 \
  static void KREPLAY_JOIN(test_, __LINE__)();                                     \
  static ::kreplay::hsa::test::Registration KREPLAY_JOIN(registration_, __LINE__)( \
      name, KREPLAY_JOIN(test_, __LINE__));                                        \
  static void KREPLAY_JOIN(test_, __LINE__)()

#define CHECK(condition)                                                                      \
  do {                                                                                        \
    if (!(condition)) ::kreplay::hsa::test::fail(__FILE__, __LINE__, "expected " #condition); \
  } while (0)

#define CHECK_EQ(actual, expected)                                                                      \
  do {                                                                                                  \
    const auto actual_ = (actual);                                                                      \
    const auto expected_ = (expected);                                                                  \
    if (!(actual_ == expected_))                                                                        \
      ::kreplay::hsa::test::fail(__FILE__, __LINE__,                                                    \
                                 #actual " is " + ::kreplay::hsa::test::show(actual_) + ", expected " + \
                                     ::kreplay::hsa::test::show(expected_));                            \
  } while (0)

/** Checks that `statement` throws a std::exception whose message contains `fragment`. */
#define CHECK_THROWS(statement, fragment)                                                      \
  do {                                                                                         \
    bool thrown_ = false;                                                                      \
    try {                                                                                      \
      statement;                                                                               \
    } catch (const std::exception& error_) {                                                   \
      thrown_ = true;                                                                          \
      if (std::string(error_.what()).find(fragment) == std::string::npos)                      \
        ::kreplay::hsa::test::fail(                                                            \
            __FILE__, __LINE__,                                                                \
            std::string("the error \"") + error_.what() + "\" lacks \"" + (fragment) + "\"");  \
    }                                                                                          \
    if (!thrown_) ::kreplay::hsa::test::fail(__FILE__, __LINE__, #statement " did not throw"); \
  } while (0)
