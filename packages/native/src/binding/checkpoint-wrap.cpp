#include "binding/checkpoint-wrap.hpp"

#include <optional>

#include "binding/addon-data.hpp"

namespace kreplay::binding {

Napi::Function CheckpointWrap::define(Napi::Env env) {
  return DefineClass(env, "NativeCheckpoint",
                     {
                         InstanceMethod<&CheckpointWrap::save>("save"),
                         InstanceMethod<&CheckpointWrap::restore>("restore"),
                         InstanceMethod<&CheckpointWrap::release>("release"),
                     });
}

Napi::Object CheckpointWrap::wrap(Napi::Env env, Parts parts) {
  return addonData(env).checkpointConstructor.New({Napi::External<Parts>::New(env, &parts)});
}

CheckpointWrap::CheckpointWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<CheckpointWrap>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(
        info.Env(), "[native] [binding] NativeCheckpoint is created by NativeRuntime.openCheckpoint().");
  }
  const Parts& parts = *info[0].As<Napi::External<Parts>>().Data();
  session_ = parts.session;
  completions_ = parts.completions;
}

Napi::Value CheckpointWrap::start(Napi::Env env, Step step) {
  auto deferred = Napi::Promise::Deferred::New(env);
  auto completions = completions_;
  completions_->expect(env);
  // The queue thread always calls back, once (also when the queue was shut down), so expect() is balanced.
  ((*session_).*step)([completions, deferred](std::optional<OperationError> error, double milliseconds) {
    completions->post([deferred, error = std::move(error), milliseconds](Napi::Env env) {
      Napi::Object result = Napi::Object::New(env);
      if (error) {
        Napi::Object failure = Napi::Object::New(env);
        failure.Set("operation", error->operation);
        failure.Set("code", error->code);
        failure.Set("message", error->message);
        result.Set("error", failure);
      } else {
        result.Set("error", env.Null());
      }
      result.Set("milliseconds", milliseconds);
      deferred.Resolve(result);
    });
  });
  return deferred.Promise();
}

Napi::Value CheckpointWrap::save(const Napi::CallbackInfo& info) {
  return start(info.Env(), &CheckpointSession::save);
}

Napi::Value CheckpointWrap::restore(const Napi::CallbackInfo& info) {
  return start(info.Env(), &CheckpointSession::restore);
}

Napi::Value CheckpointWrap::release(const Napi::CallbackInfo& info) {
  return start(info.Env(), &CheckpointSession::release);
}

}  // namespace kreplay::binding
