// A Promise-returning AsyncWorker: inputs are captured (copied) on the JS thread when it starts,
// Execute runs off the JS thread with no Node-API calls and catches every exception into SetError,
// and the result is converted on the JS thread.
#pragma once

#include <napi.h>

#include <exception>
#include <functional>
#include <utility>

namespace kreplay::binding {

/** The result of work that returns nothing. */
struct Nothing {};

template <typename Result>
class PromiseWorker final : public Napi::AsyncWorker {
 public:
  using Work = std::function<Result()>;
  using Resolve = std::function<Napi::Value(Napi::Env, Result&)>;

  static Napi::Promise start(Napi::Env env, const char* name, Work work, Resolve resolve) {
    auto* worker = new PromiseWorker(env, name, std::move(work), std::move(resolve));
    Napi::Promise promise = worker->deferred_.Promise();
    worker->Queue();
    return promise;
  }

 private:
  PromiseWorker(Napi::Env env, const char* name, Work work, Resolve resolve)
      : Napi::AsyncWorker(env, name),
        deferred_(Napi::Promise::Deferred::New(env)),
        work_(std::move(work)),
        resolve_(std::move(resolve)) {}

  void Execute() override {
    try {
      result_ = work_();
    } catch (const std::exception& exception) {
      SetError(exception.what());
    } catch (...) {
      SetError("an unknown C++ exception");
    }
  }

  void OnOK() override {
    try {
      deferred_.Resolve(resolve_(Env(), result_));
    } catch (const Napi::Error& error) {
      deferred_.Reject(error.Value());
    }
  }

  void OnError(const Napi::Error& error) override { deferred_.Reject(error.Value()); }

  Napi::Promise::Deferred deferred_;
  Work work_;
  Resolve resolve_;
  Result result_{};
};

inline Napi::Value resolveUndefined(Napi::Env env, Nothing&) {
  return env.Undefined();
}

}  // namespace kreplay::binding
