// NativeEvent: the native side of TimingEvent.
#pragma once

#include <napi.h>

#include <memory>

#include "core/event-state.hpp"

namespace kreplay::binding {

class EventWrap : public Napi::ObjectWrap<EventWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  /** A new NativeEvent object around `event`. */
  static Napi::Object wrap(Napi::Env env, const std::shared_ptr<EventState>& event);
  /** The event behind a NativeEvent object; throws a TypeError for anything else. */
  static std::shared_ptr<EventState> unwrap(const Napi::Value& value);

  explicit EventWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value completed(const Napi::CallbackInfo& info);
  Napi::Value timestampNanoseconds(const Napi::CallbackInfo& info);
  Napi::Value synchronize(const Napi::CallbackInfo& info);

  std::shared_ptr<EventState> event_;
};

}  // namespace kreplay::binding
