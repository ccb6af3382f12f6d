// The HSA runtime behind the driver's plain-C++ logic: an AqlRing over an hsa_queue_t and the
// SignalAccess of hsa_signal_*.
#pragma once

#include "drivers/hsa/aql-submission.hpp"
#include "drivers/hsa/completion-signals.hpp"
#include "drivers/hsa/hsa-runtime.hpp"

namespace kreplay::hsa {

class HsaRing : public AqlRing {
 public:
  HsaRing(const HsaRuntime& runtime, hsa_queue_t* queue) : runtime_(runtime), queue_(queue) {}
  std::uint8_t* slots() override { return static_cast<std::uint8_t*>(queue_->base_address); }
  std::uint32_t size() const override { return queue_->size; }
  std::uint64_t loadReadIndex() override {
    return runtime_.api().hsa_queue_load_read_index_scacquire(queue_);
  }
  std::uint64_t addWriteIndex(std::uint64_t count) override {
    return runtime_.api().hsa_queue_add_write_index_screlease(queue_, count);
  }
  void ringDoorbell(std::uint64_t index) override {
    runtime_.api().hsa_signal_store_screlease(queue_->doorbell_signal,
                                              static_cast<hsa_signal_value_t>(index));
  }

 private:
  const HsaRuntime& runtime_;
  hsa_queue_t* queue_;
};

class HsaSignals : public SignalAccess {
 public:
  HsaSignals(const HsaRuntime& runtime, std::uint64_t timestampFrequency)
      : runtime_(runtime), ticksPerNanosecond_(static_cast<double>(timestampFrequency) / 1e9) {}
  std::uint64_t create(std::int64_t initial) override;
  void destroy(std::uint64_t signal) override { runtime_.api().hsa_signal_destroy({signal}); }
  void store(std::uint64_t signal, std::int64_t value) override {
    runtime_.api().hsa_signal_store_screlease({signal}, value);
  }
  std::int64_t load(std::uint64_t signal) override {
    return runtime_.api().hsa_signal_load_scacquire({signal});
  }
  std::int64_t waitBelow(std::uint64_t signal, std::int64_t below, std::uint64_t timeoutNanoseconds) override;

 private:
  const HsaRuntime& runtime_;
  double ticksPerNanosecond_;
};

}  // namespace kreplay::hsa
