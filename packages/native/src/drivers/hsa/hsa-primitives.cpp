#include "drivers/hsa/hsa-primitives.hpp"

namespace kreplay::hsa {

std::uint64_t HsaSignals::create(std::int64_t initial) {
  hsa_signal_t signal{0};
  check(runtime_, runtime_.api().hsa_signal_create(initial, 0, nullptr, &signal), "hsa_signal_create");
  return signal.handle;
}

std::int64_t HsaSignals::waitBelow(std::uint64_t signal, std::int64_t below,
                                   std::uint64_t timeoutNanoseconds) {
  const auto ticks =
      static_cast<std::uint64_t>(static_cast<double>(timeoutNanoseconds) * ticksPerNanosecond_) + 1;
  return runtime_.api().hsa_signal_wait_scacquire({signal}, HSA_SIGNAL_CONDITION_LT, below, ticks,
                                                  HSA_WAIT_STATE_BLOCKED);
}

}  // namespace kreplay::hsa
