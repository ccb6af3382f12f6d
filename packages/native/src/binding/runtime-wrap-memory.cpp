// NativeRuntime's memory: device and host allocations, their views, memory at chosen addresses,
// and an agent's reads and writes.
#include "binding/runtime-wrap.hpp"

#include <cstdlib>
#include <vector>

#include "binding/convert.hpp"
#include "binding/operation-outcome.hpp"
#include "binding/promise-worker.hpp"
#include "binding/queue-wrap.hpp"

namespace kreplay::binding {

// memoryInfo(agent) -> { freeBytes, totalBytes }
Napi::Value RuntimeWrap::memoryInfo(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  const MemoryInfo memory = driverCall(info.Env(), [&] { return driver_->memoryInfo(agentOf(info[0])); });
  Napi::Object object = Napi::Object::New(info.Env());
  object.Set("freeBytes", static_cast<double>(memory.freeBytes));
  object.Set("totalBytes", static_cast<double>(memory.totalBytes));
  return object;
}

// allocate(agent, bytes) -> { address, injectedFault, availableBytes }
Napi::Value RuntimeWrap::allocate(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const AllocationResult result =
      driverCall(info.Env(), [&] { return driver_->allocate(agentOf(info[0]), toUint64(info[1])); });
  return allocationResultObject(info.Env(), result);
}

// free(agent, address)
Napi::Value RuntimeWrap::free(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  driverCall(info.Env(), [&] { driver_->free(agentOf(info[0]), toUint64(info[1])); });
  return info.Env().Undefined();
}

// allocateHost(bytes, pinned) -> address (0: out of memory)
Napi::Value RuntimeWrap::allocateHost(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const std::uint64_t bytes = toUint64(info[0]);
  const bool pinned = info[1].ToBoolean();
  const std::uint64_t address = driverCall(info.Env(), [&] { return driver_->allocateHost(bytes, pinned); });
  if (address != 0) {
    externalBytes_ += static_cast<std::int64_t>(bytes);
    Napi::MemoryManagement::AdjustExternalMemory(info.Env(), static_cast<std::int64_t>(bytes));
  }
  return Napi::Number::New(info.Env(), static_cast<double>(address));
}

// freeHost(address, bytes)
Napi::Value RuntimeWrap::freeHost(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  driverCall(info.Env(), [&] { driver_->freeHost(toUint64(info[0])); });
  const auto bytes = static_cast<std::int64_t>(toUint64(info[1]));
  externalBytes_ -= bytes;
  Napi::MemoryManagement::AdjustExternalMemory(info.Env(), -bytes);
  return info.Env().Undefined();
}

// hostView(address, bytes) -> ArrayBuffer over the live bytes; detach it (detachView) before freeing.
// The view keeps the driver alive, so a view that outlives a garbage-collected runtime never dangles.
Napi::Value RuntimeWrap::hostView(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  auto* keepAlive = new std::shared_ptr<Driver>(driver_);
  return Napi::ArrayBuffer::New(
      info.Env(), pointerOf(toUint64(info[0])), static_cast<std::size_t>(toUint64(info[1])),
      [](Napi::Env, void*, std::shared_ptr<Driver>* driver) { delete driver; }, keepAlive);
}

// detachView(view: ArrayBuffer)
Napi::Value RuntimeWrap::detachView(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  if (info[0].IsArrayBuffer()) {
    Napi::ArrayBuffer view = info[0].As<Napi::ArrayBuffer>();
    if (!view.IsDetached()) view.Detach();
  }
  return info.Env().Undefined();
}

// allocateAt(agent, address, bytes) -> Promise<null | { code, message }>: device memory at exactly
// that address (mapping it may take a while, so off the JavaScript thread); freed by free().
Napi::Value RuntimeWrap::allocateAt(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const std::uint32_t agent = agentOf(info[0]);
  const std::uint64_t address = toUint64(info[1]);
  const std::uint64_t bytes = toUint64(info[2]);
  auto driver = driver_;
  return PromiseWorker<Outcome>::start(
      info.Env(), "kreplay:allocate-at",
      [driver, agent, address, bytes] { return outcomeOf([&] { driver->allocateAt(agent, address, bytes); }); },
      [](Napi::Env env, Outcome& outcome) { return outcomeValue(env, outcome); });
}

// allocateHostAt(address, bytes) -> Promise<null | { code, message }>: pinned host memory at exactly
// that address; freed by freeHost().
Napi::Value RuntimeWrap::allocateHostAt(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const std::uint64_t address = toUint64(info[0]);
  const std::uint64_t bytes = toUint64(info[1]);
  auto driver = driver_;
  auto* self = this;
  return PromiseWorker<Outcome>::start(
      info.Env(), "kreplay:allocate-host-at",
      [driver, address, bytes] { return outcomeOf([&] { driver->allocateHostAt(address, bytes); }); },
      [self, bytes](Napi::Env env, Outcome& outcome) {
        if (outcome.code.empty()) {  // freeHost reports the bytes freed, as for allocateHost
          self->externalBytes_ += static_cast<std::int64_t>(bytes);
          Napi::MemoryManagement::AdjustExternalMemory(env, static_cast<std::int64_t>(bytes));
        }
        return outcomeValue(env, outcome);
      });
}

// read(agent, address, bytes) -> Promise<Uint8Array>, after the agent's queued work.
Napi::Value RuntimeWrap::read(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const std::uint32_t agent = agentOf(info[0]);
  const std::uint64_t address = toUint64(info[1]);
  const std::uint64_t bytes = toUint64(info[2]);
  auto driver = driver_;
  auto fence = driver_->agentFence(agent);
  struct Bytes {
    std::uint8_t* data = nullptr;
    std::uint64_t length = 0;
  };
  return PromiseWorker<Bytes>::start(
      info.Env(), "kreplay:agent-read",
      [driver, fence, agent, address, bytes] {
        fence();
        auto* data = static_cast<std::uint8_t*>(std::malloc(bytes > 0 ? bytes : 1));
        if (!data) throw std::bad_alloc();
        driver->read(agent, address, bytes, data);
        return Bytes{data, bytes};
      },
      [](Napi::Env env, Bytes& result) -> Napi::Value {
        auto buffer = Napi::ArrayBuffer::New(env, result.data, result.length,
                                             [](Napi::Env, void* data) { std::free(data); });
        result.data = nullptr;
        return Napi::Uint8Array::New(env, result.length, buffer, 0);
      });
}

// write(agent, address, data: Uint8Array) -> Promise<void>; the bytes are copied now.
Napi::Value RuntimeWrap::write(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  const std::uint32_t agent = agentOf(info[0]);
  const std::uint64_t address = toUint64(info[1]);
  std::size_t length = 0;
  const std::uint8_t* source = typedArrayBytes(info[2], length);
  auto data = std::make_shared<std::vector<std::uint8_t>>(source, source + length);
  auto driver = driver_;
  auto fence = driver_->agentFence(agent);
  return PromiseWorker<Nothing>::start(
      info.Env(), "kreplay:agent-write",
      [driver, fence, agent, address, data] {
        fence();
        driver->write(agent, address, data->data(), data->size());
        return Nothing{};
      },
      resolveUndefined);
}

}  // namespace kreplay::binding
