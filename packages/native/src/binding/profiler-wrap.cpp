#include "binding/profiler-wrap.hpp"

#include "binding/addon-data.hpp"
#include "binding/convert.hpp"
#include "binding/promise-worker.hpp"
#include "binding/queue-wrap.hpp"
#include "drivers/cuda/cupti-metric-plan.hpp"

namespace kreplay::binding {

Napi::Function ProfilerWrap::define(Napi::Env env) {
  return DefineClass(env, "NativeProfiler",
                     {
                         InstanceMethod<&ProfilerWrap::plan>("plan"),
                         InstanceMethod<&ProfilerWrap::beginPass>("beginPass"),
                         InstanceMethod<&ProfilerWrap::beginDispatch>("beginDispatch"),
                         InstanceMethod<&ProfilerWrap::endDispatch>("endDispatch"),
                         InstanceMethod<&ProfilerWrap::endPass>("endPass"),
                         InstanceMethod<&ProfilerWrap::result>("result"),
                         InstanceMethod<&ProfilerWrap::release>("release"),
                     });
}

Napi::Object ProfilerWrap::wrap(Napi::Env env, std::shared_ptr<ProfilerSession> session) {
  return addonData(env).profilerConstructor.New(
      {Napi::External<std::shared_ptr<ProfilerSession>>::New(env, &session)});
}

ProfilerWrap::ProfilerWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ProfilerWrap>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(
        info.Env(), "[native] [binding] NativeProfiler is created by NativeRuntime.createProfiler().");
  }
  session_ = *info[0].As<Napi::External<std::shared_ptr<ProfilerSession>>>().Data();
}

Napi::Object planObject(Napi::Env env, const ProfilerPlan& plan) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("chip", plan.chip);
  object.Set("passCount", plan.passCount);
  object.Set("configImageBytes", static_cast<double>(plan.configImageBytes));
  Napi::Array units = Napi::Array::New(env, plan.units.size());
  for (std::size_t index = 0; index < plan.units.size(); ++index)
    units.Set(static_cast<std::uint32_t>(index), plan.units[index]);
  object.Set("units", units);
  return object;
}

std::vector<std::string> toStrings(const Napi::Value& value) {
  std::vector<std::string> strings;
  Napi::Array array = value.As<Napi::Array>();
  for (std::uint32_t index = 0; index < array.Length(); ++index)
    strings.push_back(array.Get(index).As<Napi::String>().Utf8Value());
  return strings;
}

Napi::Value ProfilerWrap::plan(const Napi::CallbackInfo& info) {
  return planObject(info.Env(), session_->plan());
}

// beginPass(queue: NativeQueue, pass, dispatches, flushBetweenDispatches)
Napi::Value ProfilerWrap::beginPass(const Napi::CallbackInfo& info) {
  requireArguments(info, 4);
  auto queue = QueueWrap::queueOf(info.Env(), info[0]);
  if (!queue) throw Napi::TypeError::New(info.Env(), "[native] [binding] beginPass needs a NativeQueue.");
  PassScope scope;
  scope.dispatches = static_cast<std::uint32_t>(toUint64(info[2]));
  scope.flushBetweenDispatches = info[3].ToBoolean().Value();
  driverCall(info.Env(), [&] { session_->beginPass(queue, static_cast<std::uint32_t>(toUint64(info[1])), scope); });
  return info.Env().Undefined();
}

// beginDispatch(queue: NativeQueue, pass, index)
Napi::Value ProfilerWrap::beginDispatch(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  auto queue = QueueWrap::queueOf(info.Env(), info[0]);
  if (!queue) throw Napi::TypeError::New(info.Env(), "[native] [binding] beginDispatch needs a NativeQueue.");
  driverCall(info.Env(), [&] {
    session_->beginDispatch(queue, static_cast<std::uint32_t>(toUint64(info[1])), static_cast<std::uint32_t>(toUint64(info[2])));
  });
  return info.Env().Undefined();
}

