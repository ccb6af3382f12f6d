// Conversions from the packed arguments TypeScript sends (validated there) to core types.
#pragma once

#include <napi.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace kreplay::binding {

/** A whole number sent as a JavaScript number (TypeScript checked it is a safe non-negative integer). */
std::uint64_t toUint64(const Napi::Value& value);

/** `[source, destination, bytes, ...]` from a Float64Array. */
std::vector<Segment> toSegments(const Napi::Value& value);

/** `[address, bytes, ...]` from a Float64Array. */
std::vector<Range> toRanges(const Napi::Value& value);

/** The words of a BigUint64Array. */
std::vector<std::uint64_t> toWords(const Napi::Value& value);

/** The bytes behind a typed array, for the duration of the call. */
std::uint8_t* typedArrayBytes(const Napi::Value& value, std::size_t& byteLength);

/** Throws a TypeError unless `info` has `count` arguments. */
void requireArguments(const Napi::CallbackInfo& info, std::size_t count);

/**
 * Runs `body` (a synchronous call into a driver); a C++ exception from the driver (e.g. a CUDA call
 * that failed) becomes a JavaScript Error instead of ending the process.
 */
template <typename Body>
auto driverCall(Napi::Env env, Body body) -> decltype(body()) {
  try {
    return body();
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& error) {
    throw Napi::Error::New(env, std::string("[native] [driver] ") + error.what());
  }
}

}  // namespace kreplay::binding
