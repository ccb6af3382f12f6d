// NativeProfiler: the native side of ProfilerSession. beginPass and endPass enqueue on the queue they
// are given and return at once; result() reads the last finished dispatch.
#pragma once

#include <napi.h>

#include <memory>

#include "core/profiler-session.hpp"

namespace kreplay::binding {

class ProfilerWrap : public Napi::ObjectWrap<ProfilerWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  static Napi::Object wrap(Napi::Env env, std::shared_ptr<ProfilerSession> session);

  explicit ProfilerWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value plan(const Napi::CallbackInfo& info);
  Napi::Value beginPass(const Napi::CallbackInfo& info);
  Napi::Value beginDispatch(const Napi::CallbackInfo& info);
  Napi::Value endDispatch(const Napi::CallbackInfo& info);
  Napi::Value endPass(const Napi::CallbackInfo& info);
  Napi::Value result(const Napi::CallbackInfo& info);
  Napi::Value release(const Napi::CallbackInfo& info);

  std::shared_ptr<ProfilerSession> session_;
};

/** `{ chip, passCount, configImageBytes, units }` of a plan. */
Napi::Object planObject(Napi::Env env, const ProfilerPlan& plan);

/** planCuptiMetrics(chip, metrics: string[]) -> Promise<plan | { code, message }>: CUPTI's host API, no
 * device. */
Napi::Value planCuptiMetrics(const Napi::CallbackInfo& info);

/** The strings of a JavaScript array of strings. */
std::vector<std::string> toStrings(const Napi::Value& value);

}  // namespace kreplay::binding