// endDispatch(queue: NativeQueue, pass, index)
Napi::Value ProfilerWrap::endDispatch(const Napi::CallbackInfo& info) {
  requireArguments(info, 3);
  auto queue = QueueWrap::queueOf(info.Env(), info[0]);
  if (!queue) throw Napi::TypeError::New(info.Env(), "[native] [binding] endDispatch needs a NativeQueue.");
  driverCall(info.Env(), [&] {
    session_->endDispatch(queue, static_cast<std::uint32_t>(toUint64(info[1])), static_cast<std::uint32_t>(toUint64(info[2])));
  });
  return info.Env().Undefined();
}

// endPass(queue: NativeQueue, pass)
Napi::Value ProfilerWrap::endPass(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  auto queue = QueueWrap::queueOf(info.Env(), info[0]);
  if (!queue) throw Napi::TypeError::New(info.Env(), "[native] [binding] endPass needs a NativeQueue.");
  driverCall(info.Env(), [&] { session_->endPass(queue, static_cast<std::uint32_t>(toUint64(info[1]))); });
  return info.Env().Undefined();
}

// result() -> { dispatch, values: number[], dispatchValues: number[][], error: null | { operation, code, message } }
Napi::Value ProfilerWrap::result(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const ProfilerResult result = session_->result();
  Napi::Object object = Napi::Object::New(env);
  object.Set("dispatch", static_cast<double>(result.dispatch));
  Napi::Array values = Napi::Array::New(env, result.values.size());
  for (std::size_t index = 0; index < result.values.size(); ++index)
    values.Set(static_cast<std::uint32_t>(index), result.values[index]);
  object.Set("values", values);
  Napi::Array dispatchValues = Napi::Array::New(env, result.dispatchValues.size());
  for (std::size_t dispatch = 0; dispatch < result.dispatchValues.size(); ++dispatch) {
    const auto& row = result.dispatchValues[dispatch];
    Napi::Array rowValues = Napi::Array::New(env, row.size());
    for (std::size_t index = 0; index < row.size(); ++index) rowValues.Set(static_cast<std::uint32_t>(index), row[index]);
    dispatchValues.Set(static_cast<std::uint32_t>(dispatch), rowValues);
  }
  object.Set("dispatchValues", dispatchValues);
  if (result.error) {
    Napi::Object error = Napi::Object::New(env);
    error.Set("operation", result.error->operation);
    error.Set("code", result.error->code);
    error.Set("message", result.error->message);
    object.Set("error", error);
  } else {
    object.Set("error", env.Null());
  }
  return object;
}

// release() -> Promise<void>: stops profiling and frees the session's memory, off the JS thread.
Napi::Value ProfilerWrap::release(const Napi::CallbackInfo& info) {
  auto session = session_;
  return PromiseWorker<Nothing>::start(
      info.Env(), "kreplay:profiler-release",
      [session] {
        session->release();
        return Nothing{};
      },
      resolveUndefined);
}

Napi::Value planCuptiMetrics(const Napi::CallbackInfo& info) {
  requireArguments(info, 2);
  const std::string chip = info[0].As<Napi::String>().Utf8Value();
  const std::vector<std::string> metrics = toStrings(info[1]);
  struct Planned {
    ProfilerPlan plan;
    std::string code;
    std::string message;
  };
  return PromiseWorker<Planned>::start(
      info.Env(), "kreplay:plan-cupti-metrics",
      [chip, metrics] {
        try {
          return Planned{::kreplay::planCuptiMetrics(chip, metrics), "", ""};
        } catch (const OperationFailure& failure) {
          return Planned{{}, failure.code(), failure.what()};
        }
      },
      [](Napi::Env env, Planned& planned) -> Napi::Value {
        if (planned.code.empty()) return planObject(env, planned.plan);
        Napi::Object failure = Napi::Object::New(env);
        failure.Set("code", planned.code);
        failure.Set("message", planned.message);
        return failure;
      });
}

}  // namespace kreplay::binding
