// The profiler's experiment settings, read from the environment: whole numbers and named choices.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

#include "core/types.hpp"

namespace kreplay::cuda {

/**
 * The whole number in environment variable `name`, or `fallback` when it is unset or empty.
 * @throws OperationFailure `invalid-argument` "<name>=<value> is <expected>" when it is not a whole
 * number or `valid` refuses it.
 */
template <typename Valid>
std::uint64_t profilerSetting(const char* name, std::uint64_t fallback, Valid valid, const char* expected) {
  const char* setting = std::getenv(name);
  if (setting == nullptr || *setting == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(setting, &end, 10);
  if (*end != '\0' || !valid(static_cast<std::uint64_t>(value))) {
    throw OperationFailure("invalid-argument", std::string(name) + "=" + setting + " is " + expected);
  }
  return value;
}

/**
 * The choice that environment variable `name` names among `choices` (name and value, in the order
 * the error lists them), or `fallback` when it is unset or empty.
 * @throws OperationFailure `invalid-argument` "<name>=<value> is not <a>, <b> or <c>" for any other value.
 */
template <typename Choice>
Choice profilerChoice(const char* name, Choice fallback, std::initializer_list<std::pair<const char*, Choice>> choices) {
  const char* setting = std::getenv(name);
  if (setting == nullptr || *setting == '\0') return fallback;
  std::string listed;
  std::size_t index = 0;
  for (const auto& [choice, value] : choices) {
    if (std::strcmp(setting, choice) == 0) return value;
    listed += (index == 0 ? "" : index + 1 == choices.size() ? " or " : ", ") + std::string(choice);
    index += 1;
  }
  throw OperationFailure("invalid-argument", std::string(name) + "=" + setting + " is not " + listed);
}

}  // namespace kreplay::cuda
