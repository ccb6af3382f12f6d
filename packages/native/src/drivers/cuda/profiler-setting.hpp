// The profiler's numeric experiment settings, read from the environment.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

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

}  // namespace kreplay::cuda
