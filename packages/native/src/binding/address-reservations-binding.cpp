#include "binding/address-reservations-binding.hpp"

#include "binding/convert.hpp"
#include "core/address-reservations.hpp"
#include "drivers/cuda/cuda-api.hpp"

namespace kreplay::binding {

Napi::Value reserveAddresses(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const Napi::Env env = info.Env();
  const std::vector<Range> ranges = toRanges(info[0]);
  const std::uint64_t granule = toUint64(info[1]);
  // Optional: one byte per range, nonzero for a range of device memory.
  const bool flagged = info.Length() > 2 && info[2].IsTypedArray();
  const Napi::Uint8Array device = flagged ? info[2].As<Napi::Uint8Array>() : Napi::Uint8Array();
  const bool cudaLoaded = cuda::cudaLibraryLoaded();
  Napi::Array outcomes = Napi::Array::New(env, ranges.size());
  for (std::size_t index = 0; index < ranges.size(); ++index) {
    const ReservationOutcome outcome =
        AddressReservations::process().reserve(ranges[index].address, ranges[index].bytes, granule);
    if (outcome.reserved && flagged && index < device.ElementLength() && device[index] != 0) {
      AddressReservations::process().markForDevice(outcome.start, outcome.end);
    }
    Napi::Object object = Napi::Object::New(env);
    object.Set("start", static_cast<double>(outcome.start));
    object.Set("end", static_cast<double>(outcome.end));
    object.Set("reserved", outcome.reserved);
    object.Set("failure", outcome.failure);
    Napi::Array holders = Napi::Array::New(env, outcome.holders.size());
    for (std::size_t line = 0; line < outcome.holders.size(); ++line) {
      holders.Set(static_cast<std::uint32_t>(line), outcome.holders[line]);
    }
    object.Set("holders", holders);
    outcomes.Set(static_cast<std::uint32_t>(index), object);
  }
  Napi::Object loaded = Napi::Object::New(env);
  loaded.Set("cuda", cudaLoaded);
  Napi::Object result = Napi::Object::New(env);
  result.Set("driverLoaded", loaded);
  result.Set("ranges", outcomes);
  return result;
}

}  // namespace kreplay::binding
