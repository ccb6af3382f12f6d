// NativeCheckpoint: the native side of CheckpointSession. Each step is enqueued on the session's
// queue and settles its Promise from the queue thread through the completion channel.
#pragma once

#include <napi.h>

#include <memory>

#include "binding/completion-channel.hpp"
#include "core/checkpoint-session.hpp"

namespace kreplay::binding {

class CheckpointWrap : public Napi::ObjectWrap<CheckpointWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  struct Parts {
    std::shared_ptr<CheckpointSession> session;
    std::shared_ptr<CompletionChannel> completions;
  };
  static Napi::Object wrap(Napi::Env env, Parts parts);

  explicit CheckpointWrap(const Napi::CallbackInfo& info);

 private:
  using Step = void (CheckpointSession::*)(CheckpointSession::Done);
  /** Promise<{ error: null | { operation, code, message }, milliseconds }>. */
  Napi::Value start(Napi::Env env, Step step);
  Napi::Value save(const Napi::CallbackInfo& info);
  Napi::Value restore(const Napi::CallbackInfo& info);
  Napi::Value release(const Napi::CallbackInfo& info);

  std::shared_ptr<CheckpointSession> session_;
  std::shared_ptr<CompletionChannel> completions_;
};

}  // namespace kreplay::binding
