// reserveAddresses(ranges: Float64Array [address, bytes, ...], granule): placeholders for memory at
// chosen addresses (core/address-reservations.hpp), made now, on the JavaScript thread, so that
// they are in place before a driver opened afterwards initializes.
#pragma once

#include <napi.h>

namespace kreplay::binding {

/**
 * Returns `{ driverLoaded: { cuda: boolean }, ranges: [{ start, end, reserved, failure, holders }] }`,
 * one entry per range; `driverLoaded.cuda` tells whether libcuda was in the process before.
 */
Napi::Value reserveAddresses(const Napi::CallbackInfo& info);

}  // namespace kreplay::binding
