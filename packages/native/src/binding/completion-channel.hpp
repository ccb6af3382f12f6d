// Settles Promises from native threads: a queue thread posts a completion, and it runs on the JS
// thread through one thread-safe function. Nothing blocks a libuv pool thread while work is pending.
#pragma once

#include <napi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>

namespace kreplay::binding {

class CompletionChannel : public std::enable_shared_from_this<CompletionChannel> {
 public:
  /** Runs on the JS thread. */
  using Settle = std::function<void(Napi::Env)>;

  /** JS thread. The channel does not keep the event loop alive while nothing is expected. */
  static std::shared_ptr<CompletionChannel> create(Napi::Env env);
  ~CompletionChannel();

  /** JS thread: one more completion will be posted; the event loop stays alive until it runs. */
  void expect(Napi::Env env);
  /** Any thread: runs `settle` on the JS thread (dropped if the environment is shutting down). */
  void post(Settle settle);

 private:
  struct Gate {
    std::mutex mutex;
    bool open = true;
  };
  static void callJs(Napi::Env env, Napi::Function, std::nullptr_t*, Settle* settle);
  using Function = Napi::TypedThreadSafeFunction<std::nullptr_t, Settle, callJs>;

  CompletionChannel() = default;
  void settled(Napi::Env env);

  std::shared_ptr<Gate> gate_ = std::make_shared<Gate>();
  Function function_;
  std::size_t pending_ = 0;  // JS thread only
};

}  // namespace kreplay::binding
