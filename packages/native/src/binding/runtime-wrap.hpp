// NativeRuntime: the native side of Runtime, Agent, DeviceAllocation and HostBuffer. Its methods are
// defined by concept: runtime-wrap.cpp (the runtime, queues, faults), runtime-wrap-memory.cpp,
// runtime-wrap-kernels.cpp and runtime-wrap-cupti.cpp (checkpoints and the profiler).
#pragma once

#include <napi.h>

#include <memory>

#include "binding/completion-channel.hpp"
#include "core/driver.hpp"

namespace kreplay::binding {

class RuntimeWrap : public Napi::ObjectWrap<RuntimeWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  static Napi::Object wrap(Napi::Env env, const std::shared_ptr<Driver>& driver);

  explicit RuntimeWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value describe(const Napi::CallbackInfo& info);
  Napi::Value allocate(const Napi::CallbackInfo& info);
  Napi::Value memoryInfo(const Napi::CallbackInfo& info);
  Napi::Value free(const Napi::CallbackInfo& info);
  Napi::Value allocateHost(const Napi::CallbackInfo& info);
  Napi::Value freeHost(const Napi::CallbackInfo& info);
  Napi::Value hostView(const Napi::CallbackInfo& info);
  Napi::Value detachView(const Napi::CallbackInfo& info);
  Napi::Value injectFault(const Napi::CallbackInfo& info);
  Napi::Value clearFaults(const Napi::CallbackInfo& info);
  Napi::Value createQueue(const Napi::CallbackInfo& info);
  Napi::Value createGraph(const Napi::CallbackInfo& info);
  Napi::Value loadKernel(const Napi::CallbackInfo& info);
  Napi::Value allocateAt(const Napi::CallbackInfo& info);
  Napi::Value allocateHostAt(const Napi::CallbackInfo& info);
  Napi::Value kernelGlobal(const Napi::CallbackInfo& info);
  Napi::Value kernelRegisters(const Napi::CallbackInfo& info);
  Napi::Value read(const Napi::CallbackInfo& info);
  Napi::Value write(const Napi::CallbackInfo& info);
  Napi::Value checkpointUnavailableReason(const Napi::CallbackInfo& info);
  Napi::Value openCheckpoint(const Napi::CallbackInfo& info);
  Napi::Value profilerUnavailableReason(const Napi::CallbackInfo& info);
  Napi::Value profilerChipName(const Napi::CallbackInfo& info);
  Napi::Value createProfiler(const Napi::CallbackInfo& info);
  Napi::Value dispose(const Napi::CallbackInfo& info);

  std::shared_ptr<Driver> driver_;
  std::shared_ptr<CompletionChannel> completions_;
  std::int64_t externalBytes_ = 0;  // host buffers reported to V8
};

}  // namespace kreplay::binding
