// What a native call that can fail for a reason of its own resolves to in JavaScript: null, or
// { code, message }; and an agent number from a JavaScript value. Shared by NativeRuntime's files.
#pragma once

#include <napi.h>

#include <cstdint>
#include <exception>
#include <string>

#include "binding/convert.hpp"
#include "core/driver.hpp"

namespace kreplay::binding {

inline std::uint32_t agentOf(const Napi::Value& value) {
  return static_cast<std::uint32_t>(toUint64(value));
}

/** What a call that can fail for a reason of its own resolves to: null, or { code, message }. */
struct Outcome {
  std::string code;
  std::string message;
};

template <typename Body>
Outcome outcomeOf(Body body) {
  try {
    body();
    return {};
  } catch (const OperationFailure& failure) {
    return {failure.code(), failure.what()};
  } catch (const std::exception& error) {
    return {"internal", error.what()};
  }
}

inline Napi::Value outcomeValue(Napi::Env env, const Outcome& outcome) {
  if (outcome.code.empty()) return env.Null();
  Napi::Object failure = Napi::Object::New(env);
  failure.Set("code", outcome.code);
  failure.Set("message", outcome.message);
  return failure;
}

}  // namespace kreplay::binding
