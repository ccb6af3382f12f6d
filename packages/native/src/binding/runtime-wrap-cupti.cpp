// NativeRuntime's CUPTI facilities: checkpoints and the counter profiler.
#include "binding/runtime-wrap.hpp"

#include "binding/checkpoint-wrap.hpp"
#include "binding/convert.hpp"
#include "binding/operation-outcome.hpp"
#include "binding/profiler-wrap.hpp"
#include "binding/promise-worker.hpp"
#include "binding/queue-wrap.hpp"

namespace kreplay::binding {

// checkpointUnavailableReason() -> string | null: why checkpoints cannot be taken (loads CUPTI once).
Napi::Value RuntimeWrap::checkpointUnavailableReason(const Napi::CallbackInfo& info) {
  const std::string reason = driverCall(info.Env(), [&] { return driver_->checkpointUnavailableReason(); });
  return reason.empty() ? info.Env().Null() : Napi::String::New(info.Env(), reason);
}

// openCheckpoint(queue: NativeQueue) -> Promise<NativeCheckpoint | { code, message }>: CUPTI is
// loaded off the JavaScript thread.
Napi::Value RuntimeWrap::openCheckpoint(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  auto queue = QueueWrap::queueOf(info.Env(), info[0]);
  if (!queue)
    throw Napi::TypeError::New(info.Env(), "[native] [binding] openCheckpoint needs a NativeQueue.");
  struct Opened {
    std::shared_ptr<CheckpointSession> session;
    std::string code;
    std::string message;
  };
  auto driver = driver_;
  auto completions = completions_;
  return PromiseWorker<Opened>::start(
      info.Env(), "kreplay:open-checkpoint",
      [driver, queue] {
        try {
          return Opened{driver->openCheckpoint(queue), "", ""};
        } catch (const OperationFailure& failure) {
          return Opened{nullptr, failure.code(), failure.what()};
        }
      },
      [completions](Napi::Env env, Opened& opened) -> Napi::Value {
        if (opened.session) return CheckpointWrap::wrap(env, {opened.session, completions});
        Napi::Object failure = Napi::Object::New(env);
        failure.Set("code", opened.code);
        failure.Set("message", opened.message);
        return failure;
      });
}

// profilerUnavailableReason() -> string | null: why counters cannot be collected (loads CUPTI once).
Napi::Value RuntimeWrap::profilerUnavailableReason(const Napi::CallbackInfo& info) {
  const std::string reason = driverCall(info.Env(), [&] { return driver_->profilerUnavailableReason(); });
  return reason.empty() ? info.Env().Null() : Napi::String::New(info.Env(), reason);
}

// profilerChipName(agent) -> string | { code, message }: the chip CUPTI knows the agent by.
Napi::Value RuntimeWrap::profilerChipName(const Napi::CallbackInfo& info) {
  requireArguments(info, 1);
  const std::uint32_t agent = agentOf(info[0]);
  try {
    return Napi::String::New(info.Env(), driver_->profilerChipName(agent));
  } catch (const OperationFailure& failure) {
    Napi::Object object = Napi::Object::New(info.Env());
    object.Set("code", failure.code());
    object.Set("message", failure.what());
    return object;
  }
}

// createProfiler(agent, metrics: string[], range: 'kernel' | 'dispatch', l2Flush: 'write-discard' | 'read' |
// 'none', instructionCache: 'evict' | 'keep') -> Promise<NativeProfiler | { code, message }>: CUPTI's
// plan (config image, passes) is computed off the JavaScript thread. profiler.ts validated the choices.
Napi::Value RuntimeWrap::createProfiler(const Napi::CallbackInfo& info) {
  requireArguments(info, 5);
  const std::uint32_t agent = agentOf(info[0]);
  const std::vector<std::string> metrics = toStrings(info[1]);
  const ProfilerRange range =
      info[2].ToString().Utf8Value() == "dispatch" ? ProfilerRange::Dispatch : ProfilerRange::Kernel;
  const std::string flush = info[3].ToString().Utf8Value();
  ProfilerConditions conditions;
  conditions.l2Flush = flush == "read" ? L2Flush::Read : flush == "none" ? L2Flush::None : L2Flush::WriteDiscard;
  conditions.evictInstructionCaches = info[4].ToString().Utf8Value() == "evict";
  struct Created {
    std::shared_ptr<ProfilerSession> session;
    std::string code;
    std::string message;
  };
  auto driver = driver_;
  return PromiseWorker<Created>::start(
      info.Env(), "kreplay:create-profiler",
      [driver, agent, metrics, range, conditions] {
        try {
          return Created{driver->createProfilerSession(agent, metrics, range, conditions), "", ""};
        } catch (const OperationFailure& failure) {
          return Created{nullptr, failure.code(), failure.what()};
        }
      },
      [](Napi::Env env, Created& created) -> Napi::Value {
        if (created.session) return ProfilerWrap::wrap(env, created.session);
        Napi::Object failure = Napi::Object::New(env);
        failure.Set("code", created.code);
        failure.Set("message", created.message);
        return failure;
      });
}

}  // namespace kreplay::binding
