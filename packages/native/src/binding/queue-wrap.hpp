// NativeQueue: the native side of Queue. Every enqueue is one synchronous, cheap call.
#pragma once

#include <napi.h>

#include <memory>

#include "binding/completion-channel.hpp"
#include "core/queue.hpp"

namespace kreplay::binding {

class QueueWrap : public Napi::ObjectWrap<QueueWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  struct Parts {
    std::shared_ptr<Queue> queue;
    std::shared_ptr<CompletionChannel> completions;
  };
  static Napi::Object wrap(Napi::Env env, Parts parts);

  explicit QueueWrap(const Napi::CallbackInfo& info);
  /** The queue behind a NativeQueue object, or null when `value` is not one. */
  static std::shared_ptr<Queue> queueOf(Napi::Env env, const Napi::Value& value);

 private:
  Napi::Value enqueueCopy(const Napi::CallbackInfo& info);
  Napi::Value enqueueHash(const Napi::CallbackInfo& info);
  Napi::Value enqueueHashToHost(const Napi::CallbackInfo& info);
  Napi::Value enqueueConditionalCopy(const Napi::CallbackInfo& info);
  Napi::Value enqueuePageListCopy(const Napi::CallbackInfo& info);
  Napi::Value enqueueKernel(const Napi::CallbackInfo& info);
  Napi::Value enqueueUserKernel(const Napi::CallbackInfo& info);
  Napi::Value enqueueGraph(const Napi::CallbackInfo& info);
  Napi::Value enqueueAllocate(const Napi::CallbackInfo& info);
  Napi::Value enqueueFree(const Napi::CallbackInfo& info);
  Napi::Value recordEvent(const Napi::CallbackInfo& info);
  Napi::Value waitForEvent(const Napi::CallbackInfo& info);
  Napi::Value synchronize(const Napi::CallbackInfo& info);
  Napi::Value dispose(const Napi::CallbackInfo& info);

  std::shared_ptr<Queue> queue_;
  std::shared_ptr<CompletionChannel> completions_;
};

/** `{ address, injectedFault, availableBytes }` of an allocation attempt. */
Napi::Object allocationResultObject(Napi::Env env, const AllocationResult& result);

}  // namespace kreplay::binding
