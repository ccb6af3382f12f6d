#include "binding/completion-channel.hpp"

namespace kreplay::binding {

std::shared_ptr<CompletionChannel> CompletionChannel::create(Napi::Env env) {
  std::shared_ptr<CompletionChannel> channel(new CompletionChannel());
  // The finalizer (JS thread) closes the gate before Node frees the function, so no thread calls
  // it afterwards, even during environment teardown.
  auto* gate = new std::shared_ptr<Gate>(channel->gate_);
  channel->function_ = Function::New(
      env, "kreplay:completions", 0, 1, nullptr,
      [](Napi::Env, std::shared_ptr<Gate>* finalized, std::nullptr_t*) {
        {
          std::lock_guard<std::mutex> lock((*finalized)->mutex);
          (*finalized)->open = false;
        }
        delete finalized;
      },
      gate);
  channel->function_.Unref(env);
  return channel;
}

CompletionChannel::~CompletionChannel() {
  std::lock_guard<std::mutex> lock(gate_->mutex);
  if (gate_->open) function_.Release();
}

void CompletionChannel::expect(Napi::Env env) {
  if (pending_++ == 0) function_.Ref(env);
}

void CompletionChannel::settled(Napi::Env env) {
  if (--pending_ == 0) function_.Unref(env);
}

void CompletionChannel::post(Settle settle) {
  auto self = shared_from_this();
  auto* data = new Settle([self, settle = std::move(settle)](Napi::Env env) {
    settle(env);
    self->settled(env);
  });
  {
    std::lock_guard<std::mutex> lock(gate_->mutex);
    if (gate_->open && function_.NonBlockingCall(data) == napi_ok) return;
  }
  delete data;
}

void CompletionChannel::callJs(Napi::Env env, Napi::Function, std::nullptr_t*, Settle* settle) {
  if (env != nullptr) {
    Napi::HandleScope scope(env);
    try {
      (*settle)(env);
    } catch (const Napi::Error&) {
      // A Promise that cannot be settled stays pending; there is nobody to report to here.
    }
  }
  delete settle;
}

}  // namespace kreplay::binding
