#include "binding/event-wrap.hpp"

#include "binding/addon-data.hpp"
#include "binding/promise-worker.hpp"

namespace kreplay::binding {

Napi::Function EventWrap::define(Napi::Env env) {
  return DefineClass(env, "NativeEvent",
                     {
                         InstanceMethod<&EventWrap::completed>("completed"),
                         InstanceMethod<&EventWrap::timestampNanoseconds>("timestampNanoseconds"),
                         InstanceMethod<&EventWrap::synchronize>("synchronize"),
                     });
}

Napi::Object EventWrap::wrap(Napi::Env env, const std::shared_ptr<EventState>& event) {
  auto owned = event;
  return addonData(env).eventConstructor.New({Napi::External<std::shared_ptr<EventState>>::New(env, &owned)});
}

std::shared_ptr<EventState> EventWrap::unwrap(const Napi::Value& value) {
  const Napi::Env env = value.Env();
  if (!value.IsObject() || !value.As<Napi::Object>().InstanceOf(addonData(env).eventConstructor.Value())) {
    throw Napi::TypeError::New(env, "[native] [binding] expected a NativeEvent.");
  }
  return Unwrap(value.As<Napi::Object>())->event_;
}

EventWrap::EventWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<EventWrap>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(info.Env(),
                               "[native] [binding] NativeEvent is created by NativeQueue.recordEvent().");
  }
  event_ = *info[0].As<Napi::External<std::shared_ptr<EventState>>>().Data();
}

Napi::Value EventWrap::completed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), event_->completed());
}

Napi::Value EventWrap::timestampNanoseconds(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(event_->timestampNanoseconds()));
}

Napi::Value EventWrap::synchronize(const Napi::CallbackInfo& info) {
  auto event = event_;
  if (event->completed()) {
    auto deferred = Napi::Promise::Deferred::New(info.Env());
    deferred.Resolve(info.Env().Undefined());
    return deferred.Promise();
  }
  return PromiseWorker<Nothing>::start(
      info.Env(), "kreplay:event-synchronize",
      [event] {
        event->wait();
        return Nothing{};
      },
      resolveUndefined);
}

}  // namespace kreplay::binding
